/**
 * The update checks of one graph (graphc's run-time data checks): each key of an update must be a field the
 * writer may write, and its value must pass the field's test (types.ts `updateValueCheck`, `typeof` /
 * `Array.isArray` level). Each field's test is one module-level function, declared on first use and shared
 * by every node check, the Command.PARENT check of subgraph nodes and `checkUpdate` (a Command given as
 * input), so the test text is written once per field.
 */
import type { FieldIR, GraphIR } from "../4-lower/ir.ts";
import type { EmitContext } from "./context.ts";
import { inComment, pascal, str } from "./escape.ts";
import type { GraphNames } from "./names.ts";
import { updateValueCheck } from "./types.ts";

export class UpdateChecks {
  readonly decls: string[] = [];
  private readonly tests = new Map<string, { name: string; want: string } | undefined>();
  private readonly fields: Map<string, FieldIR>;

  constructor(
    private readonly g: GraphIR,
    private readonly n: GraphNames,
    private readonly cx: EmitContext,
  ) {
    this.fields = new Map(g.fields.map((f) => [f.name, f]));
  }

  /** the test function of field `name` (declared on first use), or undefined when its values are trusted */
  private test(name: string): { name: string; want: string } | undefined {
    if (this.tests.has(name)) return this.tests.get(name);
    const f = this.fields.get(name)!;
    const check = updateValueCheck(f, "x", "y");
    let entry: { name: string; want: string } | undefined;
    if (check !== undefined) {
      const rt = this.cx.scope.rt.bind(this.cx.scope);
      const fn = this.cx.scope.fresh(`${this.n.graph}${pascal(f.name)}Fits`);
      entry = { name: fn, want: check.want };
      // `y` is a local so that TypeScript narrows it (the result of a call is not narrowed)
      const overwrite =
        check.field === "true"
          ? `return ${rt("isOverwrite")}(x);`
          : `if (!${rt("isOverwrite")}(x)) return false;\nconst y = ${rt("overwriteValue")}(x);\nreturn ${check.field};`;
      this.decls.push(
        this.cx.traced(
          f.span,
          [
            `/** Whether \`x\` may be written into \`${inComment(f.name)}\` of \`${inComment(this.n.graph)}\`: a value of its update type, or an Overwrite of a value of its type. */`,
            `function ${fn}(x: unknown): boolean {`,
            `if (${check.test}) return true;`,
            overwrite,
            `}`,
          ].join("\n"),
        ),
      );
    }
    this.tests.set(name, entry);
    return entry;
  }

  /**
   * The body of `(u) => …`: runs `unknown` (a statement that throws) for a key outside `allowed`, and
   * throws an `UpdateTypeError` for a value its field's test rejects; `node` is an expression (`undefined`
   * for a Command given as input). Own keys only (`Object.keys`, as `apply` and the saved pending writes
   * read an update): an inherited enumerable key is never applied, so it is not checked either.
   */
  keyCheck(allowed: readonly string[], node: string, unknown: string): string {
    if (allowed.length === 0) return `{ for (const k of Object.keys(u)) ${unknown} }`;
    const err = this.cx.scope.rt("updateTypeError");
    const trusted: string[] = [];
    const typed: string[] = [];
    for (const w of allowed) {
      const t = this.test(w);
      if (t === undefined) trusted.push(`case ${str(w)}:`);
      else typed.push(`case ${str(w)}:\nif (!${t.name}(u[k])) ${err}(${str(this.g.name)}, ${node}, k, ${str(t.want)}, u[k]);\nbreak;`);
    }
    return `{
      for (const k of Object.keys(u)) {
        switch (k) {
          ${trusted.length > 0 ? `${trusted.join("\n")}\nbreak;` : ""}
          ${typed.join("\n")}
          default:
            ${unknown}
        }
      }
    }`;
  }

  /**
   * `checkUpdate`: the update of a Command given as `invoke` input (or written as START by updateState) may
   * write any field of the graph, as in LangGraph, with the same value tests as a node's update.
   */
  checkUpdate(): string {
    const g = this.g;
    if (g.fields.length === 0) return "";
    const err = this.cx.scope.rt("InvalidUpdateError");
    const unknown = `throw new ${err}(${str(`Command update given as input to graph "${g.name}" names unknown field `)} + JSON.stringify(k), { graph: ${str(g.name)}, field: k });`;
    return `checkUpdate: (u) => ${this.keyCheck(g.fields.map((f) => f.name), "undefined", unknown)},`;
  }
}
