/**
 * The data half of a GraphSpec, specialised per field: `init` (defaults as fresh literals), `input` (inline
 * type tests, unknown keys rejected), `output` (projection as an object literal), `apply` (each field's
 * reducer merge inline), `clearEphemeral`, `vars` (override > inherited > default; `${ENV}` read at run time).
 */
import type { FieldIR, GraphIR, VarIR } from "../4-lower/ir.ts";
import type { EmitContext } from "./context.ts";
import { access, isIdentifier, key, str } from "./escape.ts";
import { tsLiteral } from "./expr.ts";
import type { GraphNames } from "./names.ts";
import { checkExpr, tsType } from "./types.ts";

/** `...("f" in v && { f: v.f })` for a field that may be absent, `f: v.f` for one that is always set. */
export function pick(src: string, field: FieldIR, as: string = field.name): string {
  if (field.init !== undefined && !field.ephemeral) return `${key(as)}: ${access(src, field.name)}`;
  return `...(${str(field.name)} in ${src} && { ${key(as)}: ${access(src, field.name)} })`;
}

export function emitInit(g: GraphIR, cx: EmitContext): string {
  const items = g.fields.filter((f) => f.init !== undefined);
  if (items.length === 0) return "init: () => ({}),";
  return `init: () => ({ ${items.map((f) => cx.traced(f.span, `${key(f.name)}: ${tsLiteral(f.init!)},`)).join("\n")} }),`;
}

export function emitInput(g: GraphIR, cx: EmitContext): string {
  const err = cx.scope.rt("GraphInputError");
  const site = `{ graph: ${str(g.name)} }`;
  const cases = g.input.map((name) => {
    const f = g.fields.find((x) => x.name === name)!;
    const test = checkExpr(f.check, "x");
    const msg = `${str(`graph "${g.name}": input field "${name}" must be ${tsType(f.type)}, got `)} + (x === null ? "null" : typeof x)`;
    const body = [
      `case ${str(name)}:`,
      test === "true" ? "" : `if (${negate(test)}) throw new ${err}(${msg}, { graph: ${str(g.name)}, field: ${str(name)} });`,
      `out[${str(name)}] = x;`,
      "break;",
    ];
    return cx.traced(f.span, body.join("\n"));
  });
  const inputs = g.input.join(", ") || "none";
  return `input: (raw) => {
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
      throw new ${err}(${str(`graph "${g.name}" expects an object as input, got `)} + (raw === null ? "null" : Array.isArray(raw) ? "array" : typeof raw), ${site});
    }
    const out: ${cx.scope.rt("Values")} = {};
    for (const [k, x] of Object.entries(raw)) {
      switch (k) {
        ${cases.join("\n")}
        default:
          throw new ${err}(${str(`graph "${g.name}" has no input field `)} + JSON.stringify(k) + ${str(` (input fields: ${inputs})`)}, { graph: ${str(g.name)}, field: k });
      }
    }
    return out;
  },`;
}

export function emitOutput(g: GraphIR): string {
  const field = new Map(g.fields.map((f) => [f.name, f]));
  const body = g.output.length === 0 ? "output: () => ({})," : `output: (v) => ({ ${g.output.map((o) => pick("v", field.get(o)!)).join(", ")} }),`;
  return `${body}
  outputFields: [${g.output.map(str).join(", ")}],`;
}

/** Collects each field's writes of the step in order, then folds them once with the field's reducer. */
export function emitApply(g: GraphIR, n: GraphNames, cx: EmitContext): string {
  const written = g.fields;
  const local = (f: FieldIR, i: number) => (isIdentifier(f.name) ? `w_${f.name}` : `w${i}`);
  const decls = written.map((f, i) => `let ${local(f, i)}: unknown[] | undefined;`).join("\n");
  const cases = written
    .map((f, i) => `case ${str(f.name)}: (${local(f, i)} ??= []).push(u.values[k]); break;`)
    .join("\n");
  const merges = written
    .map((f, i) => cx.traced(f.span, `if (${local(f, i)} !== undefined) { ${access("v", f.name)} = ${merge(g, f, local(f, i), n, cx)}; written.push(${str(f.name)}); }`))
    .join("\n");
  return `apply: (v, updates) => {
    ${decls}
    for (const u of updates) {
      for (const k in u.values) {
        switch (k) {
          ${cases}
        }
      }
    }
    const written: string[] = [];
    ${merges}
    return written;
  },`;
}

function merge(g: GraphIR, f: FieldIR, writes: string, n: GraphNames, cx: EmitContext): string {
  const rt = cx.scope.rt.bind(cx.scope);
  const r = f.reducer;
  if (r.kind === "replace") return `${rt("replace")}(${str(g.name)}, ${str(f.name)}, ${writes})`;
  const T = `${n.state}[${str(f.name)}]`;
  const has = f.init !== undefined && !f.ephemeral ? "true" : `${str(f.name)} in v`;
  const current = `${access("v", f.name)} as ${T}`;
  // the runtime's `messages` works on its own Message type; the field may use a compatible user type
  const op = r.kind === "custom" ? cx.fn(r.fn.local) : r.kind === "messages" ? `${rt("messages")} as never` : rt(r.kind);
  return `${rt("fold")}<${T}>(${str(g.name)}, ${str(f.name)}, ${has}, ${current}, ${writes}, ${op})`;
}

export function emitClearEphemeral(g: GraphIR, cx: EmitContext): string {
  const eph = g.fields.filter((f) => f.ephemeral);
  if (eph.length === 0) return "";
  return `clearEphemeral: (v) => { ${eph.map((f) => cx.traced(f.span, `delete ${access("v", f.name)};`)).join("\n")} },`;
}

export function emitVars(g: GraphIR, cx: EmitContext): string {
  if (g.vars.length === 0) return "vars: (_overrides, inherited) => ({ ...inherited }),";
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
  return `vars: (o, inherited${env}) => {
    ${checks.filter((c) => c !== "").join("\n")}
    return { ...inherited, ${entries.join("\n")} };
  },`;
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
