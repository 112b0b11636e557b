/**
 * The abort plumbing of a superstep, shared by the full loop (loop.ts) and the lean loop (lean/loop.ts).
 */

/**
 * A step's controller, linked to the run's signal for the step's duration only: a long-lived signal passed
 * to many runs must not collect a listener per task (langchainjs#9201). `failed`: a sibling already failed
 * with `reason` (a task that asks for its signal then sees it aborted). `unlink` removes the listener.
 */
export function stepController(
  sig: AbortSignal | undefined,
  failed: boolean,
  reason: unknown,
): { controller: AbortController; unlink: (() => void) | undefined } {
  const controller = new AbortController();
  if (failed) controller.abort(reason);
  if (sig === undefined) return { controller, unlink: undefined };
  if (sig.aborted) {
    controller.abort(sig.reason);
    return { controller, unlink: undefined };
  }
  const on = () => controller.abort(sig.reason);
  sig.addEventListener("abort", on, { once: true });
  return { controller, unlink: () => sig.removeEventListener("abort", on) };
}

/** `all`, or as soon as `sig` aborts a rejection with what `onAbort` returns (the listener goes when `all` settles). */
export function untilAbort<T>(all: Promise<T>, sig: AbortSignal, onAbort: () => unknown): Promise<T> {
  return new Promise((resolve, reject) => {
    const on = () => reject(onAbort());
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
