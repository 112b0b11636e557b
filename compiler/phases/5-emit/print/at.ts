/** What the printer's rules share: the node being printed in its context, and operator precedence. */
import type { Node } from "./ast.ts";

/** A node and its parent and the parent's field that holds it: what prettier's rules look at. */
export interface At {
  readonly node: Node;
  readonly parent?: At;
  readonly key: string;
}

export const PREC: Record<string, number> = {
  "??": 1, "||": 2, "&&": 3, "|": 4, "^": 5, "&": 6, "==": 7, "!=": 7, "===": 7, "!==": 7,
  "<": 8, ">": 8, "<=": 8, ">=": 8, in: 8, instanceof: 8, "<<": 9, "+": 10, "-": 10, "*": 11, "/": 11, "%": 11, "**": 12,
};
export const EQUALITY = new Set(["==", "!=", "===", "!=="]);
export const BINARYISH = new Set(["BinaryExpression", "LogicalExpression"]);

export function isBinaryish(n: Node | undefined): boolean {
  return n !== undefined && BINARYISH.has(n.type);
}
export function child(at: At, key: string, node: Node): At {
  return { node, parent: at, key };
}
