/**
 * One-line printers for the parts of a `.graph` file that are always written on a single line: types,
 * expressions, endpoints and the like. They never print comments; a comment inside such a part is moved in
 * front of the enclosing member by the list layout (see rows.ts).
 */
import type {
  BinaryExpr,
  Endpoints,
  Expr,
  Ident,
  ObjectTypeMember,
  SchemaRef,
  StringLit,
  TypeExpr,
} from "../../grammar/ast.ts";

export function ident(id: Ident): string {
  return id.name;
}

export function keyText(key: Ident | StringLit): string {
  return key.kind === "Ident" ? key.name : key.raw;
}

// ---------------------------------------------------------------- types

/** Binding strength of type operators: union < optional/array suffix < atom. */
function typeRank(t: TypeExpr): number {
  return t.kind === "UnionType" ? 0 : 1;
}

export function typeText(t: TypeExpr): string {
  switch (t.kind) {
    case "NamedType":
      return t.args.length === 0 ? t.name.name : `${t.name.name}<${t.args.map(typeText).join(", ")}>`;
    case "LiteralType":
      return t.raw;
    case "ArrayType":
      return `${suffixOperand(t.element)}[]`;
    case "OptionalType":
      return `${suffixOperand(t.inner)}?`;
    case "UnionType":
      return t.members.map(typeText).join(" | ");
    case "ObjectType":
      return t.members.length === 0 ? "{}" : `{ ${t.members.map(objectMemberText).join(", ")} }`;
  }
}

function suffixOperand(t: TypeExpr): string {
  return typeRank(t) === 0 ? `(${typeText(t)})` : typeText(t);
}

export function objectMemberText(m: ObjectTypeMember): string {
  return `${m.name.name}${m.optional ? "?" : ""}: ${typeText(m.type)}`;
}

// ---------------------------------------------------------------- expressions

/** Precedence levels, loosest first. Comparisons and `in` share one level. */
const BINARY_RANK: Record<BinaryExpr["op"], number> = {
  "||": 1,
  "&&": 2,
  "==": 3,
  "!=": 3,
  "<": 3,
  "<=": 3,
  ">": 3,
  ">=": 3,
  in: 3,
};
const UNARY_RANK = 4;
const POSTFIX_RANK = 5;

function exprRank(e: Expr): number {
  switch (e.kind) {
    case "Binary":
      return BINARY_RANK[e.op];
    case "Unary":
      return UNARY_RANK;
    default:
      return POSTFIX_RANK;
  }
}

/** Parenthesises `e` when it binds more loosely than its context requires. */
function operand(e: Expr, minRank: number): string {
  const text = exprText(e);
  return exprRank(e) < minRank ? `(${text})` : text;
}

export function exprText(e: Expr): string {
  switch (e.kind) {
    case "Literal":
      return e.raw;
    case "Name":
      return e.name.name;
    case "Array":
      return `[${e.items.map(exprText).join(", ")}]`;
    case "Object":
      return e.entries.length === 0
        ? "{}"
        : `{ ${e.entries.map((en) => `${keyText(en.key)}: ${exprText(en.value)}`).join(", ")} }`;
    case "Member":
      return `${operand(e.object, POSTFIX_RANK)}.${e.property.name}`;
    case "Index":
      return `${operand(e.object, POSTFIX_RANK)}[${exprText(e.index)}]`;
    case "Call":
      return `${e.callee.name}(${e.args.map(exprText).join(", ")})`;
    case "Unary": {
      const inner = operand(e.operand, UNARY_RANK);
      // `- -1` must not run together into a different token
      return e.op === "-" && inner.startsWith("-") ? `- ${inner}` : `${e.op}${inner}`;
    }
    case "Binary": {
      const rank = BINARY_RANK[e.op];
      // left-associative: an equal-rank right operand keeps its parentheses
      return `${operand(e.left, rank)} ${e.op} ${operand(e.right, rank + 1)}`;
    }
  }
}

// ---------------------------------------------------------------- graph pieces

export function endpointsText(ep: Endpoints): string {
  const names = ep.names.map(ident);
  return ep.bracketed ? `[${names.join(", ")}]` : names.join(", ");
}

export function schemaRefText(ref: SchemaRef): string {
  return ref.kind === "SchemaName" ? ref.name.name : fieldList(ref.fields.map(ident));
}

/** `{ a, b }`, or `{}` for an empty list. */
export function fieldList(names: readonly string[]): string {
  return names.length === 0 ? "{}" : `{ ${names.join(", ")} }`;
}
