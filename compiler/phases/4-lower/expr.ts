/**
 * Expressions (defaults, inline conditions, subgraph input mappings) from AST to the IR tree. The checker has
 * already validated names and types; a bare name is a field of the graph the expression belongs to.
 */
import type { Expr } from "../../../grammar/ast.ts";
import type { ExprIR } from "./ir.ts";

export function lowerExpr(e: Expr): ExprIR {
  switch (e.kind) {
    case "Literal":
      return { k: "lit", value: e.value };
    case "Array":
      return { k: "array", items: e.items.map(lowerExpr) };
    case "Object":
      return {
        k: "object",
        entries: e.entries.map((en) => ({ key: en.key.kind === "Ident" ? en.key.name : en.key.value, value: lowerExpr(en.value) })),
      };
    case "Name":
      return { k: "field", name: e.name.name };
    case "Member":
      return { k: "member", object: lowerExpr(e.object), name: e.property.name };
    case "Index":
      return { k: "index", object: lowerExpr(e.object), index: lowerExpr(e.index) };
    case "Call":
      // `len` is the only built-in function (the checker rejects any other)
      return { k: "len", arg: lowerExpr(e.args[0] ?? { kind: "Literal", value: null, raw: "null", span: e.span }) };
    case "Unary": {
      const arg = lowerExpr(e.operand);
      if (e.op === "!") return { k: "not", arg };
      // fold `-3` so that a constant negative index stays recognisable
      if (arg.k === "lit" && typeof arg.value === "number") return { k: "lit", value: -arg.value };
      return { k: "neg", arg };
    }
    case "Binary":
      if (e.op === "in") return { k: "in", value: lowerExpr(e.left), list: lowerExpr(e.right) };
      return { k: "binary", op: e.op, left: lowerExpr(e.left), right: lowerExpr(e.right) };
  }
}

/** Fields an expression reads, in first-use order. */
export function fieldsOf(e: ExprIR, out: string[] = []): string[] {
  switch (e.k) {
    case "field":
      if (!out.includes(e.name)) out.push(e.name);
      break;
    case "array":
      e.items.forEach((i) => fieldsOf(i, out));
      break;
    case "object":
      e.entries.forEach((en) => fieldsOf(en.value, out));
      break;
    case "member":
      fieldsOf(e.object, out);
      break;
    case "index":
      fieldsOf(e.object, out);
      fieldsOf(e.index, out);
      break;
    case "len":
    case "not":
    case "neg":
      fieldsOf(e.arg, out);
      break;
    case "binary":
      fieldsOf(e.left, out);
      fieldsOf(e.right, out);
      break;
    case "in":
      fieldsOf(e.value, out);
      fieldsOf(e.list, out);
      break;
    case "lit":
      break;
  }
  return out;
}
