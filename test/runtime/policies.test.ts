/** Reference §8 group H and §7: retries, backoff, timeouts, cache, error route, concurrency, cancellation. */
import { getEventListeners } from "node:events";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  GraphRecursionError,
  MemorySaver,
  NodeError,
  NodeTimeoutError,
  compileGraph,
  defaultRetryOn,
  type NodeContext,
  type Values,
} from "@graphc/runtime";
import { concat, graph, nodeFactory, sleep } from "./helpers.ts";
import { installPolicies } from "@graphc/runtime/install";

// hand-written specs with node policies install them, as the generated module of such a graph does
installPolicies();

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}
const n = nodeFactory("G", ["total", "log", "foo"]);

afterEach(() => vi.restoreAllMocks());

describe("retry policy (C-59, C-60)", () => {
  const build = (status: number, calls: { n: number }) =>
    compileGraph(
      graph({
        fields: { total: null, log: concat as never, foo: null },
        nodes: [
          n(
            "tool",
            () => {
              calls.n++;
              throw Object.assign(new Error("Total is too large"), { status });
            },
            { retry: { maxAttempts: 3, initialInterval: 1, jitter: false } },
          ),
        ],
        start: { edges: ["tool"] },
      }),
      { checkpointer: new MemorySaver() },
    );
  it("retries a 500 up to maxAttempts, not a 400; the error is a pending write", async () => {
    const c500 = { n: 0 };
    const e = await build(500, c500)
      .invoke({ total: 1 }, { configurable: { thread_id: "r" } })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(NodeError);
    expect(c500.n).toBe(3);
    const c400 = { n: 0 };
    const g = build(400, c400);
    await expect(g.invoke({ total: 1 }, { configurable: { thread_id: "r" } })).rejects.toThrow("Total is too large");
    expect(c400.n).toBe(1);
    const st = await g.getState({ configurable: { thread_id: "r" } });
    expect(st.tasks[0]!.error).toEqual({ message: "Total is too large", name: "Error" });
  });

  it("backoff waits initialInterval * factor^(n-1), plus up to 1 s of jitter", async () => {
    const waits: number[] = [];
    const real = globalThis.setTimeout;
    vi.spyOn(globalThis, "setTimeout").mockImplementation(((fn: () => void, ms?: number) => {
      waits.push(ms ?? 0);
      return real(fn, 0);
    }) as typeof setTimeout);
    const mk = (jitter: boolean, attempts: number) =>
      compileGraph(
        graph({
          fields: { total: null, log: concat as never, foo: null },
          nodes: [
            n(
              "x",
              () => {
                throw new Error("flaky");
              },
              { retry: { maxAttempts: attempts, initialInterval: 10, backoffFactor: 2, jitter } },
            ),
          ],
          start: { edges: ["x"] },
        }),
      );
    await mk(false, 3)
      .invoke({})
      .catch(() => {});
    expect(waits).toEqual([10, 20]);
    waits.length = 0;
    vi.spyOn(Math, "random").mockReturnValue(0.05);
    await mk(true, 2)
      .invoke({})
      .catch(() => {});
    expect(waits).toEqual([60]);
  });

  it("default retryOn skips cancellations, misuse and client errors", () => {
    expect(defaultRetryOn(new Error("boom"))).toBe(true);
    expect(defaultRetryOn(Object.assign(new Error("x"), { status: 404 }))).toBe(false);
    expect(defaultRetryOn(Object.assign(new Error("x"), { name: "AbortError" }))).toBe(false);
    expect(defaultRetryOn(new Error("Cancelled by user"))).toBe(false);
    expect(defaultRetryOn(Object.assign(new Error("x"), { code: "ECONNABORTED" }))).toBe(false);
  });

  it("a custom retryOn decides", async () => {
    let calls = 0;
    const g = compileGraph(
      graph({
        fields: { total: null, log: concat as never, foo: null },
        nodes: [
          n(
            "x",
            () => {
              calls++;
              throw new Error("nope");
            },
            { retry: { maxAttempts: 5, initialInterval: 0, jitter: false, retryOn: () => calls < 2 } },
          ),
        ],
        start: { edges: ["x"] },
      }),
    );
    await expect(g.invoke({})).rejects.toThrow("nope");
    expect(calls).toBe(2);
  });
});

