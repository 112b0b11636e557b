/** `meta { … }`: keys and values (rules in 2-bind/meta.ts). */
import type { BoundGraph } from "../2-bind/model.ts";
import { readMeta } from "../2-bind/meta.ts";
import type { CheckContext } from "./context.ts";

export function checkMeta(g: BoundGraph, ctx: CheckContext): void {
  readMeta(g.meta.entries, (diag) => ctx.diagnostics.push(diag));
}
