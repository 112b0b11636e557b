/**
 * `npm run bench`: graphc vs LangGraph.js vs hand-written TypeScript, side by side in one process, on the
 * workloads of the peer baseline (../shared/reference/peer-baseline.md): W1 chain of 100 nodes, W2 fan-out
 * 50 + join, W3 3-level nested subgraphs, W5 3-node graph, W6 = W1 + in-memory saver with a new thread per
 * invoke, W1 on SQLite savers; then bundle size and cold start (bench/bundle.ts) and, when present, the
 * savers' storage benchmark (bench/storage.ts). The graphc and hand-written sides of W1–W6 run in a child
 * process per workload that never loads LangGraph.js (bench/alone.ts; W6's two sides in one each), as their
 * users run them; LangGraph.js runs here. Every variant's final state is checked identical before it
 * is timed. Prints tables with ratios and writes bench/results/latest.json. Always exits 0 (it asserts
 * nothing about speed); a wrong result or a failed build exits 1.
 *
 *   npm run bench                      BENCH_BATCHES=9 BENCH_BATCH_MS=250 npm run bench   (longer, steadier)
 *   BENCH_ONLY=sqlite npm run bench    (some workloads only: w1–w6, sqlite; no bundles, storage or latest.json)
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { MemorySaver as LgMemorySaver } from "@langchain/langgraph";
import { SqliteSaver as LgSqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { buildFiles } from "../compiler/index.ts";
import { MemorySaver, type CheckpointSaver } from "../runtime/index.ts";
import { SqliteSaver } from "@graphc/checkpoint-sqlite";
import { runBundles, type BundleRow, type ColdRow } from "./bundle.ts";
import { benchOptions, CLOCK, measure, otherRatio, pairedRatio, type Measured } from "./measure.ts";
import { chain, chainAwait, fanOut, nested, W1_NAMES, W5_NAMES } from "./workloads/hand.ts";
import { snapshotThreads, threaded, type Invokable } from "./threads.ts";
import { messagesLoop, messagesLoopPlain, W4_GROWTH, W4_STEPS } from "./workloads/hand-messages.ts";
import * as lg from "./workloads/langgraph.ts";

const HERE = import.meta.dirname;
const BUILD = join(HERE, "_tmp-build");
const OPTS = benchOptions();
const DEEP = { recursionLimit: 10_000 };
/** `BENCH_ONLY=w1,sqlite`: only those workloads (w1–w6, sqlite) */
const ONLY = process.env["BENCH_ONLY"]?.split(",");
const wanted = (name: string) => ONLY === undefined || ONLY.includes(name);

interface WorkloadResult {
  workload: string;
  note: string;
  variants: Measured[];
  /** named ratios: [label, value, target?] */
  ratios: { label: string; value: number; other: number; target?: number }[];
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
  if (errors.length > 0)
    fail(
      `the workloads do not compile:\n${errors.map((d) => `${d.code} ${d.span.file}:${d.span.start.line} ${d.message}`).join("\n")}`,
    );
  for (const o of built.outputs) writeFileSync(o.path, o.text);
  const modules: Record<string, Record<string, unknown>> = {};
  for (const n of names)
    modules[n] = (await import(pathToFileURL(join(BUILD, `${n}.graph.ts`)).href)) as Record<string, unknown>;
  return { ms, modules };
}

function graph(modules: Record<string, Record<string, unknown>>, file: string, name: string): Invokable {
  const g = modules[file]?.[name] as Invokable | undefined;
  if (!g) fail(`${file}.graph.ts does not export ${name}`);
  return g;
}

/**
 * The graphc and hand-written variants of workload `w` (w1–w5; "w6": graphc, "w6-hand": the hand-written
 * loop), measured in a process of their own that never loads LangGraph.js (bench/alone.ts says why), from the
 * modules compiled into bench/_tmp-build.
 */
