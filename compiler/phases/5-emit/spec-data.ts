/**
 * The data half of a GraphSpec, specialised per field: `init` (defaults as fresh literals), `input` (inline
 * type tests, unknown keys rejected), `output` (projection as an object literal), `apply` (each field's
 * reducer merge inline), `clearEphemeral`, `vars` (override > inherited > default; `${ENV}` read at run time).
 */
import type { FieldIR, GraphIR, VarIR } from "../4-lower/ir.ts";
import type { EmitContext } from "./context.ts";
import { access, inComment, isIdentifier, key, str } from "./escape.ts";
import { tsLiteral } from "./expr.ts";
import type { GraphNames } from "./names.ts";
import { admitsUndefined, checkExpr, tsType } from "./types.ts";
import { reducerDef } from "../reducers.ts";

/** An item of a projection: `key: value`, or, with `when`, set only when `when` holds (absent otherwise). */
export interface ProjItem {
  readonly key: string;
  readonly value: string;
  readonly when?: string;
  /** wraps the item's generated text (source-map markers) */
  readonly trace?: (text: string) => string;
}

/** `f: v.f` for a field that is always set, `f` set only when `"f" in v` for one that may be absent. */
export function pick(src: string, field: FieldIR, as: string = field.name): ProjItem {
  const value = access(src, field.name);
  return field.alwaysSet ? { key: as, value } : { key: as, value, when: `${str(field.name)} in ${src}` };
}

/**
 * The body of a projection arrow: an object literal when every item is always set; otherwise a literal of
 * the leading items, then one assignment per item in order (an absent field stays absent, key order is the
 * declaration order). Assignments are about 2.5× faster than `...(c && { f: v.f })` spreads. A `__proto__` key
 * keeps the spread form (an assignment would set the prototype).
 */
export function projection(items: readonly ProjItem[], values: string): string {
  const t = (i: ProjItem, text: string) => (i.trace ? i.trace(text) : text);
  const lit = (xs: readonly ProjItem[]) => xs.map((i) => t(i, `${key(i.key)}: ${i.value}`)).join(", ");
  const body = (obj: string) => `(${obj})`;
  const first = items.findIndex((i) => i.when !== undefined);
  if (first < 0) return body(`{ ${lit(items)} }`);
  if (items.some((i) => i.when !== undefined && i.key === "__proto__")) {
    const spread = items.map((i) => t(i, i.when === undefined ? `${key(i.key)}: ${i.value}` : `...(${i.when} && { ${key(i.key)}: ${i.value} })`));
    return body(`{ ${spread.join(", ")} }`);
  }
  const rest = items.slice(first).map((i) => t(i, `${i.when !== undefined ? `if (${i.when}) ` : ""}${access("o", i.key)} = ${i.value};`));
  return `{\nconst o: ${values} = { ${lit(items.slice(0, first))} };\n${rest.join("\n")}\nreturn o;\n}`;
}

/** The spec members below are their values (expressions); spec.ts names them. */
export function emitInit(g: GraphIR, cx: EmitContext): string {
  const items = g.fields.filter((f) => f.init !== undefined);
  if (items.length === 0) return "() => ({})";
  return `() => ({ ${items.map((f) => cx.traced(f.span, `${key(f.name)}: ${tsLiteral(f.init!)},`)).join("\n")} })`;
}

/** `input`: each field's inline test; a wrong value is the runtime's `badInput` (one message for every graph). */
export function emitInput(g: GraphIR, cx: EmitContext): string {
  const err = cx.scope.rt("GraphInputError");
  const site = `{ graph: ${str(g.name)} }`;
  // by name once: a `find` per input field made this quadratic (16,000 fields: 2.5 s)
  const byName = new Map(g.fields.map((f) => [f.name, f]));
  const cases = g.input.map((name) => {
    const f = byName.get(name)!;
    const test = checkExpr(f.check, "x");
    const body = [
      `case ${str(name)}:`,
      test === "true" ? "" : `if (${negate(test)}) ${cx.scope.rt("badInput")}(${str(g.name)}, ${str(name)}, ${str(tsType(f.type))}, x);`,
      `out[${str(name)}] = x;`,
      "break;",
    ];
    return cx.traced(f.span, body.join("\n"));
  });
  const inputs = g.input.join(", ") || "none";
  // required: listed in a declared `input` block, no default and a type without `undefined` (the fields
  // `GInput` does not mark optional); a graph without an input block takes any part of its state (LangGraph)
  const required = (g.inputDeclared ? g.input : [])
    .map((name) => byName.get(name)!)
    .filter((f) => f.init === undefined && !admitsUndefined(f.type))
    .map((f) =>
      cx.traced(
        f.span,
        `if (!(${str(f.name)} in out)) throw new ${err}(${str(`graph "${g.name}": required input field "${f.name}" (${tsType(f.type)}) is missing`)}, { graph: ${str(g.name)}, field: ${str(f.name)} });`,
      ),
    );
  return `(raw) => {
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
      throw new ${err}(${str(`graph "${g.name}" expects an object as input, got `)} + (raw === null ? "null" : Array.isArray(raw) ? "array" : typeof raw), ${site});
    }
    const out: ${cx.scope.rt("Values")} = {};
    // own enumerable keys, as Object.entries, without allocating a [key, value] pair per field
    for (const k of Object.keys(raw)) {
      const x = (raw as ${cx.scope.rt("Values")})[k];
      switch (k) {
        ${cases.join("\n")}
        default:
          throw new ${err}(${str(`graph "${g.name}" has no input field `)} + JSON.stringify(k) + ${str(` (input fields: ${inputs})`)}, { graph: ${str(g.name)}, field: k });
      }
    }
    ${required.join("\n")}
    return out;
  }`;
}

