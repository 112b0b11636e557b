/** Types as prettier prints them: references and their arguments, unions, intersections, literals. */
import type { Node } from "./ast.ts";
import { type Doc, Refused, group, ifBreak, indent, join, line, refuse, softline, align } from "./doc.ts";
import { printString } from "./strings.ts";
import { type At, child } from "./at.ts";
import { assignmentLike } from "./print.ts";
import { objectLike } from "./print-expr.ts";
import { member, signature } from "./print-calls.ts";

// ---------------------------------------------------------------- types

export function type(at: At): Doc {
  const n = at.node;
  const doc = typeInner(at);
  if (n.parens) {
    // prettier keeps the parentheses a type needs and drops the others
    const p = at.parent?.node;
    const needs = (n.type === "TSUnionType" || n.type === "TSFunctionType" || n.type === "TSIntersectionType") && (p?.type === "TSArrayType" || p?.type === "TSIndexedAccessType" || (n.type !== "TSIntersectionType" && p?.type === "TSIntersectionType") || p?.type === "TSTypeOperator");
    if (!needs) throw new Refused("type in parentheses");
    if (n.type === "TSUnionType") return group(["(", indent([softline, doc]), softline, ")"]);
    return ["(", doc, ")"];
  }
  return doc;
}

export function typeInner(at: At): Doc {
  const n = at.node;
  switch (n.type) {
    case "TSKeyword":
      return n.name!;
    case "TSLiteralType": {
      const a = n.arg!;
      return a.type === "StringLiteral" ? printString(a.raw!) : a.type === "NumericLiteral" ? a.raw! : a.name!;
    }
    case "TSTypeReference":
      return [n.name!, n.typeArgs ? typeArguments(at) : ""];
    case "TSConst":
      return "const";
    case "TSTypeQuery":
      return ["typeof ", n.name!];
    case "TSArrayType":
      return [type(child(at, "elementType", n.arg!)), "[]"];
    case "TSIndexedAccessType":
      return [type(child(at, "objectType", n.object!)), "[", type(child(at, "indexType", n.property!)), "]"];
    case "TSTypeOperator":
      if (n.op === "unique" && !(n.arg!.type === "TSKeyword" && n.arg!.name === "symbol")) throw new Refused("unique");
      return [n.op!, " ", type(child(at, "typeAnnotation", n.arg!))];
    case "TSTypeLiteral":
      return objectLike(at, false);
    case "TSUnionType":
      return union(at);
    case "TSIntersectionType":
      return intersection(at);
    case "TSFunctionType":
      return signature(at, " => ");
    case "TSTupleType": {
      const elems = n.elems!;
      if (elems.length === 0) return "[]";
      return group(["[", indent([softline, join([",", line], elems.map((e) => type(child(at, "elementTypes", e))))]), ifBreak(","), softline, "]"]);
    }
    default:
      throw new Refused(`type ${n.type}`);
  }
}

export const SIMPLE_KEYWORDS = new Set(["string", "number", "boolean", "unknown", "any", "never", "void", "undefined", "object", "symbol", "bigint"]);

export function isSimpleType(n: Node): boolean {
  if (n.parens) return false;
  return (n.type === "TSTypeReference" && !n.typeArgs) || (n.type === "TSKeyword" && SIMPLE_KEYWORDS.has(n.name!));
}
export function isObjectType(n: Node): boolean {
  return n.type === "TSTypeLiteral";
}
export function shouldHugType(n: Node): boolean {
  if (isSimpleType(n) || isObjectType(n)) return true;
  if (n.type === "TSUnionType") {
    const voids = n.types!.filter((t) => t.type === "TSKeyword" && (t.name === "void" || t.name === "null")).length;
    if (n.types!.length - 1 === voids && n.types!.some(isObjectType)) return true;
  }
  return false;
}

export function typeArguments(at: At | Node, list?: Node[]): Doc {
  if (!("node" in at)) at = { node: at, key: "callee" };
  const args = list ?? at.node.typeArgs!;
  const printed = args.map((a) => type(child(at, "params", a)));
  if (args.length === 0) return "<>";
  if (args.length === 1 && (shouldHugType(args[0]!) || args[0]!.type === "TSKeyword")) {
    if (args[0]!.type === "TSKeyword" && !SIMPLE_KEYWORDS.has(args[0]!.name!)) throw new Refused("type argument keyword");
    return ["<", printed[0]!, ">"];
  }
  return group(["<", indent([softline, join([",", line], printed)]), softline, ">"]);
}

export function union(at: At): Doc {
  const n = at.node;
  const p = at.parent!.node;
  const pkey = at.key;
  const shouldIndent = !(p.type === "TSTypeReference" && pkey === "params") && p.type !== "TSTupleType" && !(p.type === "TSTypeAliasDeclaration" && false);
  if (p.type === "TSTupleType") throw new Refused("union in a tuple");
  const hug = shouldHugType(n);
  const printed = n.types!.map((t) => {
    const d = type(child(at, "types", t));
    return hug ? d : align(2, d);
  });
  if (hug) return join(" | ", printed);
  const code: Doc = [ifBreak([shouldIndent ? line : "", "| "]), join([line, "| "], printed)];
  if (n.parens) return refuse(code);
  // flat only: prettier 3's broken unions (one member a line, or the union alone on the next line) are
  // built only for a type alias's right side (assignmentLike)
  return group(refuse(shouldIndent ? indent(code) : code));
}

export function intersection(at: At): Doc {
  const n = at.node;
  // prettier's printIntersectionType: object and non-object members alternate with their own rules; flat only here
  const printed = n.types!.map((t) => type(child(at, "types", t)));
  const objects = n.types!.filter(isObjectType).length;
  if (objects > 1 || (objects === 1 && n.types!.length > 2)) throw new Refused("intersection shape");
  return refuse(group(join(" & ", printed)));
}
