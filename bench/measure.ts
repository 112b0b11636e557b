/**
 * The timing harness. Variants of one workload run in one process, each batch sized in a warm-up to last
 * about `batchMs`; the result per variant is the median µs per invocation.
 *
 * Variants of the same `group` run in interleaved batches and their ratio is the median of the
 * batch-by-batch ratios (as in peer-baseline.md, whose machine moves by 30% between runs: paired ratios are
 * steadier than quotients of medians). Groups run one after the other with a full GC in between, because a
 * LangGraph.js batch leaves megabytes of garbage that the next variant's batch would otherwise pay to
 * collect (seen: graphc's W4 took 8 ms per invoke right after LangGraph.js batches, 0.9 ms on its own);
 * across groups the ratio is the quotient of the medians.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

setFlagsFromString("--expose-gc");
const fullGc = runInNewContext("gc") as (() => void) | undefined;

export interface Variant {
  readonly name: string;
  readonly run: () => unknown;
  /** variants of one group are interleaved; default "main" */
  readonly group?: string;
}

export interface Measured {
  readonly name: string;
  readonly group: string;
  /** µs per invocation, one per batch, by the chosen clock (CLOCK) */
  readonly samples: number[];
  readonly median: number;
  /** the other clock's samples and median, for the record */
  readonly otherSamples: number[];
  readonly otherMedian: number;
  readonly perBatch: number;
}

export interface MeasureOptions {
  readonly batches: number;
  readonly batchMs: number;
  /** interleaved batches run before the measured ones and thrown away (default 0) */
  readonly warmBatches?: number;
  /** the fewest invocations in a batch, however long one takes (default 1) */
  readonly minPerBatch?: number;
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length === 0 ? NaN : s.length % 2 ? (s[m] ?? NaN) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
}

/** Lets queued macrotasks (timers, warnings, saver I/O) run between batches: invocations can finish in microtasks. */
const breathe = () => new Promise<void>((r) => setImmediate(r));

/**
 * µs per invocation over one batch: process CPU time (user + system, all threads) and wall time. CPU time
 * is the default measure: on a shared machine (load 15 on 2 cores while this was written) wall time mostly
 * measures how long the process waited for a core, and it moved 3–6× between identical runs.
 */
async function timeBatch(v: Variant, n: number): Promise<{ cpu: number; wall: number }> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await v.run();
  const wall = ((performance.now() - t0) * 1000) / n;
  const c = process.cpuUsage(c0);
  return { cpu: (c.user + c.system) / n, wall };
}

/**
 * The batches per variant and their length: `BENCH_BATCHES` (5) and `BENCH_BATCH_MS` (200), after
 * `BENCH_WARM_BATCHES` (2) interleaved batches that are not counted. Without them the first measured batch of
 * a side that allocates more read ~3× its settled time (graphc's W2: 34–38 µs, then 9.4–12 µs, while the
 * hand-written side read 5.8–6.5 µs from its first batch: the young generation and the heap limits still
 * growing after the ~100 ms warm-up), and that batch decided the median ratio of five (docs/benchmarks.md,
 * "Warm-up batches").
 */
export function benchOptions(): MeasureOptions {
  return {
    batches: Number(process.env["BENCH_BATCHES"] ?? 5),
    batchMs: Number(process.env["BENCH_BATCH_MS"] ?? 200),
    warmBatches: Number(process.env["BENCH_WARM_BATCHES"] ?? 2),
    // LangGraph.js's W1, W4, W6 and SQLite invokes take 120–180 ms each: with one per batch its figure was the
    // median of five single invokes, GC pauses included, and W6's ratio read ×58–103 in runs of one tree
    minPerBatch: Number(process.env["BENCH_MIN_PER_BATCH"] ?? 3),
  };
}

export const CLOCK: "cpu" | "wall" = process.env["BENCH_CLOCK"] === "wall" ? "wall" : "cpu";

export async function measure(variants: readonly Variant[], opts: MeasureOptions): Promise<Measured[]> {
  const groups = [...new Set(variants.map((v) => v.group ?? "main"))];
  const out = new Map<Variant, Measured>();
  for (const g of groups) {
    fullGc?.();
    const members = variants.filter((v) => (v.group ?? "main") === g);
    for (const [v, m] of await measureGroup(members, g, opts)) out.set(v, m);
  }
  fullGc?.();
  return variants.map((v) => out.get(v) as Measured);
}

async function measureGroup(
  variants: readonly Variant[],
  group: string,
  opts: MeasureOptions,
): Promise<Map<Variant, Measured>> {
  const sizes = new Map<Variant, number>();
  for (const v of variants) {
    // warm-up: at least 3 invocations and ~batchMs/2, then size the batch from the speed seen
    let n = 0;
    const t0 = performance.now();
    while (n < 3 || performance.now() - t0 < opts.batchMs / 2) {
      await v.run();
      n++;
    }
    const per = (performance.now() - t0) / n;
    sizes.set(v, Math.max(opts.minPerBatch ?? 1, Math.round(opts.batchMs / per)));
    await breathe();
  }
  // every variant's warm batches before any measured one, interleaved as the measured ones are, so that no side
  // is measured while it still warms up
  for (let b = 0; b < (opts.warmBatches ?? 0); b++) {
    for (const v of variants) {
      await timeBatch(v, sizes.get(v) ?? 1);
      await breathe();
    }
  }
  const samples = new Map<Variant, { cpu: number; wall: number }[]>(variants.map((v) => [v, []]));
  for (let b = 0; b < opts.batches; b++) {
    for (const v of variants) {
      samples.get(v)?.push(await timeBatch(v, sizes.get(v) ?? 1));
      await breathe();
    }
  }
  const other = CLOCK === "cpu" ? "wall" : "cpu";
  return new Map(
    variants.map((v) => {
      const s = samples.get(v) ?? [];
      const main = s.map((x) => x[CLOCK]);
      const rest = s.map((x) => x[other]);
      return [
        v,
        {
          name: v.name,
          group,
          samples: main,
          median: median(main),
          otherSamples: rest,
          otherMedian: median(rest),
          perBatch: sizes.get(v) ?? 1,
        },
      ];
    }),
  );
}

/** a / b: the median of the batch-by-batch ratios within a group, the quotient of the medians across groups. */
export function pairedRatio(a: Measured, b: Measured): number {
  if (a.group !== b.group) return a.median / b.median;
  return median(a.samples.map((x, i) => x / (b.samples[i] ?? NaN)));
}

/** The same ratio by the other clock (wall time when CLOCK is "cpu"). */
export function otherRatio(a: Measured, b: Measured): number {
  if (a.group !== b.group) return a.otherMedian / b.otherMedian;
  return median(a.otherSamples.map((x, i) => x / (b.otherSamples[i] ?? NaN)));
}
