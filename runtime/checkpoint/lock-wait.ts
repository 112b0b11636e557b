/**
 * Waiting for a thread lock held by another process (multitask "enqueue"): neither SQLite nor a session
 * advisory lock tried with pg_try_advisory_lock can notify a waiter, so the waiter tries again with a
 * growing pause (5 ms doubling up to 100 ms) until it gets the lock or its signal aborts.
 */
import { GraphAbortError } from "../errors.ts";

const FIRST_PAUSE_MS = 5;
const MAX_PAUSE_MS = 100;

export async function tryUntil<T>(
  attempt: () => Promise<T | undefined> | T | undefined,
  wait: boolean,
  signal: AbortSignal | undefined,
): Promise<T | undefined> {
  let pause = FIRST_PAUSE_MS;
  for (;;) {
    if (signal?.aborted) throw new GraphAbortError({}, signal.reason);
    const got = await attempt();
    if (got !== undefined || !wait) return got;
    await sleep(pause, signal);
    pause = Math.min(pause * 2, MAX_PAUSE_MS);
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}