describe("timeouts (§7.2)", () => {
  it("a run timeout fails the node with NodeTimeoutError", async () => {
    const g = compileGraph(
      graph({
        fields: { total: null, log: concat as never, foo: null },
        nodes: [
          n(
            "slow",
            async (_: unknown, ctx) => {
              await sleep(200);
              return ctx.signal.aborted ? null : { foo: "late" };
            },
            { timeout: { runTimeout: 20 } },
          ),
        ],
        start: { edges: ["slow"] },
      }),
    );
    const e = (await g.invoke({}).catch((x: unknown) => x)) as NodeTimeoutError;
    expect(e).toBeInstanceOf(NodeTimeoutError);
    expect([e.node, e.kind, e.timeout]).toEqual(["slow", "run", 20]);
    expect(e.message).toMatch(/^Node "slow" exceeded its run timeout of 20ms \(elapsed: \d+ms\)\.$/);
  });

  it("timeout plus retry succeeds on attempt 2; the node's signal is aborted on timeout", async () => {
    let attempt = 0;
    let abortedFirst = false;
    const g = compileGraph(
      graph({
        fields: { total: null, log: concat as never, foo: null },
        nodes: [
          n(
            "slow",
            async (_: unknown, ctx) => {
              attempt++;
              if (attempt === 1) {
                await new Promise<void>((r) => ctx.signal.addEventListener("abort", () => r()));
                abortedFirst = true;
                return { foo: "first" };
              }
              return { foo: `attempt ${attempt}` };
            },
            { timeout: { runTimeout: 20 }, retry: { maxAttempts: 2, initialInterval: 0, jitter: false } },
          ),
        ],
        start: { edges: ["slow"] },
      }),
    );
    expect(await g.invoke({})).toEqual({ foo: "attempt 2" });
    expect(abortedFirst).toBe(true);
  });

  it("an idle timeout is refreshed by heartbeats and writer calls", async () => {
    const mk = (beat: boolean) =>
      compileGraph(
        graph({
          fields: { total: null, log: concat as never, foo: null },
          nodes: [
            n(
              "worker",
              async (_: unknown, ctx) => {
                // 20 × 10 ms in all, well past the idle timeout, but never 150 ms without progress
                for (let i = 0; i < 20; i++) {
                  await sleep(10);
                  if (beat) i % 2 ? ctx.heartbeat() : ctx.writer(i);
                }
                return { foo: "done" };
              },
              { timeout: { idleTimeout: 150 } },
            ),
          ],
          start: { edges: ["worker"] },
        }),
      );
    expect(await mk(true).invoke({})).toEqual({ foo: "done" });
    await expect(mk(false).invoke({})).rejects.toMatchObject({
      name: "NodeTimeoutError",
      kind: "idle",
      node: "worker",
    });
  });
});

