/**
 * ChatDev's `${NAME}` placeholders. ChatDev resolves them at load, from the root `vars` (which may name each
 * other), then the environment. Here a placeholder naming a var becomes a read of the graph's var at run
 * time (`ctx.vars.NAME`, so per-run `vars` overrides reach it, as ChatDev's `vars_override`); one naming no
 * var becomes a var whose default reads the environment (`"${NAME}"`, resolved at run time, never at
 * import, so no secret lands in a generated file). `${NAME:-fallback}` keeps its fallback.
 */
import type { Scalar, Workflow } from "./workflow.ts";
import type { ImportProblems } from "./problems.ts";

export interface GraphVar {
  readonly name: string;
  readonly type: "string" | "number" | "boolean";
  /** the `.graph` default as written (a quoted string, a number or a boolean) */
  readonly value: string;
}

const PLACEHOLDER = /\$\{([A-Za-z0-9_]+)(?::-([^}]*))?\}/g;

/** The vars a graph declares: its root vars with var-to-var references substituted, plus environment reads. */
export class VarTable {
  private readonly resolved = new Map<string, Scalar>();
  private readonly env = new Map<string, string>();
  private readonly used = new Set<string>();

  constructor(
    private readonly w: Workflow,
    private readonly problems: ImportProblems,
  ) {
    for (const name of w.vars.keys()) this.resolve(name, []);
  }

  private resolve(name: string, chain: readonly string[]): Scalar | undefined {
    if (this.resolved.has(name)) return this.resolved.get(name);
    if (chain.includes(name)) {
      this.problems.error(this.w.file, 1, `vars.${name}`, `Detected placeholder cycle referencing '${name}' (${[...chain, name].join(" -> ")})`);
      return undefined;
    }
    const raw = this.w.vars.get(name);
    if (typeof raw !== "string") {
      if (raw !== undefined) this.resolved.set(name, raw);
      return raw;
    }
    const whole = /^\$\{([A-Za-z0-9_]+)\}$/.exec(raw);
    // a value that is only a placeholder keeps the referenced value's type
    if (whole && this.w.vars.has(whole[1]!)) {
      const v = this.resolve(whole[1]!, [...chain, name]);
      if (v !== undefined) this.resolved.set(name, v);
      return v;
    }
    const text = raw.replace(PLACEHOLDER, (m, ref: string) => {
      if (!this.w.vars.has(ref)) return m; // the environment's, at run time
      const v = this.resolve(ref, [...chain, name]);
      return v === undefined ? m : String(v);
    });
    this.resolved.set(name, text);
    return text;
  }

  /**
   * A config string as a TypeScript expression: a string literal, or a template literal reading `vars`
   * (`ctx` is the node's context).
   */
  text(value: string): string {
    if (!value.includes("${")) return JSON.stringify(value);
    let out = "`";
    let last = 0;
    for (const m of value.matchAll(PLACEHOLDER)) {
      out += escapeTemplate(value.slice(last, m.index));
      out += `\${ctx.vars.${this.use(m[1]!, m[2])}}`;
      last = m.index + m[0].length;
    }
    return `${out}${escapeTemplate(value.slice(last))}\``;
  }

  private use(name: string, fallback: string | undefined): string {
    this.used.add(name);
    if (!this.resolved.has(name) && !this.env.has(name)) this.env.set(name, fallback === undefined ? `\${${name}}` : `\${${name}:-${fallback}}`);
    return name;
  }

  /** The vars the graph's nodes read, in first-use order, with their defaults (`.graph` syntax). */
  declared(): GraphVar[] {
    return [...this.used].map((name) => {
      const v = this.resolved.get(name);
      if (v === undefined) return { name, type: "string", value: graphString(this.env.get(name)!) };
      if (typeof v === "string") return { name, type: "string", value: graphString(v) };
      return { name, type: typeof v as "number" | "boolean", value: String(v) };
    });
  }
}

function escapeTemplate(s: string): string {
  return s.replace(/[`\\]/g, (c) => `\\${c}`).replace(/\$\{/g, "\\${");
}

/** A `.graph` string literal; `${` stays a placeholder (resolved at run time). */
function graphString(s: string): string {
  return JSON.stringify(s);
}
