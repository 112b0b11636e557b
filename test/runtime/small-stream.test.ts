/**
 * `stream()` of a lean graph on its own small loop (runtime/static/, runtime/lean/): every stream mode a run
 * without a checkpointer has (values, updates, tasks, debug, custom, messages, several at once, subgraphs:
 * true) gives the chunks the full loop gives for the same graph and input — chains, fan-outs with sync and
 * async nodes, routers, Commands and Sends, a node's failure, the recursion limit, an aborted stream — with
 * task ids and timestamps compared by position. The full loop's run is forced by `maxConcurrency` (a run
 * option only the full graph takes), with a limit above the widest step so that it changes nothing.
 */
import { describe, expect, it } from "vitest";
import {
  Command,
  LeanGraph,
  Send,
  StaticGraph,
  compileLeanGraph,
  type GraphSpec,
  type NodeContext,
  type Values,
} from "../../runtime/core.ts";
import type { StreamMode } from "../../runtime/stream.ts";
import { countGraph } from "./both-loops.ts";

const { node, spec } = countGraph("Small");

const ALL: StreamMode[] = ["values", "updates", "tasks", "debug", "custom", "messages"];

/** a node that writes a custom chunk and a message before it counts */
const talk = (name: string) => (input: unknown, ctx: NodeContext) => {
  ctx.writer({ from: name });
  ctx.messages({ role: "ai", content: `hi from ${name}` }, { tags: ["t"] });
  return { count: (input as { count: number }).count + 1, log: [name] };
};

const GRAPHS: Record<string, GraphSpec> = {
  chain: spec([node("a", ["b"]), node("b", [])]),
  "fan-out and fan-in, sync and async nodes": spec([
    node("a", ["c", "b"], { call: talk("a") }),
    node("b", ["d"], { call: () => ({ log: ["b"] }) }),
    node("c", ["d"], { call: async (_i: unknown, ctx: NodeContext) => (ctx.writer("c"), { log: ["c"] }) }),
    node("d", [], { call: async (input) => ({ count: (input as { count: number }).count + 10, log: ["d"] }) }),
  ]),
  "a node that returns nothing": spec([node("a", ["b"], { call: () => undefined }), node("b", [])]),
  "a failing node among others": spec([
    node("a", ["b", "c"]),
    node("b", [], {
      call: () => {
        throw new Error("b broke");
      },
    }),
    node("c", [], { call: async () => ({ log: ["c"] }) }),
  ]),
  "a cycle past the recursion limit": spec([node("a", ["a"])]),
  "a long list (the owned list a run may lend)": spec(
    [node("a", ["a"], { call: (input) => ((input as { count: number }).count < 12 ? { count: (input as { count: number }).count + 1, log: ["x", "y"] } : undefined) })],
    { owned: ["log"] },
  ),
};

/** lean-loop graphs: routers, Commands and Sends */
const LEAN_GRAPHS: Record<string, GraphSpec> = {
  "a router loop": spec(
    [node("a", [], { branches: [(fresh) => ((fresh["count"] as number) < 3 ? "a" : "b")], call: talk("a") }), node("b", [])],
    { owned: ["log"] },
  ),
  "Sends and a Command with goto": spec([
    node("a", [], { branches: [() => [new Send("b", { count: 10 }), new Send("b", { count: 20 })]] }),
    node("b", [], { call: (input) => new Command({ update: { log: [`b${(input as { count: number }).count}`] }, goto: "c" }) }),
    node("c", [], { call: talk("c") }),
  ]),
};

type Chunks = { chunks: unknown[]; error?: string };

/** every chunk of a stream, then its error (class and message), if any */
async function collect(stream: AsyncIterable<unknown>, stopAfter?: number): Promise<Chunks> {
  const chunks: unknown[] = [];
  try {
    for await (const c of stream) {
      chunks.push(c);
      if (stopAfter !== undefined && chunks.length >= stopAfter) break;
    }
  } catch (e) {
    return { chunks, error: `${(e as Error).constructor.name}: ${(e as Error).message}` };
  }
  return { chunks };
}

/**
 * `chunks` with each task id replaced by its position of first appearance (ids are random without a saver)
 * and every timestamp by a mark, so that two runs compare
 */
function normalise(r: Chunks): Chunks {
  const ids = new Map<string, string>();
  const id = (s: string) => {
    if (!ids.has(s)) ids.set(s, `id${ids.size}`);
    return ids.get(s)!;
  };
  const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
  const text = JSON.stringify(r.chunks, (k, v: unknown) => (k === "timestamp" && typeof v === "string" ? "<time>" : v));
  return { ...r, chunks: JSON.parse(text.replace(uuid, id)) as unknown[] };
}

