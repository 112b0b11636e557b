/**
 * `npm run bench:server`: runs/s and latency of a 3-node graph (bench/server/three.graph) served on
 * Postgres — one API process (`graphc serve --postgres`) and 1, 2 and 4 worker processes (`graphc worker
 * --postgres`, 4 runs at a time each) — beside the same graph invoked in this process, with the same
 * PostgresSaver (durability "sync", as the workers run) and with no checkpointer.
 *
 * Load: RUNS runs, IN_FLIGHT at a time, each on a new thread through the LangGraph SDK Client (`runs.wait`;
 * the thread is created before the clock starts). Latency is per run, submit to result; runs/s is RUNS over
 * the wall time of the batch. Figures in docs/server.md ("Scale-out on Postgres").
 *
 *   npm run bench:server                # RUNS=300 IN_FLIGHT=32
 *   RUNS=100 npm run bench:server       # quicker
 */
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import type { CompiledGraph } from "@graphc/runtime";
import { PostgresSaver } from "@graphc/checkpoint-postgres";
import { ROOT, compileGraph } from "../test/durability/child.ts";
import { tempDir } from "../test/temp-dir.ts";
import { Cluster } from "../test/server/postgres/cluster.ts";

const RUNS = Number(process.env["RUNS"] ?? 300);
const IN_FLIGHT = Number(process.env["IN_FLIGHT"] ?? 32);
const WORKERS = [1, 2, 4];
const GRAPH = join(ROOT, "bench", "server", "three.graph");

interface Figures {
  name: string;
  runsPerSecond: number;
  p50: number;
  p99: number;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
}

/** Runs `one(i)` RUNS times, IN_FLIGHT at once; each call times its own critical part (ms). */
async function load(name: string, prepare: (i: number) => Promise<unknown>, one: (i: number, prepared: unknown) => Promise<void>): Promise<Figures> {
  const prepared = await Promise.all(Array.from({ length: RUNS }, (_, i) => prepare(i)));
  const latencies: number[] = [];
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < RUNS) {
        const i = next++;
        const t0 = performance.now();
        await one(i, prepared[i]);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const wall = (performance.now() - start) / 1000;
  latencies.sort((x, y) => x - y);
  return { name, runsPerSecond: RUNS / wall, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

function expectOutput(out: unknown, i: number): void {
  const n = (out as { n?: number } | undefined)?.n;
  if (n !== (i + 1) * 2 - 3) throw new Error(`run ${i}: wrong output ${JSON.stringify(out)}`);
}

async function inProcess(graph: CompiledGraph, url: string, schema: string): Promise<Figures[]> {
  const plain = await load("in-process, no checkpointer", async () => undefined, async (i) => expectOutput(await graph.invoke({ n: i }), i));
  const saver = PostgresSaver.fromConnString(url, { schema });
  const saved = graph.withConfig({ checkpointer: saver, durability: "sync" });
  try {
    const pg = await load(
      "in-process, PostgresSaver",
      async () => randomUUID(),
      async (i, thread) => expectOutput(await saved.invoke({ n: i }, { configurable: { thread_id: thread as string } }), i),
    );
    return [plain, pg];
  } finally {
    await saver.end();
  }
}

async function main(): Promise<void> {
  const tmp = tempDir("bench-server");
  const cluster = new Cluster({ name: "benchsrv", files: [GRAPH], dataDir: join(tmp.dir, "data"), heartbeatMs: 1000 });
  const results: Figures[] = [];
  try {
    await compileGraph(GRAPH, join(ROOT, "bench", "server"), tmp.dir);
    const graph = ((await import(join(tmp.dir, "three.graph.ts"))) as { Three: CompiledGraph }).Three;
    results.push(...(await inProcess(graph, cluster.url, `${cluster.schema}_inproc`)));
    const client = new Client({ apiUrl: await cluster.api() });
    for (const n of WORKERS) {
      const workers = await Promise.all(Array.from({ length: n }, () => cluster.worker(4)));
      // one warm-up batch's worth of runs: connections, prepared statements, JIT
      await load("warm-up", async () => (await client.threads.create()).thread_id, async (i, t) => void (await client.runs.wait(t as string, "Three", { input: { n: i } })));
      results.push(
        await load(
          `Postgres, ${n} worker${n === 1 ? "" : "s"}`,
          async () => (await client.threads.create()).thread_id,
          async (i, thread) => expectOutput(await client.runs.wait(thread as string, "Three", { input: { n: i } }), i),
        ),
      );
      await Promise.all(workers.map((w) => cluster.terminate(w)));
    }
  } finally {
    await cluster.stop();
    await cluster.dropExtra(`${cluster.schema}_inproc`);
    tmp.remove();
  }
  const base = results.find((r) => r.name === "in-process, PostgresSaver")!;
  console.log(`\n3-node graph, ${RUNS} runs, ${IN_FLIGHT} in flight, each on a new thread\n`);
  console.log("| setup | runs/s | p50 ms | p99 ms | runs/s ÷ in-process PostgresSaver | p50 ÷ in-process PostgresSaver |");
  console.log("|---|---:|---:|---:|---:|---:|");
  for (const r of results) {
    console.log(
      `| ${r.name} | ${r.runsPerSecond.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${(r.runsPerSecond / base.runsPerSecond).toPrecision(3)} | ${(r.p50 / base.p50).toPrecision(3)} |`,
    );
  }
}

await main();
