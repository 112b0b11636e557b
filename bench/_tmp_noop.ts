import { compileGraph, append, foldOne, type GraphSpec, type Values, type TaskUpdate, type CheckpointSaver } from "graphc/runtime";
function chain(k: number): GraphSpec {
  const nodes = Array.from({ length: k }, (_, i) => ({
    name: `n${i}`, read: (v: Values) => ({ log: v.log }), call: (s: unknown) => ({ log: [`n${i}`] }), sync: true, check: () => {},
    edges: i + 1 < k ? [`n${i + 1}`] : [], joins: [], branches: [],
  }));
  return { name: "W1", compilerVersion: "0.1.0", init: () => ({ log: [] }), input: (r: unknown) => r as Values, output: (v: Values) => ({ log: v.log }),
    apply: (values: Values, updates: readonly TaskUpdate[]) => { let w = false; for (const u of updates) { const x = u.values; if ("log" in x) { values.log = foldOne("log" in values, values.log as string[], x.log, append); w = true; } } return w ? ["log"] : []; },
    nodes, start: { edges: ["n0"], joins: [], branches: [] }, joins: [], interruptBefore: [], interruptAfter: [], vars: (o: Values) => o };
}
const noop: CheckpointSaver = {
  async getTuple() { return undefined; },
  async *list() {},
  async put(config, cp) { return { configurable: { ...config.configurable, checkpoint_id: cp.id } }; },
  async putWrites() {},
  async deleteThread() {},
};
for (const durability of ["async", "sync", "exit"] as const) {
  const g = compileGraph(chain(100), { checkpointer: noop });
  let i = 0;
  for (let j = 0; j < 200; j++) await g.invoke({ log: [] }, { durability, recursionLimit: 200, configurable: { thread_id: `w${i++}` } });
  const N = 500; const t0 = performance.now();
  for (let j = 0; j < N; j++) await g.invoke({ log: [] }, { durability, recursionLimit: 200, configurable: { thread_id: `w${i++}` } });
  const us = ((performance.now() - t0) * 1000) / N;
  console.log(durability, "noop-saver µs/step", (us / 101).toFixed(3));
}
import { MemorySaver } from "graphc/runtime";
{
  const g = compileGraph(chain(100), { checkpointer: new MemorySaver() });
  let i = 0; let best = Infinity;
  for (let r = 0; r < 3; r++) {
    const N = 50; const t0 = performance.now();
    for (let j = 0; j < N; j++) await g.invoke({ log: [] }, { recursionLimit: 200, configurable: { thread_id: `m${i++}` } });
    best = Math.min(best, ((performance.now() - t0) * 1000) / N / 101);
  }
  console.log("MemorySaver µs/step", best.toFixed(2));
}
