/**
 * `npm run bench:lean` (`npx tsx bench/lean.ts`): the small loops (runtime/static/ for a chain of static
 * edges, runtime/lean/ for one with routers) against the full loop and the hand-written loop, on the
 * workloads that run on them (W1 chain of 100 nodes and W5 3-node chain: static; W4 messages loop of 200
 * steps: lean; W2 has a join and W3 subgraphs, so they run on the full loop). The workloads are built as
 * `graphc build` does (TypeScript pass included); each generated graph is a `StaticGraph` or a `LeanGraph`,
 * and the full loop runs the same spec through `compileGraph`. The three variants alternate in ~100 ms
 * batches in one process (CPU time, `LEAN_PAIRS` rounds, default 11) and the medians are printed with the
 * ratios. W4 runs last: its hand-written loop needs @langchain/core's `AIMessage`, and under tsx a process
 * that has imported it runs graphc's invokes slower (docs/benchmarks.md, "Processes"). Asserts nothing.
 */
import { cpSync, mkdirSync, rmSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { buildFiles } from "../compiler/index.ts";
import { compileGraph, LeanGraph, StaticGraph, type Values } from "../runtime/index.ts";
import { chain, W1_NAMES, W5_NAMES } from "./workloads/hand.ts";

interface Invokable {
  invoke(input: unknown, config?: unknown): Promise<unknown>;
}

const OUT = join(import.meta.dirname, "_tmp-lean");
rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
cpSync(join(import.meta.dirname, "workloads"), OUT, { recursive: true });
const built = await buildFiles(["w1", "w4", "w5"].map((w) => join(OUT, `${w}.graph`)));
const errors = built.diagnostics.filter((d) => d.severity === "error");
if (errors.length > 0) throw new Error(errors.map((d) => d.message).join("\n"));
const { writeFileSync } = await import("node:fs");
for (const o of built.outputs) writeFileSync(o.path, o.text);
const load = async (w: string, g: string) =>
  ((await import(pathToFileURL(join(OUT, `${w}.graph.ts`)).href)) as Record<string, Invokable>)[g]!;

const DEEP = { recursionLimit: 10_000 };
type Case = [name: string, graph: Invokable, hand: () => unknown, input: Values, config: object];
const cases: (Case | (() => Promise<Case>))[] = [
  ["W1 chain, 100 nodes", await load("w1", "W1"), () => chain(W1_NAMES, { count: 0, log: [] }), { count: 0 }, DEEP],
  ["W5 3-node graph", await load("w5", "W5"), () => chain(W5_NAMES, { count: 0, log: [] }), { count: 0 }, {}],
  async () => {
    const { messagesLoop } = await import("./workloads/hand-messages.ts");
    return ["W4 messages loop, 200 steps", await load("w4", "W4"), () => messagesLoop(200), { limit: 200 }, DEEP];
  },
];

async function batch(run: () => unknown): Promise<number> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  let n = 0;
  while (performance.now() - start < 100) {
    const r = run();
    if (r instanceof Promise) await r;
    n++;
  }
  const d = process.cpuUsage(cpu);
  return (d.user + d.system) / n;
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pairs = Number(process.env["LEAN_PAIRS"] ?? 11);
console.log(`small loop (static or lean) vs full loop vs hand-written — ${new Date().toISOString()}, load ${loadavg().map((x) => x.toFixed(1)).join(" ")}, ${pairs} rounds, CPU µs per invoke (median)`);
for (const c of cases) {
  const [name, lean, hand, input, config] = typeof c === "function" ? await c() : c;
  // (a LeanGraph is a StaticGraph whose own loop also runs routers and Commands)
  if (!(lean instanceof StaticGraph)) throw new Error(`${name}: generated code did not pick a small loop`);
  const full = compileGraph(lean.spec);
  for (let i = 0; i < 200; i++) {
    await lean.invoke(input, config);
    await full.invoke(input, config);
    hand();
  }
  const l: number[] = [];
  const f: number[] = [];
  const h: number[] = [];
  const lh: number[] = [];
  const fh: number[] = [];
  for (let r = 0; r < pairs; r++) {
    const x = await batch(() => lean.invoke(input, config));
    const y = await batch(() => full.invoke(input, config));
    const z = await batch(hand);
    l.push(x);
    f.push(y);
    h.push(z);
    lh.push(x / z);
    fh.push(y / z);
  }
  console.log(
    `${name} (${lean instanceof LeanGraph ? "lean" : "static"} loop): small ${median(l).toFixed(2)}, full ${median(f).toFixed(2)}, hand-written ${median(h).toFixed(2)}; ` +
      `small / hand-written ×${median(lh).toFixed(2)}, full / hand-written ×${median(fh).toFixed(2)}, small / full ×${(median(l) / median(f)).toFixed(2)}`,
  );
}
