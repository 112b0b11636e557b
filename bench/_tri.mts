// before / after / hand-written, interleaved 100 ms batches in one process (CPU time)
import * as B1 from "/tmp/speed-before-gen/w1.graph.ts"; import * as B2 from "/tmp/speed-before-gen/w2.graph.ts"; import * as B3 from "/tmp/speed-before-gen/w3.graph.ts"; import * as B4 from "/tmp/speed-before-gen/w4.graph.ts"; import * as B5 from "/tmp/speed-before-gen/w5.graph.ts";
import * as A1 from "/tmp/speed-after-gen/w1.graph.ts"; import * as A2 from "/tmp/speed-after-gen/w2.graph.ts"; import * as A3 from "/tmp/speed-after-gen/w3.graph.ts"; import * as A4 from "/tmp/speed-after-gen/w4.graph.ts"; import * as A5 from "/tmp/speed-after-gen/w5.graph.ts";
import { nested, chain, fanOut, W5_NAMES, W1_NAMES } from "/work/wt-speed/bench/workloads/hand.ts";
import { messagesLoop } from "/work/wt-speed/bench/workloads/hand-messages.ts";
const cpu = () => { const c = process.cpuUsage(); return c.user + c.system; };
async function batch(f: () => unknown, ms = 100) { const t0 = performance.now(); const c0 = cpu(); let n = 0; while (performance.now() - t0 < ms) { await f(); n++; } return (cpu() - c0) / n; }
const med = (x: number[]) => [...x].sort((a, b) => a - b)[x.length >> 1]!;
type G = { invoke(i: unknown, c?: unknown): Promise<unknown> };
const L = { recursionLimit: 10000 };
const cases: [string, G, G, unknown, unknown, () => unknown][] = [
  ["W1", B1.W1, A1.W1, { count: 0 }, L, () => chain(W1_NAMES, { count: 0, log: [] })],
  ["W2", B2.W2, A2.W2, {}, {}, () => fanOut()],
  ["W3", B3.W3, A3.W3, { count: 0 }, {}, () => nested({ count: 0, log: [] })],
  ["W4", B4.W4, A4.W4, { limit: 200 }, L, () => messagesLoop(200)],
  ["W5", B5.W5, A5.W5, { count: 0 }, {}, () => chain(W5_NAMES, { count: 0, log: [] })],
];
const only = process.env["ONLY"]?.split(",");
for (const [name, b, a, input, cfg, h] of cases) {
  if (only && !only.includes(name)) continue;
  for (let i = 0; i < 200; i++) { await b.invoke(input, cfg); await a.invoke(input, cfg); await h(); }
  const bs: number[] = [], as: number[] = [], hs: number[] = [], rb: number[] = [], ra: number[] = [], rab: number[] = [];
  for (let i = 0; i < Number(process.env["PAIRS"] ?? 11); i++) {
    const x = await batch(() => b.invoke(input, cfg)); const y = await batch(() => a.invoke(input, cfg)); const z = await batch(h);
    bs.push(x); as.push(y); hs.push(z); rb.push(x / z); ra.push(y / z); rab.push(y / x);
  }
  console.log(`${name}: before ${med(bs).toFixed(2)} µs (×${med(rb).toFixed(2)} hand), after ${med(as).toFixed(2)} µs (×${med(ra).toFixed(2)} hand), hand ${med(hs).toFixed(2)} µs; after/before ×${med(rab).toFixed(3)}`);
}
