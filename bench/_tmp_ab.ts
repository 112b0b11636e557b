import { compileGraph, append, foldOne, type GraphSpec, type Values, type TaskUpdate } from "graphc/runtime";
function chain(k: number, sync: boolean): GraphSpec {
  const nodes = Array.from({ length: k }, (_, i) => ({
    name: `n${i}`, read: (v: Values) => ({ log: v.log }),
    call: sync ? (s: unknown) => ({ log: [`n${i}`] }) : async (s: unknown) => ({ log: [`n${i}`] }), sync, check: () => {},
    edges: i + 1 < k ? [`n${i + 1}`] : [], joins: [], branches: [],
  }));
  return { name: "W1", compilerVersion: "0.1.0", init: () => ({ log: [] }), input: (r: unknown) => r as Values, output: (v: Values) => ({ log: v.log }),
    apply: (values: Values, updates: readonly TaskUpdate[]) => { let w = false; for (const u of updates) { const x = u.values; if ("log" in x) { values.log = foldOne("log" in values, values.log as string[], x.log, append); w = true; } } return w ? ["log"] : []; },
    nodes, start: { edges: ["n0"], joins: [], branches: [] }, joins: [], interruptBefore: [], interruptAfter: [], vars: (o: Values) => o };
}
const fns = Array.from({ length: 100 }, (_, i) => (s: { log: string[] }) => ({ log: [`n${i}`] }));
const hand = (input: { log: string[] }) => { let st = { log: input.log }; for (const f of fns) { const u = f({ log: st.log }); st = { log: st.log.concat(u.log) }; } return st; };
const handA = async (input: { log: string[] }) => { let st = { log: input.log }; for (const f of fns) { const u = await f({ log: st.log }); st = { log: st.log.concat(u.log) }; } return st; };
const gs = compileGraph(chain(100, true)); const ga = compileGraph(chain(100, false));
const cases: [string, () => unknown][] = [
  ["graphc-sync", () => gs.invoke({ log: [] }, { recursionLimit: 200 })],
  ["graphc-async", () => ga.invoke({ log: [] }, { recursionLimit: 200 })],
  ["hand", () => hand({ log: [] })],
  ["hand-await", () => handA({ log: [] })],
];
const best: Record<string, number> = {};
for (let round = 0; round < 7; round++) {
  for (const [name, f] of cases) {
    const N = 1000;
    for (let i = 0; i < 100; i++) await f();
    const t0 = performance.now();
    for (let i = 0; i < N; i++) await f();
    const us = ((performance.now() - t0) * 1000) / N / 100;
    best[name] = Math.min(best[name] ?? Infinity, us);
  }
}
for (const [k, v] of Object.entries(best)) console.log(k.padEnd(14), v.toFixed(3), "µs/step");
console.log("sync/hand-await", (best["graphc-sync"]! / best["hand-await"]!).toFixed(2), "async/hand-await", (best["graphc-async"]! / best["hand-await"]!).toFixed(2));
