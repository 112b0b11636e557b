/**
 * The saver workloads' drivers, shared by bench/run.ts (W1 + SQLite, W6's in-process row) and bench/alone.ts
 * (W6's graphc and hand-written sides): a new thread per invoke, the store replaced every `per` invokes so
 * that memory stays flat.
 */
import { chainSnapshots, W1_NAMES } from "./workloads/hand.ts";

export interface Invokable {
  invoke(input: unknown, config?: unknown): Promise<unknown>;
}

const DEEP = { recursionLimit: 10_000 };

/** W1 (or `g` with `input`) with a saver in each invoke's config; a new saver every `per` invokes */
export function threaded(g: Invokable, makeSaver: () => unknown, per = 200, input: unknown = { count: 0 }): () => Promise<unknown> {
  let saver = makeSaver();
  let i = 0;
  return () => {
    if (++i % per === 0) saver = makeSaver();
    return g.invoke(input, { ...DEEP, configurable: { thread_id: `t${i}` }, checkpointer: saver });
  };
}

/** W6's hand-written side: W1's chain keeping a JSON snapshot of the state per step, a thread per run */
export function snapshotThreads(per = 200): () => unknown {
  const snapshots = new Map<string, string[]>();
  let h = 0;
  return () => {
    if (++h % per === 0) snapshots.clear();
    return chainSnapshots(W1_NAMES, { count: 0, log: [] }, snapshots, `t${h}`);
  };
}