/** the stream of the small loop and of the full loop for the same graph, input and options */
async function both(g: StaticGraph, input: Values, options: Record<string, unknown>): Promise<[Chunks, Chunks]> {
  const small = normalise(await collect(g.stream(input, options)));
  const full = normalise(await collect(g.stream(input, { ...options, maxConcurrency: 64 })));
  return [small, full];
}

describe("stream() on the small loops", () => {
  const cases: [string, StaticGraph][] = [
    ...Object.entries(GRAPHS).map(([name, s]): [string, StaticGraph] => [`${name} (static loop)`, new StaticGraph(s)]),
    ...Object.entries(GRAPHS).map(([name, s]): [string, StaticGraph] => [`${name} (lean loop)`, compileLeanGraph(s)]),
    ...Object.entries(LEAN_GRAPHS).map(([name, s]): [string, StaticGraph] => [`${name} (lean loop)`, compileLeanGraph(s)]),
  ];
  for (const [name, g] of cases) {
    it(`${name}: every mode as the full loop`, async () => {
      // the small loop really runs it: the full graph's run would need maxConcurrency's reason
      expect(g.lean).toBe(true);
      for (const streamMode of [...ALL, ALL, ["updates", "values"]]) {
        for (const subgraphs of [false, true]) {
          const [small, full] = await both(g, { count: 0 }, { streamMode, subgraphs, recursionLimit: 6 });
          expect(small, `streamMode ${JSON.stringify(streamMode)}, subgraphs ${subgraphs}`).toEqual(full);
        }
      }
    });
  }

  it("the chunks are the run's: values hold their own lists, updates the node's writes", async () => {
    const g = new StaticGraph(GRAPHS["a long list (the owned list a run may lend)"]!);
    const { chunks } = await collect(g.stream({ count: 0 }, { streamMode: "values" }));
    // each values chunk keeps the list it had when it was emitted (no loan grew it in place later)
    expect(chunks.map((c) => (c as { log: string[] }).log.length)).toEqual([0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24]);
    const { chunks: ups } = await collect(new StaticGraph(GRAPHS["chain"]!).stream({ count: 0 }));
    expect(ups).toEqual([{ a: { count: 1, log: ["a"] } }, { b: { count: 2, log: ["b"] } }]);
  });

  it("stops when the consumer breaks out, and fails the stream on an aborted signal", async () => {
    const ran: string[] = [];
    const slow = (name: string) => async () => {
      ran.push(name);
      await new Promise((r) => setTimeout(r, 5));
      return { log: [name] };
    };
    const g = new StaticGraph(spec([node("a", ["b"], { call: slow("a") }), node("b", ["c"], { call: slow("b") }), node("c", [], { call: slow("c") })]));
    const first = await collect(g.stream({ count: 0 }, { streamMode: "updates" }), 1);
    expect(first.chunks).toEqual([{ a: { log: ["a"] } }]);
    await new Promise((r) => setTimeout(r, 30));
    // the run was cancelled with the stream: c never ran
    expect(ran).not.toContain("c");
    const ctl = new AbortController();
    ctl.abort(new Error("stop"));
    const aborted = await collect(g.stream({ count: 0 }, { signal: ctl.signal }));
    expect(aborted.error).toMatch(/^GraphAbortError: Aborted: stop/);
  });

  it("bad input fails the stream as it fails invoke", async () => {
    const g = new StaticGraph(GRAPHS["chain"]!);
    expect((await collect(g.stream(null as never))).error).toBe('EmptyInputError: Received no input writes for "__start__"');
    const [small, full] = await both(g, { count: 0 }, { recursionLimit: 0 });
    expect(small.error).toMatch(/recursionLimit/);
    expect(small).toEqual(full);
  });

  it("a graph whose spec the small loop cannot run streams on the full graph", async () => {
    const routed = GRAPHS["chain"]!;
    const withRouter = spec([node("a", [], { branches: [() => "b"] }), node("b", [])]);
    // routers without their code: LeanGraph hands the run to the full graph
    const g = new LeanGraph(withRouter);
    expect(g.lean).toBe(false);
    expect((await collect(g.stream({ count: 0 }))).chunks).toEqual([{ a: { count: 1, log: ["a"] } }, { b: { count: 2, log: ["b"] } }]);
    expect(new StaticGraph(routed).lean).toBe(true);
  });
});
