/** Node and subgraph options, `limits`, `interrupt` lists: names and values (rules in 2-bind/options.ts). */
import { d } from "../../diagnostics/messages.ts";
import { suggest } from "../../diagnostics/did-you-mean.ts";
import type { BoundGraph } from "../2-bind/model.ts";
import { onErrorTarget, readLimits, readNodeOptions } from "../2-bind/options.ts";
import { nodeCandidates, type CheckContext } from "./context.ts";

export function checkOptions(g: BoundGraph, ctx: CheckContext): void {
  const report = (diag: (typeof ctx.diagnostics)[number]) => ctx.diagnostics.push(diag);
  for (const node of g.nodes.values()) {
    readNodeOptions(node.optionEntries, new Set(node.reads.map((r) => r.name)), node.kind, report);
    for (const e of node.optionEntries) {
      if (e.name.name !== "on_error") continue;
      const t = onErrorTarget(e);
      if (t && !g.nodes.has(t.name)) {
        ctx.diagnostics.push(
          d.badOptionValue(t.span, {
            name: "on_error",
            expected: `a node of graph \`${g.name}\``,
            example: `on_error: ${[...g.nodes.keys()].find((n) => n !== node.name) ?? "fallback"}`,
          }),
        );
      }
    }
  }
  readLimits(g.limits.entries, report);
  for (const r of [...g.interrupts.before, ...g.interrupts.after]) {
    if (g.nodes.has(r.name)) continue;
    ctx.diagnostics.push(
      d.interruptUnknownNode(r.span, { name: r.name, graph: g.name, suggestions: suggest(r.name, nodeCandidates(g)) }),
    );
  }
}