function alone(w: string): { measured: Measured[]; growth: Measured[]; saverGrowth: Measured[] } {
  const out = execFileSync(process.execPath, [...process.execArgv, join(HERE, "alone.ts"), w], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  return JSON.parse(out.trim().split("\n").pop()!) as { measured: Measured[]; growth: Measured[]; saverGrowth: Measured[] };
}

/** LangGraph.js's variant, measured in this process */
async function langgraph(name: string, run: () => unknown): Promise<Measured> {
  return (await measure([{ name, run, group: "LangGraph.js" }], OPTS))[0]!;
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
    if (s.value !== first?.value)
      fail(
        `${workload}: ${s.name} gives ${s.value.slice(0, 300)}\n  but ${first?.name} gives ${first?.value.slice(0, 300)}`,
      );
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  console.log(
    `graphc benchmark — ${new Date().toISOString()}, Node ${process.version}, ${OPTS.batches} batches of ~${OPTS.batchMs} ms per variant, clock: ${CLOCK} (BENCH_CLOCK=cpu|wall), load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(" ")}\n`,
  );
  const { ms: compileMs, modules } = await compileWorkloads();
  console.log(
    `compiled the workload .graph files in ${compileMs.toFixed(0)} ms (TypeScript pass included)\n`,
  );
  const results: WorkloadResult[] = [];
  const input = () => ({ count: 0, log: [] as string[] });

  // ---------------------------------------------------------------- W1
  if (wanted("w1")) {
    const ours = graph(modules, "w1", "W1");
    const theirs = lg.w1();
    await sameResults("W1", [
      { name: "graphc", result: () => ours.invoke({ count: 0 }, DEEP) },
      { name: "LangGraph.js", result: () => theirs.invoke({ count: 0 }, DEEP) },
      { name: "hand", result: () => chain(W1_NAMES, input()) },
      { name: "hand-await", result: () => chainAwait(W1_NAMES, input()) },
    ]);
    const [g, ha, h] = alone("w1").measured as [Measured, Measured, Measured];
    const l = await langgraph("LangGraph.js", () => theirs.invoke({ count: 0 }, DEEP));
    const v = [g, l, ha, h];
    results.push({
      workload: "W1 chain, 100 nodes",
      note: `per node-step: graphc ${(g.median / 100).toFixed(2)} µs, LangGraph.js ${(l.median / 100).toFixed(0)} µs`,
      variants: v,
      ratios: [
        { label: "LangGraph.js / graphc", value: pairedRatio(l, g), other: otherRatio(l, g), target: 1000 },
        {
          label: "graphc / hand-written await per node",
          value: pairedRatio(g, ha),
          other: otherRatio(g, ha),
        },
        { label: "graphc / hand-written", value: pairedRatio(g, h), other: otherRatio(g, h) },
      ],
    });
  }

  // ---------------------------------------------------------------- W2
  if (wanted("w2")) {
    const ours = graph(modules, "w2", "W2");
    const theirs = lg.w2();
    // LangGraph prints a MaxListenersExceededWarning per invoke with 50 parallel tasks (peer-baseline.md #3)
    const warn = process.emitWarning;
    process.emitWarning = () => {};
    await sameResults("W2", [
      { name: "graphc", result: () => ours.invoke({}) },
      { name: "LangGraph.js", result: () => theirs.invoke({}) },
      { name: "hand", result: () => fanOut() },
    ]);
    const [g, h] = alone("w2").measured as [Measured, Measured];
    const l = await langgraph("LangGraph.js", () => theirs.invoke({}));
    process.emitWarning = warn;
    const v = [g, l, h];
    results.push({
      workload: "W2 fan-out 50 + join",
      note: `per node run (51): graphc ${(g.median / 51).toFixed(2)} µs, LangGraph.js ${(l.median / 51).toFixed(0)} µs`,
      variants: v,
      ratios: [
        { label: "LangGraph.js / graphc", value: pairedRatio(l, g), other: otherRatio(l, g), target: 1000 },
        { label: "graphc / hand-written", value: pairedRatio(g, h), other: otherRatio(g, h) },
      ],
    });
  }

  // ---------------------------------------------------------------- W3
  if (wanted("w3")) {
    const ours = graph(modules, "w3", "W3");
    const theirs = lg.w3();
    await sameResults("W3", [
      { name: "graphc", result: () => ours.invoke({ count: 0 }) },
      { name: "LangGraph.js", result: () => theirs.invoke({ count: 0 }) },
      { name: "hand", result: () => nested(input()) },
    ]);
    const [g, h] = alone("w3").measured as [Measured, Measured];
    const l = await langgraph("LangGraph.js", () => theirs.invoke({ count: 0 }));
    const v = [g, l, h];
    results.push({
      workload: "W3 3-level nested subgraphs",
      note: `per node run (7 plain + 2 subgraph): graphc ${(g.median / 9).toFixed(2)} µs, LangGraph.js ${(l.median / 9).toFixed(0)} µs`,
      variants: v,
      ratios: [
        { label: "LangGraph.js / graphc", value: pairedRatio(l, g), other: otherRatio(l, g), target: 1000 },
        { label: "graphc / hand-written", value: pairedRatio(g, h), other: otherRatio(g, h) },
      ],
    });
  }

  // ---------------------------------------------------------------- W4
  if (wanted("w4")) {
    const ours = graph(modules, "w4", "W4");
    const theirs = lg.w4();
    const steps = W4_STEPS;
    const cfg = { recursionLimit: 10_000 };
    // message classes differ between the sides: compare each message's id and content
    const plain = async (p: unknown) => {
      const r = (await p) as { messages: { id?: string; content?: unknown }[]; turns: number };
      return { turns: r.turns, messages: r.messages.map((m) => ({ id: m.id, content: m.content })) };
    };
    await sameResults("W4", [
      { name: "graphc", result: () => plain(ours.invoke({ limit: steps }, cfg)) },
      {
        name: "LangGraph.js",
        result: () => plain(theirs.invoke({ messages: [], turns: 0, limit: steps }, cfg)),
      },
      { name: "hand", result: () => plain(messagesLoop(steps)) },
      { name: "hand-plain", result: () => plain(messagesLoopPlain(steps)) },
    ]);
    // per-step cost as the thread grows (graphc only: LangGraph's is flat at ~0.6 ms, peer-baseline.md): `growth`
    const { measured, growth, saverGrowth } = alone("w4");
    const [g, hp, h] = measured as [Measured, Measured, Measured];
    const l = await langgraph("LangGraph.js, MessagesAnnotation", () =>
      theirs.invoke({ messages: [], turns: 0, limit: steps }, cfg),
    );
    const v = [g, l, hp, h];
    const perStep = growth.map((m, i) => m.median / (W4_GROWTH[i] ?? 1));
    const saverPerStep = saverGrowth.map((m, i) => m.median / (W4_GROWTH[i] ?? 1));
    results.push({
      workload: "W4 messages loop, 200 steps",
      note: `per step: graphc ${(g.median / steps).toFixed(2)} µs, LangGraph.js ${(l.median / steps).toFixed(0)} µs; graphc µs/step at 50 / 200 / 800 steps: ${perStep.map((x) => x.toFixed(2)).join(" / ")}; with a MemorySaver: ${saverPerStep.map((x) => x.toFixed(2)).join(" / ")}`,
      variants: v,
      ratios: [
        { label: "LangGraph.js / graphc", value: pairedRatio(l, g), other: otherRatio(l, g), target: 100 },
        {
          label: "graphc / hand-written append AIMessage",
          value: pairedRatio(g, h),
          other: otherRatio(g, h),
        },
        {
          label: "graphc µs/step at 800 ÷ at 50 steps (flat = 1)",
          value: (pairedRatio(growth[2]!, growth[0]!) * 50) / 800,
          other: (otherRatio(growth[2]!, growth[0]!) * 50) / 800,
        },
        {
          label: "graphc + MemorySaver µs/step at 800 ÷ at 50 steps (flat = 1)",
          value: (pairedRatio(saverGrowth[2]!, saverGrowth[0]!) * 50) / 800,
          other: (otherRatio(saverGrowth[2]!, saverGrowth[0]!) * 50) / 800,
        },
      ],
    });
  }

  // ---------------------------------------------------------------- W5
  if (wanted("w5")) {
    const ours = graph(modules, "w5", "W5");
    const theirs = lg.w5();
    await sameResults("W5", [
      { name: "graphc", result: () => ours.invoke({ count: 0 }) },
      { name: "LangGraph.js", result: () => theirs.invoke({ count: 0 }) },
      { name: "hand", result: () => chain(W5_NAMES, input()) },
    ]);
    const [g, h] = alone("w5").measured as [Measured, Measured];
    const l = await langgraph("LangGraph.js", () => theirs.invoke({ count: 0 }));
    const v = [g, l, h];
    results.push({
      workload: "W5 3-node graph",
      note: `10,000 invocations: graphc ${((g.median * 10_000) / 1e6).toFixed(2)} s, LangGraph.js ${((l.median * 10_000) / 1e6).toFixed(1)} s`,
      variants: v,
      ratios: [
        { label: "LangGraph.js / graphc", value: pairedRatio(l, g), other: otherRatio(l, g), target: 1000 },
        { label: "graphc / hand-written", value: pairedRatio(g, h), other: otherRatio(g, h) },
      ],
    });
  }

  // ---------------------------------------------------------------- W6: W1 + in-memory saver
  if (wanted("w6")) {
    const ours = graph(modules, "w1", "W1");
    // LangGraph binds its saver at compile time: a fresh compiled graph per saver
    const lgRun = (() => {
      let g = lg.w1(new LgMemorySaver());
      let i = 0;
      return () => {
        if (++i % 200 === 0) g = lg.w1(new LgMemorySaver());
        return g.invoke({ count: 0 }, { ...DEEP, configurable: { thread_id: `t${i}` } });
      };
    })();
    const ourRun = threaded(ours, () => new MemorySaver());
    await sameResults("W6", [
      { name: "graphc + MemorySaver", result: ourRun },
      { name: "LangGraph.js + MemorySaver", result: lgRun },
      { name: "hand + JSON snapshots", result: snapshotThreads() },
    ]);
    // graphc and the hand-written loop each in a process of its own (bench/alone.ts says why); graphc and the
    // hand-written loop are measured here too, interleaved after LangGraph.js as before 2026-12-03, for the
    // figure that method gives
    const [g] = alone("w6").measured as [Measured];
    const [hw] = alone("w6-hand").measured as [Measured];
    const l = await langgraph("LangGraph.js + MemorySaver", lgRun);
    const [before] = (await measure(
      [
        { name: "graphc + MemorySaver, interleaved with the hand-written loop after LangGraph.js", run: ourRun },
        { name: "hand-written, interleaved", run: snapshotThreads() },
      ],
      OPTS,
    )) as [Measured, Measured];
    results.push({
      workload: "W6 W1 + in-memory saver, thread per invoke",
      note: `checkpointing per step: graphc ${(g.median / 100).toFixed(2)} µs/step incl. the step, LangGraph.js ${(l.median / 100).toFixed(0)} µs`,
      variants: [g, l, hw, before],
      ratios: [
        { label: "LangGraph.js / graphc", value: pairedRatio(l, g), other: otherRatio(l, g), target: 100 },
        {
          label: "LangGraph.js / graphc interleaved (the method before 2026-12-03)",
          value: pairedRatio(l, before),
          other: otherRatio(l, before),
        },
        {
          label: "graphc / hand-written + JSON snapshots",
          value: pairedRatio(g, hw),
          other: otherRatio(g, hw),
        },
      ],
    });
  }

  // ---------------------------------------------------------------- W1 on SQLite savers
  if (wanted("sqlite")) {
    const dir = mkdtempSync(join(tmpdir(), "graphc-bench-"));
    try {
      const ours = graph(modules, "w1", "W1");
      let n = 0;
      const ourSaver = () => new SqliteSaver(join(dir, `graphc-${n++}.db`));
      const ourRun = threaded(ours, ourSaver, 100_000);
      const theirSaver = LgSqliteSaver.fromConnString(join(dir, "langgraph.db"));
      const theirs = lg.w1(theirSaver);
      let i = 0;
      const lgRun = () => theirs.invoke({ count: 0 }, { ...DEEP, configurable: { thread_id: `t${++i}` } });
      await sameResults("W1 on SQLite", [
        { name: "graphc + SqliteSaver", result: ourRun },
        { name: "LangGraph.js + SqliteSaver", result: lgRun },
      ]);
      const v = await measure(
        [
          { name: "graphc + SqliteSaver", run: ourRun },
          {
            name: "LangGraph.js + @langchain/langgraph-checkpoint-sqlite",
            run: lgRun,
            group: "LangGraph.js",
          },
        ],
        OPTS,
      );
      const [g, l] = v as [Measured, Measured];
      results.push({
        workload: "W1 + SQLite saver (file, WAL), thread per invoke",
        note: `per step incl. one checkpoint: graphc ${(g.median / 100).toFixed(1)} µs, LangGraph.js ${(l.median / 100).toFixed(0)} µs`,
        variants: v,
        ratios: [
          { label: "LangGraph.js / graphc", value: pairedRatio(l, g), other: otherRatio(l, g), target: 20 },
        ],
      });
      (theirSaver as unknown as { db?: { close(): void } }).db?.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  printRuns(results);

  // a partial run (BENCH_ONLY) prints its workloads only and keeps bench/results/latest.json as it is
  if (ONLY !== undefined) return;

  // ---------------------------------------------------------------- bundle size and cold start
  const { bundles, cold } = await runBundles(BUILD, Number(process.env["BENCH_COLD_RUNS"] ?? 7));
  printBundles(bundles, cold);

  // ---------------------------------------------------------------- storage (the savers' benchmark)
  let storage: unknown;
  if (existsSync(join(HERE, "storage.ts"))) {
    const m = (await import("./storage.ts")) as {
      runStorageBench?: () => Promise<unknown>;
      formatStorage?: (r: never) => string;
    };
    if (m.runStorageBench && m.formatStorage) {
      console.log("\n## Bytes stored for a messages thread (bench/storage.ts)\n");
      storage = await m.runStorageBench();
      console.log(m.formatStorage(storage as never));
    }
  }

  const out = {
    date: new Date().toISOString(),
    node: process.version,
    options: OPTS,
    clock: CLOCK,
    loadAverage: loadavg(),
    compileMs,
    workloads: results,
    bundles,
    cold,
    storage,
    totalSeconds: (performance.now() - started) / 1000,
  };
  mkdirSync(join(HERE, "results"), { recursive: true });
  writeFileSync(join(HERE, "results", "latest.json"), `${JSON.stringify(out, null, 2)}\n`);
  console.log(`\nwrote bench/results/latest.json (${out.totalSeconds.toFixed(0)} s in all)`);
}

const fmt = (x: number) =>
  x >= 100 ? x.toLocaleString("en-US", { maximumFractionDigits: 0 }) : x >= 10 ? x.toFixed(1) : x.toFixed(2);

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? "").length))) ?? [];
  return rows
    .map(
      (r, i) =>
        `| ${r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0))).join(" | ")} |${i === 0 ? `\n|${widths.map((w, c) => (c === 0 ? "-".repeat(w + 2) : `${"-".repeat(w + 1)}:`)).join("|")}|` : ""}`,
    )
    .join("\n");
}