export function emitOutput(g: GraphIR, n: GraphNames): string {
  const field = new Map(g.fields.map((f) => [f.name, f]));
  const items = g.output.map((o) => pick("v", field.get(o)!));
  return g.output.length === 0 ? "() => ({})" : `(v) => ${projection(items, `Partial<${n.output}>`)}`;
}

/**
 * One update (a single task's return, the common step): each key is written once, so no LastValue conflict
 * is possible and every field folds its one write directly; that is `applyOne`, a declaration of its own
 * that `apply` calls too, so the lean loop applies a lone update without wrapping it in a list. Several
 * updates: a `switch` collects each field's writes of the step in order, then folds them once with the
 * field's reducer. The fold of each field is chosen here (reducer, whether the field always holds a value);
 * the spec's types make every line type-check without a cast.
 */
export function emitApply(g: GraphIR, n: GraphNames, cx: EmitContext): { apply: string; applyOne?: string; decl?: string } {
  const fields = g.fields;
  if (fields.length === 0) return { apply: "() => []" };
  const local = (f: FieldIR, i: number) => (isIdentifier(f.name) ? `w_${f.name}` : `w${i}`);
  const W = `${cx.scope.rt("Writes")}<${n.update}>`;
  const applyOne = cx.scope.fresh(`${n.graph}ApplyOne`);
  const decl = `/** Applies one update to \`v\` in place; adds the names of the fields written to \`written\` when given. */
const ${applyOne} = (v: ${n.state}, u: ${W}, written: string[] | undefined): void => {
  ${byField(fields) ? applyByField(fields, cx) : applyByKey(fields, cx)}
};`;
  const decls = fields.map((f, i) => `let ${local(f, i)}: ${W}[${str(f.name)}][] | undefined;`).join("\n");
  const cases = fields
    .map((f, i) => `case ${str(f.name)}: (${local(f, i)} ??= []).push(${access("u.values", f.name)}); break;`)
    .join("\n");
  const merges = fields
    .map((f, i) => cx.traced(f.span, `if (${local(f, i)} !== undefined) { ${access("v", f.name)} = ${merge(g, f, local(f, i), cx)}; written.push(${str(f.name)}); }`))
    .join("\n");
  const apply = `(v, updates) => {
    const written: string[] = [];
    if (updates.length === 1) {
      ${applyOne}(v, updates[0]!.values, written);
      return written;
    }
    ${decls}
    for (const u of updates) {
      for (const k in u.values) {
        switch (k) {
          ${cases}
        }
      }
    }
    ${merges}
    return written;
  }`;
  return { apply, applyOne, decl };
}

/**
 * `applyOne` asks for each field with `in` when the graph has a few fields (a for…in costs as much as
 * about ten `in` lookups: W5's invoke ran 4% fewer instructions). No field is named like a member every
 * object inherits (G3020, G2012), and updates that reach `applyOne` have Object.prototype or null as their
 * prototype (ownKeys in runtime/writes.ts), so `in` sees exactly the update's own fields.
 */
function byField(fields: readonly FieldIR[]): boolean {
  return fields.length <= 8;
}

function applyByField(fields: readonly FieldIR[], cx: EmitContext): string {
  return fields
    .map((f) =>
      cx.traced(
        f.span,
        `if (${str(f.name)} in u) { ${access("v", f.name)} = ${mergeOne(f, access("u", f.name), cx)}; written?.push(${str(f.name)}); }`,
      ),
    )
    .join("\n");
}

function applyByKey(fields: readonly FieldIR[], cx: EmitContext): string {
  const one = fields
    .map((f) => cx.traced(f.span, `case ${str(f.name)}: ${access("v", f.name)} = ${mergeOne(f, access("u", f.name), cx)}; break;`))
    .join("\n");
  return `// for…in sees own keys only: the runtime hands over updates whose prototype is Object.prototype or
  // null (ownKeys in runtime/writes.ts), and it is about 2× cheaper than an Object.keys array
  for (const k in u) {
    switch (k) {
      ${one}
      default:
        continue;
    }
    written?.push(k);
  }`;
}

