/**
 * `npm run bench`: graphc vs LangGraph.js vs hand-written TypeScript, side by side in one process, on the
 * workloads of the peer baseline (../shared/reference/peer-baseline.md): W1 chain of 100 nodes, W2 fan-out
 * 50 + join, W3 3-level nested subgraphs, W5 3-node graph, W6 = W1 + in-memory saver with a new thread per
 * invoke, W1 on SQLite savers; then bundle size and cold start (bench/bundle.ts) and, when present, the
 * savers' storage benchmark (bench/storage.ts). Every variant's final state is checked identical before it
 * is timed. Prints tables with ratios and writes bench/results/latest.json. Always exits 0 (it asserts
 * nothing about speed); a wrong result or a failed build exits 1.
 *
 *   npm run bench                      BENCH_BATCHES=9 BENCH_BATCH_MS=250 npm run bench   (longer, steadier)
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { MemorySaver as LgMemorySaver } from "@langchain/langgraph";
import { SqliteSaver as LgSqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { buildFiles } from "../compiler/index.ts";
import { MemorySaver, type CheckpointSaver } from "../runtime/index.ts";
import { SqliteSaver } from "../runtime/adapters/sqlite.ts";
import { runBundles, type BundleRow, type ColdRow } from "./bundle.ts";
import { CLOCK, measure, pairedRatio, type Measured } from "./measure.ts";
import { chain, chainAwait, chainSnapshots, fanOut, nested, W1_NAMES, W5_NAMES } from "./workloads/hand.ts";
import { messagesLoop, messagesLoopPlain } from "./workloads/hand-messages.ts";
import * as lg from "./workloads/langgraph.ts";

const HERE = import.meta.dirname;
const BUILD = join(HERE, "_tmp-build-savers");
const OPTS = { batches: Number(process.env["BENCH_BATCHES"] ?? 5), batchMs: Number(process.env["BENCH_BATCH_MS"] ?? 200) };
const DEEP = { recursionLimit: 10_000 };

interface Invokable {
  invoke(input: unknown, config?: unknown): Promise<unknown>;
}

interface WorkloadResult {
  workload: string;
  note: string;
  variants: Measured[];
  /** named ratios: [label, value, target?] */
  ratios: { label: string; value: number; target?: number }[];
}

function fail(message: string): never {
  console.error(`bench: ${message}`);
  process.exit(1);
}

/** Compiles the workload `.graph` files with the real compiler (TypeScript pass included) into bench/_tmp-build. */
async function compileWorkloads(): Promise<{ ms: number; modules: Record<string, Record<string, unknown>> }> {
  rmSync(BUILD, { recursive: true, force: true });
  mkdirSync(BUILD, { recursive: true });
  cpSync(join(HERE, "workloads"), BUILD, { recursive: true });
  const names = ["w1", "w2", "w3", "w4", "w5", "app1", "app2"];
  const t0 = performance.now();
  const built = await buildFiles(names.map((n) => join(BUILD, `${n}.graph`)));
  const ms = performance.now() - t0;
  const errors = built.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) fail(`the workloads do not compile:\n${errors.map((d) => `${d.code} ${d.span.file}:${d.span.start.line} ${d.message}`).join("\n")}`);
  for (const o of built.outputs) writeFileSync(o.path, o.text);
  const modules: Record<string, Record<string, unknown>> = {};
  for (const n of names) modules[n] = (await import(pathToFileURL(join(BUILD, `${n}.graph.ts`)).href)) as Record<string, unknown>;
  return { ms, modules };
}

function graph(modules: Record<string, Record<string, unknown>>, file: string, name: string): Invokable {
  const g = modules[file]?.[name] as Invokable | undefined;
  if (!g) fail(`${file}.graph.ts does not export ${name}`);
  return g;
}

/** JSON with sorted keys: final states are compared across variants before anything is timed. */
function canon(v: unknown): string {
  if (v === null || typeof v !== "object") return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(canon).join(",")}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canon(o[k])}`)
    .join(",")}}`;
}

async function sameResults(workload: string, runs: { name: string; result: () => unknown }[]): Promise<void> {
  const seen = await Promise.all(runs.map(async (r) => ({ name: r.name, value: canon(await r.result()) })));
  const first = seen[0];
  for (const s of seen) {
    if (s.value !== first?.value) fail(`${workload}: ${s.name} gives ${s.value.slice(0, 300)}\n  but ${first?.name} gives ${first?.value.slice(0, 300)}`);
  }
}

/** A saver variant: a new thread per invoke; the saver is replaced every `per` invocations so memory stays flat. */
function threaded(g: Invokable, makeSaver: () => unknown, withSaverInConfig: boolean, per = 200): () => Promise<unknown> {
  let saver = makeSaver();
  let i = 0;
  return () => {
    if (++i % per === 0) saver = makeSaver();
    const config = { ...DEEP, configurable: { thread_id: `t${i}` }, ...(withSaverInConfig ? { checkpointer: saver } : {}) };
    return g.invoke({ count: 0 }, config);
  };
}


async function main(): Promise<void> {
  const { modules } = await compileWorkloads();
  const oursM = graph(modules, "w1", "W1");
  const m = threaded(oursM, () => new MemorySaver(), true, 200);
  const none = () => oursM.invoke({ count: 0 }, DEEP);
  const noop: CheckpointSaver = {
    async getTuple() { return undefined; },
    async *list() {},
    async put(c, cp) { return { configurable: { ...c.configurable, checkpoint_id: cp.id } }; },
    async putWrites() {},
    async deleteThread() {},
  };
  const nm = threaded(oursM, () => noop, true, 200);
  for (let r = 0; r < 3; r++) {
    let t0 = performance.now();
    for (let k = 0; k < 300; k++) await none();
    const a = (performance.now() - t0) / 300 / 100 * 1000;
    t0 = performance.now();
    for (let k = 0; k < 4000; k++) await m();
    const b = (performance.now() - t0) / 4000 / 100 * 1000;
    t0 = performance.now();
    for (let k = 0; k < 4000; k++) await nm();
    const c = (performance.now() - t0) / 4000 / 100 * 1000;
    console.log("noop saver", c.toFixed(2));
    console.log("W1 no saver", a.toFixed(2), "µs/step; W6 MemorySaver", b.toFixed(2), "µs/step");
  }
  rmSync(BUILD, { recursive: true, force: true });
}
await main();