function printRuns(results: WorkloadResult[]): void {
  const other = CLOCK === "cpu" ? "wall" : "CPU";
  console.log(
    `## Time per invoke (median µs over batches, ${CLOCK === "cpu" ? "process CPU time" : "wall time"}; ${other} time alongside)\n`,
  );
  const rows = [
    [
      "workload",
      "variant",
      `µs/invoke (${CLOCK === "cpu" ? "CPU" : "wall"})`,
      `µs/invoke (${other})`,
      "batch size",
    ],
  ];
  for (const r of results)
    for (const v of r.variants)
      rows.push([r.workload, v.name, fmt(v.median), fmt(v.otherMedian), String(v.perBatch)]);
  console.log(table(rows));
  console.log("\n## Ratios\n");
  const [mine, theirs] = CLOCK === "cpu" ? ["CPU", "wall"] : ["wall", "CPU"];
  const rrows = [["workload", "ratio", `by ${mine}`, `by ${theirs}`, "target", `met (${mine})`]];
  for (const r of results) {
    for (const x of r.ratios) {
      rrows.push([
        r.workload,
        x.label,
        `×${fmt(x.value)}`,
        `×${fmt(x.other)}`,
        x.target ? `≥ ×${fmt(x.target)}` : "",
        x.target ? (x.value >= x.target ? "yes" : "NO") : "",
      ]);
    }
  }
  console.log(table(rrows));
  console.log("");
  for (const r of results) console.log(`- ${r.workload}: ${r.note}`);
}

