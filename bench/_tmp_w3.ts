import { compileGraph, append, foldOne, type GraphSpec, type Values, type TaskUpdate, type NodeSpec } from "graphc/runtime";
function g(name: string, nodes: NodeSpec[]): GraphSpec {
  return { name, compilerVersion: "0.1.0", init: () => ({ log: [] }), input: (r: unknown) => r as Values, output: (v: Values) => ({ log: v.log }),
    apply: (values: Values, updates: readonly TaskUpdate[]) => { let w = false; for (const u of updates) { const x = u.values; if ("log" in x) { values.log = foldOne("log" in values, values.log as string[], x.log, append); w = true; } } return w ? ["log"] : []; },
    nodes, start: { edges: [nodes[0]!.name], joins: [], branches: [] }, joins: [], interruptBefore: [], interruptAfter: [], vars: (o: Values) => o };
}
const plain = (name: string, next?: string): NodeSpec => ({ name, read: (v) => ({ log: v.log }), call: () => ({ log: [name] }), sync: true, check: () => {}, edges: next ? [next] : [], joins: [], branches: [] });
const sub = (name: string, child: GraphSpec, next?: string): NodeSpec => ({ name, read: (v) => ({ log: v.log }), call: (s, ctx) => ctx.runSubgraph(child, { log: [] }).then((o) => ({ log: o.log })), sync: false, check: () => {}, edges: next ? [next] : [], joins: [], branches: [], subgraph: child });
const grand = g("G3", [plain("g1", "g2"), plain("g2", "g3"), plain("g3")]);
const child = g("G2", [plain("c1", "c2"), sub("c2", grand, "c3"), plain("c3")]);
const root = g("G1", [plain("p1", "p2"), sub("p2", child)]);
const app = compileGraph(root);
console.log(JSON.stringify(await app.invoke({ log: [] })));
let best = Infinity;
for (let r = 0; r < 7; r++) {
  const N = 5000; for (let i = 0; i < 500; i++) await app.invoke({ log: [] });
  const t0 = performance.now(); for (let i = 0; i < N; i++) await app.invoke({ log: [] });
  best = Math.min(best, ((performance.now() - t0) * 1000) / N);
}
console.log("W3-like µs/invoke", best.toFixed(2));
