/**
 * One run per thread at a time (docs/durability.md, "One run per thread"). A run or updateState with a
 * checkpointer first takes the thread: in this process (a lock per saver object and thread id, so every
 * graph sharing a saver shares it), then, when the saver has `lockThread`, in its storage (other processes).
 * A busy thread is a `ThreadBusyError` with multitask "reject" (the default) or a wait with "enqueue".
 */
import type { CheckpointSaver, ThreadLock } from "./checkpoint/types.ts";
import { GraphAbortError, GraphValueError, ThreadBusyError } from "./errors.ts";

export type Multitask = "reject" | "enqueue";

const MULTITASK: ReadonlySet<unknown> = new Set<Multitask>(["reject", "enqueue"]);

/** The strategy of a run (per-call option, else withConfig's, else the compile option: graph.ts), checked; default "reject". */
export function multitaskOf(graph: string, given: unknown): Multitask {
  const m = given ?? "reject";
  if (!MULTITASK.has(m)) {
    throw new GraphValueError(
      `Graph "${graph}": multitask must be "reject" or "enqueue", got ${JSON.stringify(m) ?? String(m)}.`,
      { graph, field: "multitask" },
      "INVALID_CONFIG",
    );
  }
  return m as Multitask;
}

/** Runs waiting for a thread of this process, oldest first; the entry exists while the thread is held. */
type Waiters = (() => void)[];

const held = new WeakMap<CheckpointSaver, Map<string, Waiters>>();

function threadsOf(saver: CheckpointSaver): Map<string, Waiters> {
  let threads = held.get(saver);
  if (threads === undefined) held.set(saver, (threads = new Map()));
  return threads;
}

/** Takes the thread in this process: false when busy and not waiting. */
async function takeLocal(
  threads: Map<string, Waiters>,
  threadId: string,
  wait: boolean,
  signal: AbortSignal | undefined,
  graph: string,
): Promise<boolean> {
  const waiters = threads.get(threadId);
  if (waiters === undefined) {
    threads.set(threadId, []);
    return true;
  }
  if (!wait) return false;
  await new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      const at = waiters.indexOf(handOver);
      if (at >= 0) waiters.splice(at, 1);
      reject(new GraphAbortError({ graph }, signal?.reason));
    };
    // the releasing run hands the thread over without ever marking it free, so no third run slips in
    const handOver = () => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    waiters.push(handOver);
  });
  return true;
}

function releaseLocal(threads: Map<string, Waiters>, threadId: string): void {
  const next = threads.get(threadId)?.shift();
  if (next !== undefined) next();
  else threads.delete(threadId);
}

/**
 * Takes `threadId` for one run or updateState and returns the function that gives it back (call it exactly
 * once, after the run's last save).
 */
export async function lockThread(
  saver: CheckpointSaver,
  threadId: string,
  multitask: Multitask,
  graph: string,
  signal: AbortSignal | undefined,
): Promise<() => Promise<void>> {
  const wait = multitask === "enqueue";
  const threads = threadsOf(saver);
  if (!(await takeLocal(threads, threadId, wait, signal, graph))) throw new ThreadBusyError(graph, threadId);
  let shared: ThreadLock | undefined;
  try {
    if (saver.lockThread !== undefined) {
      shared = await saver.lockThread(threadId, { wait, signal });
      if (shared === undefined) throw new ThreadBusyError(graph, threadId);
    }
  } catch (e) {
    releaseLocal(threads, threadId);
    throw e;
  }
  return async () => {
    try {
      await shared?.release();
    } finally {
      releaseLocal(threads, threadId);
    }
  };
}

/** Runs `body` holding the thread; the thread is given back however `body` ends. */
export async function withThread<T>(
  saver: CheckpointSaver,
  threadId: string,
  multitask: Multitask,
  graph: string,
  signal: AbortSignal | undefined,
  body: () => Promise<T>,
): Promise<T> {
  const release = await lockThread(saver, threadId, multitask, graph, signal);
  let result: T;
  try {
    result = await body();
  } catch (e) {
    await release().catch(() => {});
    throw e;
  }
  await release();
  return result;
}
