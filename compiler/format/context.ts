/** State shared by the formatter's printers: the source, the nesting depth and layout helpers. */
import type { AstNode } from "../../grammar/ast.ts";
import type { Entry, Row } from "./rows.ts";
import type { Source } from "./source.ts";

/** Lines longer than this are broken where the layout allows it (lists one member per line). */
export const MAX_WIDTH = 100;

export interface Ctx {
  readonly src: Source;
  /** indentation level of the line being printed */
  readonly depth: number;
}

export function deeper(ctx: Ctx): Ctx {
  return { src: ctx.src, depth: ctx.depth + 1 };
}

export function fits(ctx: Ctx, text: string): boolean {
  return ctx.depth * 2 + text.length <= MAX_WIDTH;
}

export function entry(node: AstNode, print: () => Row): Entry {
  return { start: node.span.start.offset, end: node.span.end.offset, print };
}

export function line(text: string): Row {
  return { kind: "lines", lines: [text] };
}

/**
 * The body of a braced construct: from its `{` (the first one at or after `from`, outside comments) to the
 * end of `node`. The AST has no span for braces, so the printers say where the header ends.
 */
export function bodyOf(ctx: Ctx, node: AstNode, from: number): { start: number; end: number; openLine: number } {
  const end = node.span.end.offset;
  const brace = ctx.src.findChar("{", from, end);
  const start = brace < 0 ? from : brace + 1;
  return { start, end, openLine: ctx.src.line(brace < 0 ? from : brace) };
}

/** True when no comment lies inside `node`, so it may be printed on one line without losing one. */
export function noComments(ctx: Ctx, node: AstNode): boolean {
  return !ctx.src.hasComments(node.span.start.offset, node.span.end.offset);
}