/** The runtime function merging one write into the field (a built-in's from the registry, or the user's). */
function reducerOp(f: FieldIR, cx: EmitContext): string {
  const r = f.reducer;
  if (r.kind === "custom") return cx.fn(r.fn.local);
  if (r.kind === "replace") throw new Error("a replace field has no merge");
  return cx.scope.rt(reducerDef(r.name).op!);
}

/** The field's new value from its one write `x` (an `Overwrite` unwrapped, as `replace`/`foldSet` do). */
function mergeOne(f: FieldIR, x: string, cx: EmitContext): string {
  const rt = cx.scope.rt.bind(cx.scope);
  const current = access("v", f.name);
  if (f.reducer.kind === "replace") return `${rt("lastValue")}(${x})`;
  return f.alwaysSet
    ? `${rt("oneSet")}(${current}, ${x}, ${reducerOp(f, cx)})`
    : `${rt("oneMaybe")}(${str(f.name)} in v, ${current}, ${x}, ${reducerOp(f, cx)})`;
}

function merge(g: GraphIR, f: FieldIR, writes: string, cx: EmitContext): string {
  const rt = cx.scope.rt.bind(cx.scope);
  const site = `${str(g.name)}, ${str(f.name)}`;
  const current = access("v", f.name);
  const r = f.reducer;
  if (r.kind === "replace") return `${rt("replace")}(${site}, ${writes})`;
  if (!f.alwaysSet) return `${rt("foldMaybe")}(${site}, ${str(f.name)} in v, ${current}, ${writes}, ${reducerOp(f, cx)})`;
  const special = r.kind === "builtin" ? reducerDef(r.name).foldSet : undefined;
  return special !== undefined
    ? `${rt(special)}(${site}, ${current}, ${writes})`
    : `${rt("foldSet")}(${site}, ${current}, ${writes}, ${reducerOp(f, cx)})`;
}

export function emitClearEphemeral(g: GraphIR, cx: EmitContext): string {
  const eph = g.fields.filter((f) => f.ephemeral);
  if (eph.length === 0) return "";
  return `(v) => { ${eph.map((f) => cx.traced(f.span, `delete ${access("v", f.name)};`)).join("\n")} }`;
}

export function emitVars(g: GraphIR, cx: EmitContext): string {
  if (g.vars.length === 0) return "(_overrides, inherited) => ({ ...inherited })";
  const err = cx.scope.rt("GraphInputError");
  const checks = g.vars.map((v) => {
    const test = checkExpr(v.check, access("o", v.name));
    if (test === "true") return "";
    const msg = str(`graph "${g.name}": var "${v.name}" must be ${tsType(v.type)}`);
    return cx.traced(v.span, `if (${str(v.name)} in o && ${negate(test)}) throw new ${err}(${msg}, { graph: ${str(g.name)}, field: ${str(v.name)} });`);
  });
  const entries = g.vars.map((v) => {
    const chosen = `${str(v.name)} in o ? ${access("o", v.name)} : ${str(v.name)} in inherited ? ${access("inherited", v.name)}`;
    return cx.traced(v.span, `${key(v.name)}: ${chosen} : ${varDefault(v)},`);
  });
  // parameters are named only when used (`noUnusedParameters` users compile this code too)
  const env = g.vars.some((v) => v.default?.kind === "template") ? ", env" : "";
  return `(o, inherited${env}) => {
    ${checks.filter((c) => c !== "").join("\n")}
    return { ...inherited, ${entries.join("\n")} };
  }`;
}

/** The declared default; `${NAME}` parts are looked up in `env` when the graph runs. */
function varDefault(v: VarIR): string {
  const d = v.default;
  if (d === undefined) return "undefined";
  if (d.kind === "expr") return tsLiteral(d.expr);
  const parts = d.parts.map((p) =>
    p.kind === "text" ? str(p.text) : p.fallback !== undefined ? `(env[${str(p.name)}] || ${str(p.fallback)})` : `(env[${str(p.name)}] ?? "")`,
  );
  const s = parts.length === 0 ? `""` : parts.join(" + ");
  if (v.type.k === "prim" && v.type.name === "number") return `Number(${s})`;
  if (v.type.k === "prim" && v.type.name === "boolean") return `(${s}) === "true"`;
  return s;
}

/** `!(test)`, written as `!==` when the test is one `typeof` comparison */
function negate(test: string): string {
  return /^typeof [\w.]+ === "\w+"$/.test(test) ? test.replace(" === ", " !== ") : `!(${test})`;
}
