/** Node functions of h-limits.graph (reference §8 group H). */
import type { NodeContext } from "@graphc/runtime";

export const calls: Record<string, number> = {};
const count = (ctx: NodeContext) => (calls[`${ctx.graph}.${ctx.node}`] = (calls[`${ctx.graph}.${ctx.node}`] ?? 0) + 1);

/** what `add` of Retry/Backoff throws: an HTTP-like error with `status` (set by the test), or nothing */
export const failures: { status: number | undefined; times: number } = { status: 500, times: 0 };

export const flaky = (_s: object, ctx: NodeContext) => {
  const n = count(ctx);
  if (n <= failures.times) throw Object.assign(new Error("Total is too large"), { status: failures.status });
  return { total: 1 };
};

/** resolves after 1 s unless aborted: the timeout aborts it */
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(t);
      reject(signal.reason);
    });
  });
export const slow = async (_s: object, ctx: NodeContext) => {
  count(ctx);
  await sleep(1000, ctx.signal);
  return { foo: "slow" };
};
/** too slow on the first attempt only */
export const slowOnce = async (_s: object, ctx: NodeContext) => {
  if (count(ctx) === 1) await sleep(1000, ctx.signal);
  return { foo: "done" };
};

export const failing = (_s: object, ctx: NodeContext) => {
  count(ctx);
  throw new Error("always fails");
};
export const handled = () => ({ foo: "handled" });
export const bump = (s: { foo: string }) => ({ foo: `${s.foo}_after` });