describe("cache policy (C-24)", () => {
  it("a hit replays the writes without running the node and is marked cached; clearCache empties it", async () => {
    let calls = 0;
    const spec = graph({
      fields: { total: null, log: concat as never, foo: null },
      nodes: [
        n("rewrite", (s: { foo: string }) => (calls++, { log: [`r:${s.foo}`] }), {
          reads: ["foo"],
          cache: { ttl: 60 },
        }),
      ],
      start: { edges: ["rewrite"] },
    });
    const g = compileGraph(spec);
    expect(await g.invoke({ foo: "a", log: [] })).toEqual({ foo: "a", log: ["r:a"] });
    expect(await collect(g.stream({ foo: "a", log: [] }))).toEqual([
      { rewrite: { log: ["r:a"] }, __metadata__: { cached: true } },
    ]);
    expect(calls).toBe(1);
    await g.invoke({ foo: "b", log: [] });
    expect(calls).toBe(2);
    g.clearCache();
    await g.invoke({ foo: "a", log: [] });
    expect(calls).toBe(3);
  });
  it("a key function and a TTL", async () => {
    let calls = 0;
    const now = vi.spyOn(Date, "now");
    const g = compileGraph(
      graph({
        fields: { total: null, log: concat as never, foo: null },
        nodes: [
          n("k", () => (calls++, { total: calls }), {
            cache: { ttl: 1, key: (i) => String((i as { foo: string }).foo.length) },
          }),
        ],
        start: { edges: ["k"] },
      }),
    );
    now.mockReturnValue(1_000_000);
    await g.invoke({ foo: "ab" });
    await g.invoke({ foo: "cd" });
    expect(calls).toBe(1);
    now.mockReturnValue(1_002_000);
    await g.invoke({ foo: "cd" });
    expect(calls).toBe(2);
  });
});

describe("error route (on_error)", () => {
  it("after the retries, the failing node routes to its onError node instead of failing the run", async () => {
    let attempts = 0;
    const g = compileGraph(
      graph({
        fields: { total: null, log: concat as never, foo: null },
        nodes: [
          n(
            "risky",
            () => {
              attempts++;
              throw new Error("bad");
            },
            { retry: { maxAttempts: 2, initialInterval: 0, jitter: false }, onError: "handler", edges: ["next"] },
          ),
          n("handler", () => ({ foo: "handled_after" })),
          n("next", () => ({ foo: "not reached" })),
        ],
        start: { edges: ["risky"] },
      }),
    );
    expect(await g.invoke({})).toEqual({ foo: "handled_after" });
    expect(attempts).toBe(2);
  });

  it("routes a plain node (no retry, timeout or cache) to its onError node too", async () => {
    const g = compileGraph(
      graph({
        fields: { total: null, log: concat as never, foo: null },
        nodes: [
          n(
            "risky",
            () => {
              throw new Error("bad");
            },
            { onError: "handler", edges: ["next"] },
          ),
          n("handler", () => ({ foo: "handled" })),
          n("next", () => ({ foo: "not reached" })),
        ],
        start: { edges: ["risky"] },
      }),
    );
    expect(await g.invoke({})).toEqual({ foo: "handled" });
  });

  it("routes a failing subgraph node to its onError node", async () => {
    const cn = nodeFactory("C", ["foo"]);
    const child = graph({
      name: "C",
      fields: { foo: null },
      nodes: [
        cn("boom", () => {
          throw new Error("kaput");
        }),
      ],
      start: { edges: ["boom"] },
    });
    const g = compileGraph(
      graph({
        fields: { total: null, log: concat as never, foo: null },
        nodes: [
          n("sub", (s: Values, ctx: NodeContext) => ctx.runSubgraph(child, { foo: s.foo }), {
            subgraph: child,
            onError: "handler",
          }),
          n("handler", () => ({ foo: "handled" })),
        ],
        start: { edges: ["sub"] },
      }),
    );
    expect(await g.invoke({ foo: "x" })).toEqual({ foo: "handled" });
  });
});

