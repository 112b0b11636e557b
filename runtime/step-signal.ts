/**
 * The abort plumbing of a superstep, shared by the full loop (loop.ts) and the small loops (small-loop.ts).
 */
import { GraphAbortError, type ErrorSite } from "./errors.ts";

/** What a loop keeps of its step's signal (loop.ts, small-loop.ts). */
export interface StepSignals {
  stepController: AbortController | undefined;
  unlinkStep: (() => void) | undefined;
  failErr: unknown;
}

/**
 * The step's signal, made when a node first asks for it: one controller per step, linked to the run's signal
 * `sig` for the step's duration only (a long-lived signal passed to many runs must not collect a listener
 * per task, langchainjs#9201). `failed`: a sibling already failed with the loop's `failErr` (a task that asks
 * for its signal then sees it aborted).
 */
export function stepSignal(loop: StepSignals, sig: AbortSignal | undefined, failed: boolean): AbortSignal {
  if (loop.stepController) return loop.stepController.signal;
  const controller = (loop.stepController = new AbortController());
  if (failed) controller.abort(loop.failErr);
  if (sig?.aborted) controller.abort(sig.reason);
  else if (sig !== undefined) {
    const on = () => controller.abort(sig.reason);
    sig.addEventListener("abort", on, { once: true });
    loop.unlinkStep = () => sig.removeEventListener("abort", on);
  }
  return controller.signal;
}

/** The step is over: its controller is dropped and unlinked from the run's signal. */
export function endStep(loop: StepSignals): void {
  loop.stepController = undefined;
  if (loop.unlinkStep) {
    loop.unlinkStep();
    loop.unlinkStep = undefined;
  }
}

/**
 * A step's task promises as one (both loops' runTasks), raced against the run's signal `sig`: when it aborts
 * first, the step's controller aborts its tasks too and the step fails with `GraphAbortError` at once, without
 * waiting for tasks that ignore the signal. The listener is removed when the tasks settle.
 */
export function stepPromise(
  loop: { readonly stepController: AbortController | undefined; site(): ErrorSite },
  promises: Promise<unknown>[],
  sig: AbortSignal | undefined,
): Promise<unknown> {
  const all = promises.length === 1 ? promises[0]! : Promise.all(promises);
  if (sig === undefined) return all;
  return new Promise((resolve, reject) => {
    const on = () => {
      loop.stepController?.abort(sig.reason);
      reject(new GraphAbortError(loop.site(), sig.reason));
    };
    if (sig.aborted) return on();
    sig.addEventListener("abort", on, { once: true });
    all.then(
      (v) => {
        sig.removeEventListener("abort", on);
        resolve(v);
      },
      (e: unknown) => {
        sig.removeEventListener("abort", on);
        reject(e);
      },
    );
  });
}

/**
 * A step's tasks with at most `limit` running at once (`maxConcurrency`), in the order they start (PUSH tasks,
 * from `first`, before PULL tasks), each by `run`; the run's signal is checked before each task starts.
 */
export async function runLimited<T>(
  tasks: readonly T[],
  first: number,
  limit: number,
  signal: AbortSignal | undefined,
  at: { site(): ErrorSite },
  run: (t: T) => unknown,
): Promise<void> {
  const n = tasks.length;
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const t = tasks[(next++ + first) % n]!;
      if (signal?.aborted) throw new GraphAbortError(at.site(), signal.reason);
      await run(t);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, limit) }, worker));
}
