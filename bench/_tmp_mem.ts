import { compileGraph, append, foldOne, type GraphSpec, type Values, type TaskUpdate, MemorySaver } from "graphc/runtime";
function chain(k: number): GraphSpec {
  const nodes = Array.from({ length: k }, (_, i) => ({
    name: `n${i}`, read: (v: Values) => ({ log: v.log }), call: (s: unknown) => ({ log: [`n${i}`] }), sync: true, check: () => {},
    edges: i + 1 < k ? [`n${i + 1}`] : [], joins: [], branches: [],
  }));
  return { name: "W1", compilerVersion: "0.1.0", init: () => ({ log: [] }), input: (r: unknown) => r as Values, output: (v: Values) => ({ log: v.log }),
    apply: (values: Values, updates: readonly TaskUpdate[]) => { let w = false; for (const u of updates) { const x = u.values; if ("log" in x) { values.log = foldOne("log" in values, values.log as string[], x.log, append); w = true; } } return w ? ["log"] : []; },
    nodes, start: { edges: ["n0"], joins: [], branches: [] }, joins: [], interruptBefore: [], interruptAfter: [], vars: (o: Values) => o };
}
const g = compileGraph(chain(100), { checkpointer: new MemorySaver() });
let best = Infinity; let i = 0;
for (let r = 0; r < 3; r++) { const N = 100; const t0 = performance.now();
  for (let j = 0; j < N; j++) await g.invoke({ log: [] }, { recursionLimit: 200, configurable: { thread_id: `m${i++}` } });
  best = Math.min(best, ((performance.now() - t0) * 1000) / N / 101); }
console.log("MemorySaver µs/step", best.toFixed(2));
