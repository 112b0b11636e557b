/**
 * graphc's small type checker over normalised DSL types (model.ts `DslType`): assignability, overlap (can
 * two values compare equal?) and the type of an expression (defaults, inline conditions, `in` mappings).
 * Imported TS types are opaque and `unknown` is the error type: both are compatible with everything, since
 * TypeScript checks them in the generated code (and an `unknown` was already reported).
 */
import type { Expr } from "../../../grammar/ast.ts";
import type { Diagnostic } from "../../../grammar/diagnostic.ts";
import { d } from "../../diagnostics/messages.ts";
import { suggest } from "../../diagnostics/did-you-mean.ts";
import type { DslType } from "../2-bind/model.ts";
import { T, typeKey, typeToString, union } from "../2-bind/types.ts";

const loose = (t: DslType) => t.kind === "unknown" || t.kind === "opaque";

/** Can every value of `source` be stored where `target` is expected? */
export function assignable(source: DslType, target: DslType): boolean {
  if (loose(source) || loose(target)) return true;
  if (source.kind === "union") return source.members.every((m) => assignable(m, target));
  if (target.kind === "union") return target.members.some((m) => assignable(source, m));
  switch (target.kind) {
    case "string":
    case "number":
    case "boolean":
      return source.kind === target.kind || (source.kind === "literal" && typeof source.value === target.kind);
    case "null":
    case "undefined":
      return source.kind === target.kind;
    case "literal":
      return source.kind === "literal" && source.value === target.value;
    case "array":
      return source.kind === "array" && assignable(source.element, target.element);
    case "record":
      if (source.kind === "record") return assignable(source.value, target.value);
      if (source.kind === "object") return source.members.every((m) => assignable(m.type, target.value));
      return false;
    case "object":
      if (source.kind !== "object") return false;
      return target.members.every((tm) => {
        const sm = source.members.find((m) => m.name === tm.name);
        return sm ? assignable(sm.type, tm.type) : tm.optional;
      });
  }
}

/** Is there a value that belongs to both types (so `a == b` can be true)? */
export function overlaps(a: DslType, b: DslType): boolean {
  if (loose(a) || loose(b)) return true;
  if (a.kind === "union") return a.members.some((m) => overlaps(m, b));
  if (b.kind === "union") return b.members.some((m) => overlaps(a, m));
  if (a.kind === "literal" && b.kind === "literal") return a.value === b.value;
  if (a.kind === "literal") return typeof a.value === b.kind;
  if (b.kind === "literal") return typeof b.value === a.kind;
  const objectLike = (t: DslType) => t.kind === "object" || t.kind === "record";
  if (objectLike(a) && objectLike(b)) return true;
  return a.kind === b.kind;
}

const isNullish = (t: DslType) => t.kind === "null" || t.kind === "undefined";

/** boolean, a boolean literal, or a union of those */
export function isBoolean(t: DslType): boolean {
  if (loose(t)) return true;
  if (t.kind === "union") return t.members.every(isBoolean);
  return t.kind === "boolean" || (t.kind === "literal" && typeof t.value === "boolean");
}

/** The type without `null`/`undefined` members. */
export function nonNullable(t: DslType): DslType {
  if (t.kind !== "union") return t;
  return union(t.members.filter((m) => m.kind !== "null" && m.kind !== "undefined"));
}

function everyMember(t: DslType, pred: (m: DslType) => boolean): boolean {
  if (loose(t)) return true;
  return t.kind === "union" ? t.members.every((m) => everyMember(m, pred)) : pred(t);
}

export const isNumeric = (t: DslType) =>
  everyMember(t, (m) => m.kind === "number" || (m.kind === "literal" && typeof m.value === "number"));
const isStringy = (t: DslType) =>
  everyMember(t, (m) => m.kind === "string" || (m.kind === "literal" && typeof m.value === "string"));
export const isArray = (t: DslType) => everyMember(t, (m) => m.kind === "array");
export const isObjectLike = (t: DslType) => everyMember(t, (m) => m.kind === "object" || m.kind === "record");

/** What a name in an expression refers to. */
export interface ExprScope {
  /** the type of a name, or undefined when the name is unknown */
  lookup(name: string): DslType | undefined;
  /** names to suggest when one is unknown */
  candidates(): { name: string; span?: import("../../../grammar/span.ts").Span | undefined }[];
  graph: string;
  /** is the name always set at run time (a field with an initial value that is never cleared)? */
  alwaysSet?(name: string): boolean;
  /** how unknown names are described: "condition", "`in` mapping of `x`" */
  context: string;
}

