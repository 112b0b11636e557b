/**
 * `npm run bench`'s graphc and hand-written sides of W1–W6, each workload in a process of its own that never
 * loads LangGraph.js: bench/run.ts starts `tsx bench/alone.ts <w1–w6>` after it compiled the workloads into
 * bench/_tmp-build/, and reads the measurements (bench/measure.ts, the same options) from the one JSON line
 * printed. Each side runs as its users run it: a graphc program or a hand-written loop has no LangGraph.js in
 * its process. In the bench's own process, after LangGraph.js has run, `new AIMessage` (the hand-written W4's
 * step) costs ~2.5× (@langchain/core's `Serializable` field initialiser, which every LangGraph.js runnable
 * shares, turns megamorphic) and graphc's invoke +5–35%: docs/benchmarks.md, "W4 measured fairly".
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { MemorySaver } from "../runtime/index.ts";
import { benchOptions, measure, type Variant } from "./measure.ts";
import { snapshotThreads, threaded, type Invokable } from "./threads.ts";
import { chain, chainAwait, fanOut, nested, W1_NAMES, W5_NAMES } from "./workloads/hand.ts";

const DEEP = { recursionLimit: 10_000 };
const input = () => ({ count: 0, log: [] as string[] });

/** graphc first, then the hand-written variants in bench/run.ts's order */
function variants(w: string, g: Invokable): Variant[] {
  switch (w) {
    case "w1":
      return [
        { name: "graphc", run: () => g.invoke({ count: 0 }, DEEP) },
        { name: "hand-written, await per node", run: () => chainAwait(W1_NAMES, input()) },
        { name: "hand-written", run: () => chain(W1_NAMES, input()) },
      ];
    case "w2":
      return [
        { name: "graphc", run: () => g.invoke({}) },
        { name: "hand-written", run: () => fanOut() },
      ];
    case "w3":
      return [
        { name: "graphc", run: () => g.invoke({ count: 0 }) },
        { name: "hand-written", run: () => nested(input()) },
      ];
    case "w4": {
      const { messagesLoop, messagesLoopPlain, W4_STEPS } = w4!;
      return [
        { name: "graphc (plain message objects, `messages` reducer)", run: () => g.invoke({ limit: W4_STEPS }, DEEP) },
        { name: "hand-written, plain objects", run: () => messagesLoopPlain(W4_STEPS) },
        { name: "hand-written, append AIMessage", run: () => messagesLoop(W4_STEPS) },
      ];
    }
    case "w5":
      return [
        { name: "graphc", run: () => g.invoke({ count: 0 }) },
        { name: "hand-written", run: () => chain(W5_NAMES, input()) },
      ];
    // W6's sides each in a process of its own: both keep megabytes of threads, and interleaved in one heap
    // graphc paid for collecting the hand-written loop's (+15–30% per invoke: docs/benchmarks.md, "Processes")
    case "w6":
      return [{ name: "graphc + MemorySaver", run: threaded(g, () => new MemorySaver()) }];
    case "w6-hand":
      return [{ name: "hand-written + JSON snapshot per step", run: snapshotThreads(), group: "hand-written" }];
  }
  throw new Error(`bench/alone.ts: no workload ${w}`);
}

const w = process.argv[2] ?? "";
// @langchain/core (the hand-written W4's AIMessage) is loaded in W4's process only: under tsx, having imported
// it slowed the other workloads' invokes (graphc's W5 0.35 → 0.55 µs, the hand-written W1 10.9 → 15.0 µs; why
// is not known), the LangGraph.js-in-the-process effect this child exists to avoid (docs/benchmarks.md, "Processes")
const w4 = w === "w4" ? await import("./workloads/hand-messages.ts") : undefined;
// W6 is W1 with a saver
const file = w.startsWith("w6") ? "w1" : w;
const mod = (await import(pathToFileURL(join(import.meta.dirname, "_tmp-build", `${file}.graph.ts`)).href)) as Record<string, Invokable>;
const g = mod[file.toUpperCase()]!;
const opts = benchOptions();
const measured = await measure(variants(w, g), opts);
// W4's cost per step as the history grows (graphc only): 7 interleaved batches and a paired ratio; with three
// batches the quotient of medians said ×1.70 at load 14 where an interleaved A/B of the same tree measured
// ×0.89 (docs/benchmarks.md, "Owned lists")
const growth =
  w === "w4"
    ? await measure(
        w4!.W4_GROWTH.map((n) => ({ name: `graphc ${n} steps`, run: () => g.invoke({ limit: n }, DEEP) })),
        { ...opts, batches: 7 },
      )
    : [];
// the same with a MemorySaver (a thread per invoke): a checkpoint of a long history costs what its new
// message does (docs/checkpoints.md, "Storage layout"), so this is flat too
const saverGrowth =
  w === "w4"
    ? await measure(
        w4!.W4_GROWTH.map((n) => ({ name: `graphc + MemorySaver ${n} steps`, run: threaded(g, () => new MemorySaver(), 20, { limit: n }) })),
        { ...opts, batches: 7 },
      )
    : [];
console.log(JSON.stringify({ measured, growth, saverGrowth }));
