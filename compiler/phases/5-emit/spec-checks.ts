/**
 * The update checks of one graph (graphc's run-time data checks): each key of an update must be a field the
 * writer may write, and its value must pass the field's test (types.ts `updateValueCheck`, `typeof` /
 * `Array.isArray` level). Each field's test is one module-level function, declared on first use and shared
 * by every node check, the Command.PARENT check of subgraph nodes and `checkUpdate` (a Command given as
 * input), and by the fields whose test is the same, so each test text is written once per graph.
 */
import type { FieldIR, GraphIR } from "../4-lower/ir.ts";
import type { EmitContext } from "./context.ts";
import { inComment, pascal, str } from "./escape.ts";
import type { GraphNames } from "./names.ts";
import { updateValueCheck, type UpdateValueCheck } from "./types.ts";

/** What a check needs of a field's test: the function, the expected type's text, the tests it makes. */
type FieldUse = { readonly name: string; readonly want: string; readonly scalar: string | undefined; readonly element: string | undefined };

/** One test function: the fields it tests (in first-use order) and its tests. */
interface FieldTest {
  readonly name: string;
  readonly fields: FieldIR[];
  readonly check: UpdateValueCheck;
}

export class UpdateChecks {
  /** field name -> its test (undefined: trusted) */
  private readonly byField = new Map<string, FieldUse | undefined>();
  /** test text -> the function; fields with the same test (two `string` fields) share one */
  private readonly byText = new Map<string, FieldTest>();
  private readonly fields: Map<string, FieldIR>;

  constructor(
    private readonly g: GraphIR,
    private readonly n: GraphNames,
    private readonly cx: EmitContext,
  ) {
    this.fields = new Map(g.fields.map((f) => [f.name, f]));
  }

  /** The test functions used so far, declared before the spec. */
  get decls(): string[] {
    const rt = this.cx.scope.rt.bind(this.cx.scope);
    return [...this.byText.values()].map((t) => {
      const c = t.check;
      const isOw = `${rt("isOverwrite")}(x)`;
      // `y` is a local so that TypeScript narrows it (the result of a call is not narrowed)
      const value = `const y = ${rt("overwriteValue")}(x);\nreturn ${c.field};`;
      const plain: string[] = [];
      if (c.scalar !== undefined) plain.push(`if (${c.scalar}) return true;`);
      // an array's elements in a loop (no closure per call, as `every` would need)
      if (c.element !== undefined)
        plain.push(
          c.element === "true"
            ? "if (Array.isArray(x)) return true;"
            : `if (Array.isArray(x)) {\nfor (let i = 0; i < x.length; i++) if (!(${c.element})) return false;\nreturn true;\n}`,
        );
      // the plain tests first (a well-typed value costs its `typeof` only), unless they could accept an
      // Overwrite (an object whose values may all be strings): `apply` unwraps one, so its value must fit
      const body = c.objects
        ? [c.field === "true" ? `if (${isOw}) return true;` : `if (${isOw}) {\n${value}\n}`, ...plain, "return false;"]
        : [...plain, c.field === "true" ? `return ${isOw};` : `if (!${isOw}) return false;\n${value}`];
      const more = t.fields.length > 3 ? ` and ${t.fields.length - 3} more` : "";
      const names = t.fields.slice(0, 3).map((f) => `\`${inComment(f.name)}\``).join(", ") + more;
      return this.cx.traced(
        t.fields[0]!.span,
        [
          `/** Whether \`x\` may be written into ${names} of \`${inComment(this.n.graph)}\`: a value of the update type, or an Overwrite of a value of the field's type. */`,
          `function ${t.name}(x: unknown): boolean {`,
          ...body,
          `}`,
        ].join("\n"),
      );
    });
  }

  /** the test function of field `name` (allocated on first use), or undefined when its values are trusted */
  private test(name: string): FieldUse | undefined {
    if (this.byField.has(name)) return this.byField.get(name);
    const f = this.fields.get(name)!;
    const check = updateValueCheck(f, "x", "y");
    let entry: FieldUse | undefined;
    if (check !== undefined) {
      const text = JSON.stringify([check.scalar ?? null, check.element ?? null, check.field]);
      let t = this.byText.get(text);
      if (t === undefined) {
        // named for the type when it is one word (`GStringFits`), else for the first field
        const base = /^[a-z]+$/.test(check.want) ? pascal(check.want) : pascal(f.name);
        t = { name: this.cx.scope.fresh(`${this.n.graph}${base}Fits`), fields: [], check };
        this.byText.set(text, t);
      }
      t.fields.push(f);
      entry = { name: t.name, want: check.want, scalar: check.scalar, element: check.element };
    }
    this.byField.set(name, entry);
    return entry;
  }

  /**
   * The body of `(u) => …`: runs `unknown` (a statement that throws) for a key outside `allowed`, and
   * throws an `UpdateTypeError` for a value its field's test rejects; `node` is an expression (`undefined`
   * for a Command given as input). `for…in` sees own keys only: the runtime hands over updates whose
   * prototype is Object.prototype or null (an inherited enumerable key is never checked nor applied).
   */
  keyCheck(allowed: readonly string[], node: string, unknown: string): string {
    if (allowed.length === 0) return `{ for (const k in u) ${unknown} }`;
    const err = this.cx.scope.rt("updateTypeError");
    const trusted: string[] = [];
    const typed: string[] = [];
    for (const w of allowed) {
      const t = this.test(w);
      if (t === undefined) trusted.push(`case ${str(w)}:`);
      else {
        // a one-`typeof` test is also written inline: a well-typed primitive then costs no call (W1 −4%)
        const prim = /^typeof x === ("\w+")$/.exec(t.scalar ?? "");
        const pre = prim && t.element === undefined ? `typeof u[k] !== ${prim[1]} && ` : "";
        typed.push(`case ${str(w)}:\nif (${pre}!${t.name}(u[k])) ${err}(${str(this.g.name)}, ${node}, k, ${str(t.want)}, u[k]);\nbreak;`);
      }
    }
    return `{
      for (const k in u) {
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
   * write any field of the graph, as in LangGraph, with the same value tests as a node's update (the check
   * of a node that may write every field, when there is one: spec-nodes.ts `wholeWriter`).
   */
  checkUpdate(): string {
    const g = this.g;
    if (g.fields.length === 0) return "";
    const unknown = `${this.cx.scope.rt("cannotWrite")}(${str(g.name)}, undefined, k, "");`;
    return `(u) => ${this.keyCheck(g.fields.map((f) => f.name), "undefined", unknown)}`;
  }
}
