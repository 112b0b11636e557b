/**
 * Whether a graph can run on the runtime's lean loop (runtime/lean/): the one place the compiler decides it.
 * The lean loop runs plain function nodes, static edges, routers, inline conditions, `send` branches and
 * Command returns (through the same writes code as the full loop), reducers and the run-time data checks; it
 * has no join barriers, breakpoints, deferred nodes, node policies (retry, timeout, cache, on_error),
 * subgraph nodes or `uses`. Generated code compiles an eligible graph with `compileLeanGraph` (emit/spec.ts),
 * whose `invoke` still hands a run with a checkpointer, breakpoints or tracing to the full graph.
 */
import type { GraphIR, NodeIR } from "./ir.ts";

/** What the runtime of generated code is: "full" imports `@graphc/runtime`, "lean" `@graphc/runtime/core` where it can. */
export type RuntimeMode = "full" | "lean";

function leanNode(n: NodeIR): boolean {
  if (n.kind !== "function" || n.uses !== undefined) return false;
  const o = n.options;
  return (
    o.retry === undefined &&
    o.timeoutMs === undefined &&
    o.idleTimeoutMs === undefined &&
    o.cache === undefined &&
    o.defer !== true &&
    o.onError === undefined
  );
}

export function leanEligible(g: GraphIR): boolean {
  return g.joins.length === 0 && g.interruptBefore.length === 0 && g.interruptAfter.length === 0 && g.nodes.every(leanNode);
}
