/** `vars`: each has a type, its default fits, `${NAME}` placeholders are well-formed, no shadowing. */
import type { Expr, LiteralExpr } from "../../../grammar/ast.ts";
import type { Span } from "../../../grammar/span.ts";
import { d, rel } from "../../diagnostics/messages.ts";
import type { BoundGraph } from "../2-bind/model.ts";
import { parseTemplate } from "../2-bind/templates.ts";
import { typeToString } from "../2-bind/types.ts";
import type { CheckContext } from "./context.ts";
import { assignable, exprType } from "./typesystem.ts";
import { describe } from "./state.ts";

/** the span of characters [from, from+length) of a string literal's value, when the raw text has no escapes */
function innerSpan(lit: LiteralExpr, from: number, length: number): Span {
  const raw = lit.raw;
  if (raw.length < 2 || raw.slice(1, -1) !== lit.value || lit.span.start.line !== lit.span.end.line) return lit.span;
  const at = (o: number) => ({
    offset: lit.span.start.offset + o,
    line: lit.span.start.line,
    column: lit.span.start.column + o,
  });
  return { file: lit.span.file, start: at(1 + from), end: at(1 + from + length) };
}

export function checkVars(g: BoundGraph, ctx: CheckContext): void {
  for (const v of g.vars.values()) {
    const decl = v.decl;
    if (!decl.type) ctx.diagnostics.push(d.varNeedsTypeOrDefault(v.span, { name: v.name }));
    const field = g.fields.get(v.name);
    if (field)
      ctx.diagnostics.push(d.varShadowsField(v.span, { name: v.name }, [rel(field.span, "field declared here")]));
    const dflt = v.default;
    if (!dflt) continue;
    if (dflt.kind === "Literal" && typeof dflt.value === "string") {
      const { errors } = parseTemplate(dflt.value);
      for (const e of errors)
        ctx.diagnostics.push(d.badTemplate(innerSpan(dflt, e.offset, e.length), { problem: e.problem }));
      if (errors.length) continue;
      if (v.template && decl.type && !assignable({ kind: "string" }, v.type)) {
        ctx.diagnostics.push(
          d.varDefaultTypeMismatch(dflt.span, {
            name: v.name,
            expected: typeToString(v.type),
            actual: "a string with `${…}`",
          }),
        );
        continue;
      }
    }
    if (!decl.type) continue;
    const actual = exprType(dflt, undefined, ctx.diagnostics);
    if (!assignable(actual, v.type)) {
      ctx.diagnostics.push(
        d.varDefaultTypeMismatch(dflt.span, { name: v.name, expected: typeToString(v.type), actual: describe(actual) }),
      );
    }
  }
}

/** two defaults written the same (positions and raw spelling ignored) */
const sameValue = (a: Expr, b: Expr) => JSON.stringify(strip(a)) === JSON.stringify(strip(b));

/** the expression without positions */
function strip(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(strip);
  if (v && typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (k !== "span" && k !== "raw") out[k] = strip(x);
    return out;
  }
  return v;
}

/** A subgraph inherits its parent's vars: a same-named child var must accept the parent's type. */
export function checkInheritedVars(parent: BoundGraph, child: BoundGraph, at: Span, ctx: CheckContext): void {
  for (const cv of child.vars.values()) {
    const pv = parent.vars.get(cv.name);
    if (!pv) continue;
    if (pv.default && cv.default && !sameValue(pv.default, cv.default)) {
      ctx.diagnostics.push(
        d.varDefaultOverridden(cv.default.span, { name: cv.name, parent: parent.name, child: child.name }, [
          rel(pv.default.span, "the parent's default"),
          rel(at, "used as a subgraph here"),
        ]),
      );
    }
    if (!pv.decl.type || !cv.decl.type || assignable(pv.type, cv.type)) continue;
    ctx.diagnostics.push(
      d.varParentTypeConflict(
        cv.span,
        { name: cv.name, parent: parent.name, childType: typeToString(cv.type), parentType: typeToString(pv.type) },
        [rel(pv.span, "parent variable declared here"), rel(at, "used as a subgraph here")],
      ),
    );
  }
}
