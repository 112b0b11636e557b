import { compileGraph, append, foldOne, type GraphSpec, type Values, type TaskUpdate } from "graphc/runtime";
function chain(k: number, sync: boolean): GraphSpec {
  const nodes = Array.from({ length: k }, (_, i) => ({
    name: `n${i}`, read: (v: Values) => ({ log: v.log }),
    call: sync ? (s: unknown) => ({ log: [`n${i}`] }) : async (s: unknown) => ({ log: [`n${i}`] }), sync, check: () => {},
    edges: i + 1 < k ? [`n${i + 1}`] : [], joins: [], branches: [],
  }));
  return { name: "W5", compilerVersion: "0.1.0", init: () => ({ log: [] }), input: (r: unknown) => r as Values, output: (v: Values) => ({ log: v.log }),
    apply: (values: Values, updates: readonly TaskUpdate[]) => { let w = false; for (const u of updates) { const x = u.values; if ("log" in x) { values.log = foldOne("log" in values, values.log as string[], x.log, append); w = true; } } return w ? ["log"] : []; },
    nodes, start: { edges: ["n0"], joins: [], branches: [] }, joins: [], interruptBefore: [], interruptAfter: [], vars: (o: Values) => o };
}
const gs = compileGraph(chain(3, true));
const best: Record<string, number> = {};
for (let round = 0; round < 7; round++) {
  const N = 20000;
  for (let i = 0; i < 1000; i++) await gs.invoke({ log: [] });
  const t0 = performance.now();
  for (let i = 0; i < N; i++) await gs.invoke({ log: [] });
  best.w5 = Math.min(best.w5 ?? Infinity, ((performance.now() - t0) * 1000) / N);
}
console.log("W5 µs/invoke", best.w5!.toFixed(3));
