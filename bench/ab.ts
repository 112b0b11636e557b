/**
 * `npx tsx bench/ab.ts <other-tree>`: graphc against another checkout of itself (e.g. the commit before a
 * change, `git archive <commit> | tar -x -C /tmp/before` with node_modules linked), interleaved in one
 * process so that both sides see the same machine load. Each tree builds the W1–W5 workloads with its own
 * compiler (TypeScript pass included) into its `bench/_tmp-ab/` (git-ignored); this process imports both
 * builds (each resolves its own `graphc/runtime`) and alternates 100 ms batches, 21 pairs per workload.
 * Prints, per workload, the median CPU µs per invoke of each side and the median of the per-pair ratios
 * (this tree / other). `AB_ONLY=w1,w3,w6` limits the workloads (W6: W1 with each tree's MemorySaver, a thread per invoke;
 * sqlite: W1 with each tree's SqliteSaver on a new file (WAL) per batch, a thread per invoke). `AB_HAND=1` adds a
 * third batch per pair, the hand-written loop of W1–W5 (bench/workloads/hand.ts; W4's appends AIMessages), awaited
 * as `npm run bench` awaits it, and prints each tree's median per-triple ratio to it. Asserts nothing (speed goes
 * in benchmarks).
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { chain, fanOut, nested, W1_NAMES, W5_NAMES } from "./workloads/hand.ts";
import { pointRuntimeImports } from "./runtime-imports.ts";

interface Invokable {
  invoke(input: unknown, config?: unknown): Promise<unknown>;
}

/**
 * `"saver"`: W6, W1 with each tree's own MemorySaver (a new one per batch) and a new thread per invoke;
 * `"sqlite"`: the same with each tree's SqliteSaver on a new file
 */
type Config = object | "saver" | "sqlite";
const WORKLOADS: [file: string, graph: string, input: unknown, config: Config][] = [
  ["w1", "W1", { count: 0 }, { recursionLimit: 10_000 }],
  ["w2", "W2", {}, {}],
  ["w3", "W3", { count: 0 }, {}],
  ["w4", "W4", { limit: 200 }, { recursionLimit: 10_000 }],
  ["w5", "W5", { count: 0 }, {}],
  ["w1", "W1", { count: 0 }, "saver"],
  ["w1", "W1", { count: 0 }, "sqlite"],
];

/** builds the workloads with `root`'s compiler; returns the folder of the generated modules */
async function build(root: string): Promise<string> {
  const { buildFiles } = (await import(pathToFileURL(join(root, "compiler/index.ts")).href)) as {
    buildFiles: (files: string[]) => Promise<{ outputs: { path: string; text: string }[] }>;
  };
  const out = join(root, "bench/_tmp-ab");
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  cpSync(join(root, "bench/workloads"), out, { recursive: true });
  const built = await buildFiles(WORKLOADS.map(([f]) => join(out, `${f}.graph`)));
  // one process resolves package names through this tree's tsconfig paths for both trees: each tree's
  // generated code imports its own runtime's entries by path, or both sides would run this tree's runtime
  for (const o of built.outputs)
    writeFileSync(o.path, pointRuntimeImports(o.text, (f) => pathToFileURL(join(root, "runtime", f)).href));
  // the tree's SQLite saver, importing that tree's runtime (not the one this tree's tsconfig paths name)
  mkdirSync(join(out, "checkpoint-sqlite"));
  for (const f of readdirSync(join(root, "checkpoint-sqlite")).filter((f) => f.endsWith(".ts"))) {
    const text = readFileSync(join(root, "checkpoint-sqlite", f), "utf8");
    const saver = pathToFileURL(join(root, "runtime/saver.ts")).href;
    writeFileSync(join(out, "checkpoint-sqlite", f), text.replaceAll('from "@graphc/runtime/saver"', `from "${saver}"`));
  }
  return out;
}

const dbDir = mkdtempSync(join(tmpdir(), "graphc-ab-"));
process.on("exit", () => rmSync(dbDir, { recursive: true, force: true }));
let dbFiles = 0;

/** a batch's configs: the workload's own, or (W6) a fresh saver of `tree` and a new thread per invoke */
async function configs(tree: string, config: Config): Promise<() => object> {
  if (config !== "saver" && config !== "sqlite") return () => config;
  const checkpointer = config === "saver" ? await memorySaver(tree) : await sqliteSaver(tree);
  let thread = 0;
  return () => ({ recursionLimit: 10_000, checkpointer, configurable: { thread_id: String(thread++) } });
}