const show = typeToString;

/**
 * The type of an expression, reporting unknown names, unknown properties and bad operands into `diags`.
 * Errors yield `unknown`, which silences follow-on errors.
 */
export function exprType(e: Expr, scope: ExprScope | undefined, diags: Diagnostic[]): DslType {
  const recur = (x: Expr) => exprType(x, scope, diags);
  switch (e.kind) {
    case "Literal":
      return e.value === null ? T.null : T.literal(e.value);
    case "Array": {
      const items = e.items.map(recur);
      return T.array(items.length ? union(items) : T.unknown);
    }
    case "Object":
      return {
        kind: "object",
        members: e.entries.map((en) => ({
          name: en.key.kind === "Ident" ? en.key.name : en.key.value,
          optional: false,
          type: recur(en.value),
        })),
      };
    case "Name": {
      const name = e.name.name;
      if (name === "" || !scope) return T.unknown;
      const t = scope.lookup(name);
      if (t) return t;
      diags.push(
        d.unknownField(e.name.span, {
          name,
          graph: scope.graph,
          context: scope.context,
          suggestions: suggest(name, scope.candidates()),
        }),
      );
      return T.unknown;
    }
    case "Member": {
      const obj = recur(e.object);
      return member(obj, e.property.name, e.property.span, diags);
    }
    case "Index": {
      const obj = recur(e.object);
      const idx = recur(e.index);
      const base = nonNullable(obj);
      if (loose(base)) return T.unknown;
      if (isArray(base)) {
        if (!isNumeric(idx))
          diags.push(d.conditionBadOperand(e.index.span, { op: "[]", type: show(idx), needs: "a number index" }));
        return union([elementOf(base), T.undefined]);
      }
      if (base.kind === "record") {
        if (!isStringy(idx))
          diags.push(d.conditionBadOperand(e.index.span, { op: "[]", type: show(idx), needs: "a string key" }));
        return union([base.value, T.undefined]);
      }
      diags.push(d.conditionBadOperand(e.object.span, { op: "[]", type: show(obj), needs: "an array or a Record" }));
      return T.unknown;
    }
    case "Call": {
      const args = e.args.map(recur);
      if (e.callee.name !== "len" || args.length !== 1) {
        diags.push(
          d.conditionBadOperand(e.callee.span, {
            op: `${e.callee.name}()`,
            type: args.map(show).join(", ") || "no arguments",
            needs: "the built-in `len(x)` with one argument",
          }),
        );
        return T.unknown;
      }
      const a = nonNullable(args[0]!);
      if (
        !everyMember(
          a,
          (m) =>
            m.kind === "array" ||
            m.kind === "string" ||
            m.kind === "record" ||
            m.kind === "object" ||
            (m.kind === "literal" && typeof m.value === "string"),
        )
      )
        diags.push(
          d.conditionBadOperand(e.args[0]!.span, {
            op: "len",
            type: show(args[0]!),
            needs: "an array, a string or a Record",
          }),
        );
      return T.number;
    }
    case "Unary": {
      const t = recur(e.operand);
      if (e.op === "!") {
        if (!isBoolean(t)) diags.push(d.conditionNotBoolean(e.operand.span, { type: show(t) }));
        return T.boolean;
      }
      if (e.operand.kind === "Literal" && typeof e.operand.value === "number") return T.literal(-e.operand.value);
      if (!isNumeric(t))
        diags.push(d.conditionBadOperand(e.operand.span, { op: "-", type: show(t), needs: "a number" }));
      return T.number;
    }
    case "Binary": {
      const t = binary(e, recur(e.left), recur(e.right), diags);
      if (e.op === "==" || e.op === "!=") constantEquality(e, scope, diags);
      return t;
    }
  }
}

