/** Inline conditions (`{ cond => target }`): every condition type-checks and is a boolean. */
import { d } from "../../diagnostics/messages.ts";
import type { BoundGraph } from "../2-bind/model.ts";
import { typeToString } from "../2-bind/types.ts";
import { graphScope, type CheckContext } from "./context.ts";
import { exprType, isBoolean } from "./typesystem.ts";

export function checkConditions(g: BoundGraph, ctx: CheckContext): void {
  const scope = graphScope(g, "a condition");
  // a branch is copied to every source of its step (`[a, b] -> { … }`); check each block once
  const done = new Set<unknown>();
  for (const b of g.edges.branches) {
    if (b.kind !== "conditions" || done.has(b.stmt)) continue;
    done.add(b.stmt);
    for (const c of b.cases) {
      if (!c.cond) continue;
      const before = ctx.diagnostics.length;
      const t = exprType(c.cond, scope, ctx.diagnostics);
      // one error per condition: if its parts were wrong, the overall type says nothing new
      if (ctx.diagnostics.length === before && !isBoolean(t))
        ctx.diagnostics.push(d.conditionNotBoolean(c.cond.span, { type: typeToString(t) }));
    }
  }
}