async function memorySaver(tree: string): Promise<object> {
  const { MemorySaver } = (await import(pathToFileURL(join(tree, "runtime/index.ts")).href)) as {
    MemorySaver: new () => object;
  };
  return new MemorySaver();
}

async function sqliteSaver(tree: string): Promise<object> {
  const { SqliteSaver } = (await import(pathToFileURL(join(tree, "bench/_tmp-ab/checkpoint-sqlite/index.ts")).href)) as {
    SqliteSaver: new (path: string) => object;
  };
  return new SqliteSaver(join(dbDir, `${dbFiles++}.db`));
}

/** the hand-written loop of a workload (AB_HAND), as bench/run.ts times it */
const HAND: Record<string, () => unknown> = {
  w1: () => chain(W1_NAMES, { count: 0, log: [] }),
  w2: () => fanOut(),
  w3: () => nested({ count: 0, log: [] }),
  // @langchain/core (its AIMessage) is loaded only for this loop: under tsx, a process that imported it ran
  // graphc's invokes slower (bench/alone.ts)
  w4: () => messagesLoop!(200),
  w5: () => chain(W5_NAMES, { count: 0, log: [] }),
};

/** CPU µs per call of the hand-written loop (awaited, as `npm run bench` does) */
async function handBatch(hand: () => unknown): Promise<number> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  let n = 0;
  while (performance.now() - start < 100) {
    await hand();
    n++;
  }
  const d = process.cpuUsage(cpu);
  return (d.user + d.system) / n;
}

/** CPU and wall µs per invoke */
async function batch(g: Invokable, input: unknown, tree: string, config: Config): Promise<[number, number]> {
  const next = await configs(tree, config);
  const cpu = process.cpuUsage();
  const start = performance.now();
  let n = 0;
  while (performance.now() - start < 100) {
    await g.invoke(input, next());
    n++;
  }
  const d = process.cpuUsage(cpu);
  return [(d.user + d.system) / n, ((performance.now() - start) * 1000) / n];
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const other = process.argv[2];
if (!other) {
  console.error("usage: npx tsx bench/ab.ts <other-tree>");
  process.exit(2);
}
const trees = [resolve(other), resolve(import.meta.dirname, "..")] as const;
const dirs = [await build(trees[0]), await build(trees[1])];
const only = process.env["AB_ONLY"]?.split(",");
const messagesLoop =
  process.env["AB_HAND"] && (!only || only.includes("w4")) ? (await import("./workloads/hand-messages.ts")).messagesLoop : undefined;
for (const [file, graph, input, config] of WORKLOADS) {
  const name = config === "saver" ? "w6" : config === "sqlite" ? "sqlite" : file;
  if (only && !only.includes(name)) continue;
  const load = async (dir: string) =>
    ((await import(pathToFileURL(join(dir, `${file}.graph.ts`)).href)) as Record<string, Invokable>)[graph]!;
  const [a, b] = [await load(dirs[0]!), await load(dirs[1]!)];
  const [warmA, warmB] = [await configs(trees[0], config), await configs(trees[1], config)];
  for (let i = 0; i < 200; i++) {
    await a.invoke(input, warmA());
    await b.invoke(input, warmB());
  }
  const as: number[] = [];
  const bs: number[] = [];
  const ratios: number[] = [];
  const wallRatios: number[] = [];
  const hand = process.env["AB_HAND"] ? HAND[name] : undefined;
  const toHand: [number[], number[]] = [[], []];
  for (let r = 0; r < 21; r++) {
    const [x, xWall] = await batch(a, input, trees[0], config);
    const [y, yWall] = await batch(b, input, trees[1], config);
    as.push(x);
    bs.push(y);
    ratios.push(y / x);
    wallRatios.push(yWall / xWall);
    if (hand) {
      const h = await handBatch(hand);
      toHand[0].push(x / h);
      toHand[1].push(y / h);
    }
  }
  const vsHand = hand
    ? `; ÷ hand-written: other ×${median(toHand[0]).toFixed(2)}, this ×${median(toHand[1]).toFixed(2)} (CPU)`
    : "";
  console.log(
    `${name}: other ${median(as).toFixed(2)} µs, this ${median(bs).toFixed(2)} µs (CPU), this / other ×${median(ratios).toFixed(3)} (CPU), ×${median(wallRatios).toFixed(3)} (wall)${vsHand}`,
  );
}
