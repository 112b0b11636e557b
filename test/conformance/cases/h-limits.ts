/** Reference §8 group H (recursion limit, retries, backoff, timeouts, error handler), against one saver. */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { GraphRecursionError, NodeTimeoutError, type CheckpointSaver } from "@graphc/runtime";
import { graph } from "../context.ts";
import { calls, failures } from "../graphs/h-limits.nodes.ts";

const thread = (id: string) => ({ configurable: { thread_id: id } });

export function limits(saver: () => CheckpointSaver): void {
  const g = (name: string) => graph("h-limits", name).withConfig({ checkpointer: saver() });

  describe("H. limits, retries, timeouts", () => {
    beforeEach(() => {
      for (const k of Object.keys(calls)) delete calls[k];
      failures.status = 500;
      failures.times = 0;
    });
    afterEach(() => {
      vi.restoreAllMocks();
    });

    it("C-58: the recursion limit counts supersteps per run, with a checkpointer too", async () => {
      const chain = graph("m-micro", "Chain3").withConfig({ checkpointer: saver() });
      await expect(chain.invoke({}, { ...thread("c58-a"), recursionLimit: 3 })).rejects.toBeInstanceOf(GraphRecursionError);
      expect(await chain.invoke({}, { ...thread("c58-b"), recursionLimit: 4 })).toEqual({ n: 3 });
    });

    it("C-59: an HTTP 500 is retried, a 400 is not; the failure is saved as an __error__ pending write", async () => {
      failures.times = 1;
      expect(await g("Retry").invoke({}, thread("c59-500"))).toEqual({ total: 1 });
      expect(calls["Retry.add"]).toBe(2);

      failures.status = 400;
      failures.times = 5;
      await expect(g("Retry").invoke({}, thread("c59-400"))).rejects.toThrow("Total is too large");
      expect(calls["Retry.add"]).toBe(3);
      const tuple = await saver().getTuple(thread("c59-400"));
      expect(tuple?.pendingWrites).toEqual([[expect.any(String), "__error__", { message: "Total is too large", name: "Error" }]]);
    });

    it("C-60: backoff waits initial × factor^(attempt-1), plus jitter when enabled", async () => {
      // the delays the runtime asks for (its other timers, e.g. pool idle timeouts, are longer)
      const waits = () => {
        const spy = vi.spyOn(globalThis, "setTimeout");
        return () => spy.mock.calls.map((c) => c[1]).filter((ms) => typeof ms === "number" && ms >= 10 && ms < 1000);
      };
      failures.times = 2;
      let seen = waits();
      expect(await g("Backoff").invoke({}, thread("c60-backoff"))).toEqual({ total: 1 });
      expect(seen()).toEqual([10, 20]);
      vi.restoreAllMocks();

      for (const k of Object.keys(calls)) delete calls[k];
      failures.times = 1;
      vi.spyOn(Math, "random").mockReturnValue(0.05);
      seen = waits();
      expect(await g("BackoffJitter").invoke({}, thread("c60-jitter"))).toEqual({ total: 1 });
      expect(seen()).toEqual([60]);
    });

    it("C-60: a run timeout is a NodeTimeoutError naming the node; a retry can succeed", async () => {
      const run = g("Timeout").invoke({}, thread("c60-timeout"));
      await expect(run).rejects.toBeInstanceOf(NodeTimeoutError);
      await expect(run).rejects.toMatchObject({ node: "slow", kind: "run", timeout: 30 });
      await expect(run).rejects.toThrow(/^Node "slow" exceeded its run timeout of 30ms \(elapsed: \d+ms\)\./);
      expect(await g("TimeoutRetry").invoke({}, thread("c60-retry"))).toEqual({ foo: "done" });
      expect(calls["TimeoutRetry.slow"]).toBe(2);
    });

    it("C-60 (graphc form): after its retries a failing node routes to its on_error node", async () => {
      expect(await g("ErrorHandler").invoke({}, thread("c60-handler"))).toEqual({ foo: "handled_after" });
      expect(calls["ErrorHandler.work"]).toBe(2);
    });
  });
}