function printBundles(bundles: BundleRow[], cold: ColdRow[]): void {
  console.log("\n## Bundle size (esbuild --bundle --minify; gzip -9, brotli 11)\n");
  const rows = [
    ["app", "side", "platform", "minified B", "gzip B", "brotli B", "LangGraph.js / graphc (gzip)"],
  ];
  for (const b of bundles) {
    const ours = bundles.find((x) => x.app === b.app && x.platform === b.platform && x.side === "graphc");
    rows.push([
      b.app,
      b.side,
      b.platform,
      String(b.minified),
      String(b.gzip),
      String(b.brotli),
      b.side === "langgraph" && ours ? `×${fmt(b.gzip / ours.gzip)}` : "",
    ]);
  }
  console.log(table(rows));
  const outs = new Set(
    bundles
      .filter((b) => b.output !== undefined)
      .map((b) => `${b.app}:${canon(JSON.parse(b.output ?? "null"))}`),
  );
  const apps = new Set(bundles.map((b) => b.app));
  const ours = bundles.find((b) => b.app === "2 nodes" && b.side === "graphc" && b.platform === "browser");
  if (ours) {
    console.log(`\nlargest parts of the 2-node graphc bundle (browser, minified bytes before gzip):`);
    for (const [file, bytes] of ours.top.slice(0, 10)) console.log(`  ${String(bytes).padStart(7)}  ${file}`);
  }
  console.log(
    `\nevery Node bundle ran and printed the same final state as the others of its app: ${outs.size === apps.size ? "yes" : "NO"}`,
  );
  console.log(
    "\n## Cold start: a fresh `node` process runs the bundled W1 app once (start-up + import + first invoke)\n",
  );
  const hand = cold.find((c) => c.side === "hand");
  const crow = [
    ["side", "runs", "wall median ms", "wall min ms", "wall / hand", "CPU median ms", "CPU / hand"],
  ];
  for (const c of cold) {
    crow.push([
      c.side,
      String(c.runs),
      c.medianMs.toFixed(0),
      c.minMs.toFixed(0),
      hand ? `×${(c.medianMs / hand.medianMs).toFixed(2)}` : "",
      c.medianCpuMs.toFixed(0),
      hand ? `×${(c.medianCpuMs / hand.medianCpuMs).toFixed(2)}` : "",
    ]);
  }
  console.log(table(crow));
  const same = new Set(cold.map((c) => canon(JSON.parse(c.output)))).size === 1;
  console.log(`\nthe three W1 bundles printed the same final state: ${same ? "yes" : "NO"}`);
}

await main();
