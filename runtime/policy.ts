/** Cache, retry and timeout policies of a node (reference §7), with LangGraph's defaults. */
import { GraphAbortError, GraphInterrupt, GraphValueError, NodeTimeoutError, ParentCommand } from "./errors.ts";
import { allTrig } from "./results.ts";
import type { LoopTask as Task } from "./loop.ts";
import { processReturn } from "./writes.ts";

const NO_RETRY_STATUS = new Set([400, 401, 402, 403, 404, 405, 406, 407, 409]);

/** LangGraph's default `retryOn`: everything except cancellations, misuse and client-side HTTP errors. */
export function defaultRetryOn(e: unknown): boolean {
  if (e instanceof GraphValueError || e instanceof GraphAbortError) return false;
  if (typeof e !== "object" || e === null) return true;
  const err = e as {
    message?: unknown;
    name?: unknown;
    code?: unknown;
    status?: unknown;
    response?: { status?: unknown };
  };
  const msg = typeof err.message === "string" ? err.message : "";
  if (msg.startsWith("Cancel") || msg.startsWith("AbortError") || err.name === "AbortError") return false;
  if (err.code === "ECONNABORTED" || err.code === "insufficient_quota") return false;
  const status = typeof err.status === "number" ? err.status : err.response?.status;
  if (typeof status === "number" && NO_RETRY_STATUS.has(status)) return false;
  return true;
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new GraphAbortError({}, signal.reason));
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new GraphAbortError({}, signal?.reason));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Runs a task with its node's cache, retry and timeout policies. Never rejects: errors are recorded on the task.
 * @internal
 */
export async function runWithPolicy(t: Task): Promise<void> {
  const loop = t.loop;
  const spec = t.cn.spec;
  let cacheKey: string | undefined;
  if (spec.cache) {
    cacheKey = `${loop.c.spec.name}\u0000${t.cn.name}\u0000${spec.cache.key ? spec.cache.key(t.input) : JSON.stringify([t.input])}`;
    const hit = loop.run.cache.get(cacheKey);
    if (hit && hit.expires > Date.now()) {
      const rec = hit.record;
      t.ups = rec.updates;
      t.trig = rec.trig;
      t.joinW = rec.joinW;
      t.sends = rec.sends;
      t.cached = true;
      if (loop.durable) loop.putWrites(t, loop.run.d!.flatWrites(loop, t));
      loop.emitTaskDone(t, true);
      return;
    }
  }
  const policy = spec.retry;
  const max = policy ? (policy.maxAttempts ?? 3) : 1;
  for (let attempt = 1; ; attempt++) {
    t.resetWrites();
    t.interruptCount = 0;
    try {
      const ret = await callWithTimeout(t);
      const r = processReturn(t, ret);
      if (r) await r;
      if (cacheKey !== undefined) {
        const ttl = spec.cache!.ttl;
        loop.run.cache.set(cacheKey, {
          expires: ttl === undefined ? Infinity : Date.now() + ttl * 1000,
          record: { updates: t.updates, trig: allTrig(t), joinW: t.joinW, sends: t.sends },
        });
      }
      loop.complete(t);
      return;
    } catch (e) {
      if (e instanceof ParentCommand && e.owner === t) {
        t.resetWrites();
        await loop.settle(t, e.command);
        return;
      }
      const retryable =
        policy !== undefined &&
        attempt < max &&
        !(e instanceof GraphInterrupt) &&
        !(e instanceof ParentCommand) &&
        !(e instanceof GraphValueError) &&
        !(e instanceof GraphAbortError) &&
        (policy.retryOn ? policy.retryOn(e) : defaultRetryOn(e));
      if (!retryable) {
        if (spec.onError && !(e instanceof GraphInterrupt) && !(e instanceof ParentCommand)) {
          t.resetWrites();
          const target = loop.c.byName.get(spec.onError);
          if (target) t.trig = [target];
          loop.complete(t);
          return;
        }
        loop.fail(t, e);
        return;
      }
      const initial = policy.initialInterval ?? 500;
      const factor = policy.backoffFactor ?? 2;
      const maxInterval = policy.maxInterval ?? 128000;
      let wait = Math.min(maxInterval, initial * factor ** (attempt - 1));
      if (policy.jitter ?? true) wait += Math.random() * 1000;
      await sleep(wait, loop.run.signal);
      t.controller = undefined;
    }
  }
}

function callWithTimeout(t: Task): Promise<unknown> {
  const loop = t.loop;
  const spec = t.cn.spec;
  const to = spec.timeout;
  if (!to || (to.runTimeout === undefined && to.idleTimeout === undefined)) {
    return new Promise((resolve) => resolve(loop.call(t)));
  }
  const started = Date.now();
  const ctl = (t.controller = loop.taskController());
  return new Promise((resolve, reject) => {
    let runTimer: ReturnType<typeof setTimeout> | undefined;
    let idleTimer: ReturnType<typeof setTimeout> | undefined;
    let settled = false;
    const stop = () => {
      settled = true;
      if (runTimer !== undefined) clearTimeout(runTimer);
      if (idleTimer !== undefined) clearTimeout(idleTimer);
      t.onProgress = undefined;
    };
    const fire = (kind: "run" | "idle", ms: number) => {
      if (settled) return;
      stop();
      const err = new NodeTimeoutError(
        loop.c.spec.name,
        t.cn.name,
        kind,
        ms,
        Date.now() - started,
        to.runTimeout,
        to.idleTimeout,
      );
      ctl.abort(err);
      t.resetWrites();
      reject(err);
    };
    if (to.runTimeout !== undefined) runTimer = setTimeout(() => fire("run", to.runTimeout!), to.runTimeout);
    if (to.idleTimeout !== undefined) {
      const idle = to.idleTimeout;
      t.onProgress = () => {
        if (idleTimer !== undefined) clearTimeout(idleTimer);
        idleTimer = setTimeout(() => fire("idle", idle), idle);
      };
      t.onProgress();
    }
    new Promise((r) => r(loop.call(t))).then(
      (v) => {
        if (settled) return;
        stop();
        resolve(v);
      },
      (e: unknown) => {
        if (settled) return;
        stop();
        reject(e);
      },
    );
  });
}
