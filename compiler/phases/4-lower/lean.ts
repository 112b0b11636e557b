/**
 * Whether a graph can run on the runtime's lean loop (runtime/lean/): the one place the compiler decides it.
 * The lean loop runs plain function nodes, static edges, routers, inline conditions, `send` branches and
 * Command returns (through the same writes code as the full loop), reducers and the run-time data checks; it
 * has no join barriers, breakpoints, deferred nodes, node policies (retry, timeout, cache, on_error),
 * subgraph nodes or `uses`. Generated code compiles an eligible graph with `compileLeanGraph` (emit/spec.ts),
 * whose `invoke` still hands a run with a checkpointer, breakpoints or tracing to the full graph.
 */
import type { EdgesIR, GraphIR, NodeIR } from "./ir.ts";

/** What the runtime of generated code is: "full" imports `@graphc/runtime`, "lean" `@graphc/runtime/core` where it can. */
export type RuntimeMode = "full" | "lean";

/** the node has a policy (retry, timeout, cache, on_error): the runtime runs it through its policy part */
function hasPolicy(n: NodeIR): boolean {
  const o = n.options;
  return o.retry !== undefined || o.timeoutMs !== undefined || o.idleTimeoutMs !== undefined || o.cache !== undefined || o.onError !== undefined;
}

function leanNode(n: NodeIR): boolean {
  return n.kind === "function" && n.uses === undefined && !hasPolicy(n) && n.options.defer !== true;
}

/**
 * Some node of `g` has a policy: its generated module installs the runtime's policy part ("@graphc/runtime"
 * does not, so that a program without policies does not bundle it).
 */
export function usesPolicies(g: GraphIR): boolean {
  return g.nodes.some(hasPolicy);
}

export function leanEligible(g: GraphIR): boolean {
  return g.joins.length === 0 && g.interruptBefore.length === 0 && g.interruptAfter.length === 0 && g.nodes.every(leanNode);
}

/**
 * Whether a lean-eligible graph can run on the runtime's static loop (runtime/static/): no routers, no node
 * declares `goto`, and the TypeScript pass proved every node function's return type Command-free
 * (`noCommand`, 5-emit/return-facts.ts: an `any`, a cast to `never` or a list cannot be told), so what a node
 * returns is an update or nothing and the steps follow from the static edges alone. Without the TypeScript
 * pass nothing is proved, and the graph stays on the lean loop. A graph without fields has no `applyOne`,
 * which the static loop applies a step's lone update with.
 */
export function staticEligible(g: GraphIR): boolean {
  return (
    leanEligible(g) &&
    g.fields.length > 0 &&
    g.start.branches.length === 0 &&
    g.nodes.every((n) => n.kind === "function" && n.fn.noCommand === true && n.branches.length === 0 && n.goto === undefined)
  );
}

/**
 * How generated code makes graph `g`'s compiled graph: `compileGraph` (full loop), `new StaticGraph` (static
 * loop), `compileLeanGraph` (lean loop) or, for a lean-eligible graph without routers that is not static,
 * `new LeanGraph` (the lean loop without router code, which `compileLeanGraph` hands it, so a bundle of such
 * graphs holds none).
 */
export function compileFunction(g: GraphIR): "compileGraph" | "compileLeanGraph" | "LeanGraph" | "StaticGraph" {
  if (!leanEligible(g)) return "compileGraph";
  if (staticEligible(g)) return "StaticGraph";
  return g.start.branches.length === 0 && g.nodes.every((n) => n.branches.length === 0) ? "LeanGraph" : "compileLeanGraph";
}

/** every router of these edges is an inline condition (an expression: it reads the state and keeps nothing) */
function conditionsOnly(e: EdgesIR): boolean {
  return e.branches.every((b) => b.kind === "conditions");
}

/**
 * The `messages` and `append` fields whose list only the lean loop can see (`GraphSpec.owned`, docs/runtime.md "Owned
 * lists"): no node reads the field, no router or send function is handed the state (it would get the list
 * and could keep it), no custom reducer runs user code inside `apply`. The loop lets the reducer append to
 * such a list in place.
 */
export function ownedFields(g: GraphIR): string[] {
  if (!leanEligible(g) || !conditionsOnly(g.start) || !g.nodes.every(conditionsOnly)) return [];
  if (g.fields.some((f) => f.reducer.kind === "custom")) return [];
  return g.fields
    .filter(
      (f) =>
        f.reducer.kind === "builtin" &&
        (f.reducer.name === "messages" || f.reducer.name === "append") &&
        f.alwaysSet &&
        !f.ephemeral &&
        !g.nodes.some((n) => n.reads.includes(f.name)),
    )
    .map((f) => f.name);
}