function binary(e: Extract<Expr, { kind: "Binary" }>, l: DslType, r: DslType, diags: Diagnostic[]): DslType {
  switch (e.op) {
    case "&&":
    case "||":
      if (!isBoolean(l)) diags.push(d.conditionNotBoolean(e.left.span, { type: show(l) }));
      if (!isBoolean(r)) diags.push(d.conditionNotBoolean(e.right.span, { type: show(r) }));
      return T.boolean;
    case "==":
    case "!=":
      // `x != null` tests whether a field is set (an unwritten field is absent), whatever its type
      if (!isNullish(l) && !isNullish(r) && !overlaps(l, r))
        diags.push(d.conditionTypeMismatch(e.span, { op: e.op, left: show(l), right: show(r) }));
      return T.boolean;
    case "<":
    case "<=":
    case ">":
    case ">=": {
      const ok = (isNumeric(l) && isNumeric(r)) || (isStringy(l) && isStringy(r));
      if (!ok) {
        const bad = isNumeric(l) || isStringy(l) ? e.right : e.left;
        const badType = bad === e.right ? r : l;
        diags.push(
          d.conditionBadOperand(bad.span, { op: e.op, type: show(badType), needs: "two numbers or two strings" }),
        );
      }
      return T.boolean;
    }
    case "in": {
      const container = nonNullable(r);
      if (loose(container)) return T.boolean;
      if (isArray(container)) {
        const el = elementOf(container);
        if (!overlaps(l, el)) diags.push(d.conditionTypeMismatch(e.span, { op: "in", left: show(l), right: show(el) }));
      } else if (isObjectLike(container)) {
        if (!isStringy(l))
          diags.push(d.conditionBadOperand(e.left.span, { op: "in", type: show(l), needs: "a string key" }));
      } else {
        diags.push(
          d.conditionBadOperand(e.right.span, { op: "in", type: show(r), needs: "an array, a Record or an object" }),
        );
      }
      return T.boolean;
    }
  }
}

/** Warns on `==`/`!=` whose answer the declarations fix: two literals, or a null test of an always-set field. */
function constantEquality(e: Extract<Expr, { kind: "Binary" }>, scope: ExprScope | undefined, diags: Diagnostic[]): void {
  const { left, right } = e;
  const text = (x: Expr) => (x.kind === "Literal" ? x.raw : x.kind === "Name" ? x.name.name : "…");
  const report = (equal: boolean, why: string): void => {
    diags.push(
      d.conditionConstant(e.span, {
        op: e.op,
        left: text(left),
        right: text(right),
        always: equal === (e.op === "==") ? "true" : "false",
        why,
      }),
    );
  };
  if (left.kind === "Literal" && right.kind === "Literal") return report(left.value === right.value, "both sides are literals");
  const nullTest = left.kind === "Literal" && left.value === null ? right : right.kind === "Literal" && right.value === null ? left : undefined;
  if (nullTest?.kind !== "Name" || !scope?.alwaysSet?.(nullTest.name.name)) return;
  const t = scope.lookup(nullTest.name.name);
  if (!t || loose(t) || (t.kind === "union" ? t.members.some(isNullish) : isNullish(t))) return;
  report(false, `\`${nullTest.name.name}\` is always set and never null`);
}

/** element type of an array (or of a union of arrays) */
function elementOf(t: DslType): DslType {
  if (t.kind === "array") return t.element;
  if (t.kind === "union") return union(t.members.map(elementOf));
  return T.unknown;
}

function member(
  obj: DslType,
  name: string,
  span: import("../../../grammar/span.ts").Span,
  diags: Diagnostic[],
): DslType {
  if (loose(obj)) return T.unknown;
  const members = obj.kind === "union" ? obj.members : [obj];
  const results: DslType[] = [];
  let nullable = false;
  for (const m of members) {
    if (m.kind === "null" || m.kind === "undefined") {
      nullable = true;
      continue;
    }
    if (loose(m)) return T.unknown;
    if (m.kind === "record") {
      results.push(m.value, T.undefined);
      continue;
    }
    if (m.kind === "array" && name === "length") {
      results.push(T.number);
      continue;
    }
    const found = m.kind === "object" ? m.members.find((x) => x.name === name) : undefined;
    if (!found) {
      const suggestions =
        m.kind === "object"
          ? suggest(
              name,
              m.members.map((x) => ({ name: x.name })),
            )
          : [];
      diags.push(d.unknownProperty(span, { name, type: show(m), suggestions }));
      return T.unknown;
    }
    results.push(found.type);
  }
  if (nullable) results.push(T.undefined);
  return results.length ? union(results) : T.unknown;
}

export { typeKey, show as typeToString };
