/**
 * The timing harness: variants of one workload run in interleaved batches in one process, each batch sized
 * in a warm-up to last about `batchMs`; the result per variant is the median µs per invocation, and each
 * ratio is the median of the batch-by-batch ratios to the base variant (as in peer-baseline.md, whose
 * machine moves by 30% between runs: paired ratios are steadier than quotients of medians).
 */

export interface Variant {
  readonly name: string;
  readonly run: () => unknown;
}

export interface Measured {
  readonly name: string;
  /** µs per invocation, one per batch */
  readonly samples: number[];
  readonly median: number;
  readonly perBatch: number;
}

export interface MeasureOptions {
  readonly batches: number;
  readonly batchMs: number;
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length === 0 ? NaN : s.length % 2 ? (s[m] ?? NaN) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
}

/** Lets queued macrotasks (timers, warnings, saver I/O) run between batches: invocations can finish in microtasks. */
const breathe = () => new Promise<void>((r) => setImmediate(r));

async function timeBatch(v: Variant, n: number): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await v.run();
  return ((performance.now() - t0) * 1000) / n;
}

export async function measure(variants: readonly Variant[], opts: MeasureOptions): Promise<Measured[]> {
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
    sizes.set(v, Math.max(1, Math.round(opts.batchMs / per)));
    await breathe();
  }
  const samples = new Map<Variant, number[]>(variants.map((v) => [v, []]));
  for (let b = 0; b < opts.batches; b++) {
    for (const v of variants) {
      samples.get(v)?.push(await timeBatch(v, sizes.get(v) ?? 1));
      await breathe();
    }
  }
  return variants.map((v) => {
    const s = samples.get(v) ?? [];
    return { name: v.name, samples: s, median: median(s), perBatch: sizes.get(v) ?? 1 };
  });
}

/** Median of the batch-by-batch ratios a / b. */
export function pairedRatio(a: Measured, b: Measured): number {
  return median(a.samples.map((x, i) => x / (b.samples[i] ?? NaN)));
}