describe("run control", () => {
  it("maxConcurrency caps the tasks running at once", async () => {
    let running = 0;
    let peak = 0;
    const w = async () => {
      running++;
      peak = Math.max(peak, running);
      await sleep(5);
      running--;
      return { log: ["w"] };
    };
    const names = ["a", "b", "c", "d", "e"];
    const g = compileGraph(
      graph({
        fields: { total: null, log: concat as never, foo: null },
        nodes: names.map((x) => n(x, w)),
        start: { edges: names },
      }),
    );
    expect((await g.invoke({ log: [] }, { maxConcurrency: 2 }))!.log).toHaveLength(5);
    expect(peak).toBe(2);
  });

  it("a signal reused across many runs collects no listeners", async () => {
    const ctl = new AbortController();
    const g = compileGraph(
      graph({
        fields: { total: null, log: concat as never, foo: null },
        nodes: [
          n("a", async (_: unknown, ctx) => (ctx.signal.aborted ? null : { log: ["a"] })),
          n("b", (_: unknown, ctx) => (ctx.signal.aborted ? null : { log: ["b"] })),
        ],
        start: { edges: ["a", "b"] },
      }),
    );
    for (let i = 0; i < 20; i++)
      expect(await g.invoke({ log: [] }, { signal: ctl.signal })).toEqual({ log: ["a", "b"] });
    expect(getEventListeners(ctl.signal, "abort")).toHaveLength(0);
  });

  it("breaking out of a stream cancels the run", async () => {
    let steps = 0;
    const g = compileGraph(
      graph({
        fields: { total: null, log: concat as never, foo: null },
        nodes: [n("loop", async () => (steps++, await sleep(2), { log: ["x"] }), { branches: [() => "loop"] })],
        start: { edges: ["loop"] },
      }),
    );
    for await (const _ of g.stream({ log: [] }, { recursionLimit: 1000 })) if (steps >= 2) break;
    const at = steps;
    await sleep(30);
    expect(steps).toBeLessThanOrEqual(at + 1);
  });

  it("a recursion error inside a loop of async nodes still names the graph", async () => {
    const g = compileGraph(
      graph({
        name: "Loopy",
        fields: { total: null, log: concat as never, foo: null },
        nodes: [n("l", async () => null, { branches: [() => "l"] })],
        start: { edges: ["l"] },
      }),
    );
    await expect(g.invoke({}, { recursionLimit: 5 })).rejects.toBeInstanceOf(GraphRecursionError);
  });

  it("two failing tasks in one step give MultipleErrors; siblings' writes are kept as pending writes", async () => {
    const g = compileGraph(
      graph({
        fields: { total: null, log: concat as never, foo: null },
        nodes: [
          n("ok", () => ({ log: ["ok"] })),
          n("bad1", () => {
            throw new Error("1");
          }),
          n("bad2", () => {
            throw new Error("2");
          }),
        ],
        start: { edges: ["ok", "bad1", "bad2"] },
      }),
      { checkpointer: new MemorySaver() },
    );
    const cfg = { configurable: { thread_id: "m" } };
    await expect(g.invoke({ log: [] }, cfg)).rejects.toMatchObject({
      name: "MultipleErrors",
      errors: [expect.any(NodeError), expect.any(NodeError)],
    });
    const st = await g.getState(cfg);
    expect(st.values).toEqual({ log: ["ok"] });
    expect(st.next).toEqual(["bad1", "bad2"]);
  });
});

describe("idle timeout of a subgraph node", () => {
  it("is refreshed by the child's finished steps", async () => {
    const cn = nodeFactory("C", ["log"]);
    // 4 × 50 ms in all, past the idle timeout, but each step well within it
    const slowStep = async () => (await sleep(50), { log: ["s"] });
    const child = graph({
      name: "C",
      fields: { log: concat as never },
      nodes: [
        cn("a", slowStep, { edges: ["b"] }),
        cn("b", slowStep, { edges: ["c"] }),
        cn("c", slowStep, { edges: ["d"] }),
        cn("d", slowStep),
      ],
      start: { edges: ["a"] },
    });
    const pn = nodeFactory("P", ["log"]);
    const mk = (idleTimeout: number) =>
      compileGraph(
        graph({
          name: "P",
          fields: { log: concat as never },
          nodes: [
            pn("sub", (_: unknown, ctx) => ctx.runSubgraph(child, { log: [] }), {
              subgraph: child,
              timeout: { idleTimeout },
            }),
          ],
          start: { edges: ["sub"] },
        }),
      );
    expect((await mk(150).invoke({ log: [] }))!.log).toEqual(["s", "s", "s", "s"]);
    await expect(mk(20).invoke({ log: [] })).rejects.toMatchObject({
      name: "NodeTimeoutError",
      kind: "idle",
      node: "sub",
    });
  });
});
