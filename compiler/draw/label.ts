/** Edge labels for inline conditions: the condition printed back in `.graph` syntax from the IR. */
import type { ExprIR } from "../phases/4-lower/ir.ts";

const RANK: Record<string, number> = { "||": 1, "&&": 2, "==": 3, "!=": 3, "<": 3, "<=": 3, ">": 3, ">=": 3, in: 3 };

function rank(e: ExprIR): number {
  if (e.k === "binary") return RANK[e.op]!;
  if (e.k === "in") return 3;
  if (e.k === "not" || e.k === "neg") return 4;
  return 5;
}

function wrap(e: ExprIR, min: number): string {
  return rank(e) < min ? `(${exprLabel(e)})` : exprLabel(e);
}

export function exprLabel(e: ExprIR): string {
  switch (e.k) {
    case "lit":
      return typeof e.value === "string" ? JSON.stringify(e.value) : String(e.value);
    case "array":
      return `[${e.items.map(exprLabel).join(", ")}]`;
    case "object":
      return `{ ${e.entries.map((en) => `${en.key}: ${exprLabel(en.value)}`).join(", ")} }`;
    case "field":
      return e.name;
    case "member":
      return `${wrap(e.object, 5)}.${e.name}`;
    case "index":
      return `${wrap(e.object, 5)}[${exprLabel(e.index)}]`;
    case "len":
      return `len(${exprLabel(e.arg)})`;
    case "not":
      return `!${wrap(e.arg, 4)}`;
    case "neg":
      return `-${wrap(e.arg, 4)}`;
    case "binary":
      return `${wrap(e.left, RANK[e.op]!)} ${e.op} ${wrap(e.right, RANK[e.op]! + 1)}`;
    case "in":
      return `${wrap(e.value, 3)} in ${wrap(e.list, 4)}`;
  }
}
