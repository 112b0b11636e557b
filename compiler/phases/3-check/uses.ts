/**
 * `uses: Child` on a function node: the graph its function runs with `ctx.run`. The name must be a graph in
 * scope (declared in the file or imported from a `.graph` file), and the child may not lead back to the
 * node's own graph (its spec is declared before the parent's; a cycle has no order).
 */
import { suggest } from "../../diagnostics/did-you-mean.ts";
import { d } from "../../diagnostics/messages.ts";
import type { BoundGraph } from "../2-bind/model.ts";
import type { CheckContext } from "./context.ts";
import { leadsBack } from "./subgraph-graph.ts";

export function checkUses(g: BoundGraph, ctx: CheckContext): void {
  for (const n of g.nodes.values()) {
    if (n.kind !== "node" || !n.options.uses) continue;
    const { name, span } = n.options.uses;
    if (!n.usesTarget) {
      const file = ctx.program.files.get(g.file);
      const candidates = [
        ...(file ? [...file.graphs.values()].map((x) => ({ name: x.name, span: x.decl.name.span })) : []),
        ...(file?.imports.filter((i) => i.kind === "graph").map((i) => ({ name: i.local, span: i.span })) ?? []),
      ];
      ctx.diagnostics.push(d.unknownGraph(span, { name, suggestions: suggest(name, candidates) }));
    } else if (n.usesTarget === g || leadsBack(ctx.program, n.usesTarget, g)) {
      ctx.diagnostics.push(d.includeCycle(span, { cycle: [g.name, n.name, n.usesTarget.name, g.name] }));
    }
  }
}
