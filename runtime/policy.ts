/** Retry defaults (reference §7.1) and a cancellable sleep. */
import { GraphAbortError, GraphValueError } from "./errors.ts";

const NO_RETRY_STATUS = new Set([400, 401, 402, 403, 404, 405, 406, 407, 409]);

/** LangGraph's default `retryOn`: everything except cancellations, misuse and client-side HTTP errors. */
export function defaultRetryOn(e: unknown): boolean {
  if (e instanceof GraphValueError || e instanceof GraphAbortError) return false;
  if (typeof e !== "object" || e === null) return true;
  const err = e as { message?: unknown; name?: unknown; code?: unknown; status?: unknown; response?: { status?: unknown } };
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
