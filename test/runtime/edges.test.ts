/** Reference §8 group C (edges, fan-out/fan-in, conditionals), §1.4 write order, §1.10 recursion limit. */
import { describe, expect, it } from "vitest";
import { GraphRecursionError, compileGraph, type BranchSpec, type Values } from "@graphc/runtime";
import { concat, graph, nodeFactory, sleep, writeOrderSpec } from "./helpers.ts";

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

const F = ["query", "docs", "answer"];
const node = nodeFactory("G", F);
const sortedConcat = (a: string[], b: string[]) => [...a, ...b].sort();

type S = { query: string; docs?: string[] };
const rewrite = (s: S) => ({ query: `query: ${s.query}` });
const analyze = (s: S) => ({ query: `analyzed: ${s.query}` });
const r1 = async () => ({ docs: ["doc1", "doc2"] });
const r2 = async () => {
  await sleep(20);
  return { docs: ["doc3", "doc4"] };
};
const qa = (s: S) => ({ answer: (s.docs ?? []).join(",") });
const EXPECTED = {
  query: "analyzed: query: what is weather in sf",
  docs: ["doc1", "doc2", "doc3", "doc4"],
  answer: "doc1,doc2,doc3,doc4",
};

describe("write order (§1.4, §8.3 #1)", () => {
  it("PULL tasks by node name in JS order, then Sends by index, whatever the completion order", async () => {
    const g = compileGraph(writeOrderSpec());
    expect(await g.invoke({ log: ["in"] })).toEqual({ log: ["in", "Beta", "alpha", "zeta", "w:1", "w:0"] });
  });
  it("updates stream in completion order", async () => {
    const chunks = (await collect(compileGraph(writeOrderSpec()).stream({ log: ["in"] }))) as Record<string, unknown>[];
    expect(chunks.map((c) => Object.keys(c)[0])).toEqual(["Beta", "zeta", "w", "w", "alpha"]);
  });
});

describe("waiting edges (C-20, C-22)", () => {
  it("a barrier completes across supersteps", async () => {
    const g = compileGraph(
      graph({
        fields: { query: null, docs: sortedConcat as never, answer: null },
        nodes: [
          node("rewrite_query", rewrite as never, { edges: ["analyzer_one", "retriever_two"] }),
          node("analyzer_one", analyze as never, { edges: ["retriever_one"] }),
          node("retriever_one", r1, { joins: [0] }),
          node("retriever_two", r2, { joins: [0] }),
          node("qa", qa as never),
        ],
        start: { edges: ["rewrite_query"] },
        joins: [{ sources: ["retriever_one", "retriever_two"], target: "qa" }],
      }),
    );
    expect(await g.invoke({ query: "what is weather in sf" })).toEqual(EXPECTED);
    const steps = (await collect(g.stream({ query: "what is weather in sf" }, { streamMode: "debug" }))) as {
      step: number;
      type: string;
      payload: { name: string; triggers?: string[] };
    }[];
    const qaStart = steps.find((s) => s.type === "task" && s.payload.name === "qa")!;
    expect(qaStart.step).toBe(4);
    expect(qaStart.payload.triggers).toEqual(["join:retriever_one+retriever_two:qa"]);
  });

  it("a waiting edge plus a plain edge runs the target twice (C-22)", async () => {
    const g = compileGraph(
      graph({
        fields: { query: null, docs: sortedConcat as never, answer: null },
        nodes: [
          node("rewrite_query", rewrite as never, { edges: ["analyzer_one", "retriever_two", "qa"] }),
          node("analyzer_one", analyze as never, { edges: ["retriever_one"] }),
          node("retriever_one", r1, { joins: [0] }),
          node("retriever_two", r2, { joins: [0] }),
          node("qa", qa as never),
        ],
        start: { edges: ["rewrite_query"] },
        joins: [{ sources: ["retriever_one", "retriever_two"], target: "qa" }],
      }),
    );
    const upd = (await collect(g.stream({ query: "what is weather in sf" }))) as Record<string, unknown>[];
    expect(upd.filter((u) => "qa" in u)).toEqual([{ qa: { answer: "" } }, { qa: { answer: "doc1,doc2,doc3,doc4" } }]);
  });

  it("plain edges are not a barrier: the target runs in each step a predecessor wrote", async () => {
    const n = nodeFactory("G", ["log"]);
    const g = compileGraph(
      graph({
        fields: { log: concat as never },
        nodes: [
          n("a", () => ({ log: ["a"] }), { edges: ["c"] }),
          n("b", () => ({ log: ["b"] }), { edges: ["b2"] }),
          n("b2", () => ({ log: ["b2"] }), { edges: ["c"] }),
          n("c", () => ({ log: ["c"] })),
        ],
        start: { edges: ["a", "b"] },
      }),
    );
    expect(await g.invoke({ log: [] })).toEqual({ log: ["a", "b", "b2", "c", "c"] });
  });
});

describe("defer (C-21)", () => {
  const build = (waiting: boolean, interruptBefore: string[] = []) =>
    graph({
      fields: { query: null, docs: sortedConcat as never, answer: null },
      nodes: [
        node("rewrite_query", rewrite as never, { edges: ["retriever_one", "retriever_two"] }),
        node("retriever_one", r1, { edges: ["analyzer_one"] }),
        node("analyzer_one", analyze as never, waiting ? { joins: [0] } : { edges: ["qa"] }),
        node(
          "retriever_two",
          async () => {
            await sleep(30);
            return { docs: ["doc3", "doc4"] };
          },
          waiting ? { joins: [0] } : { edges: ["qa"] },
        ),
        node("qa", qa as never, { defer: true }),
      ],
      start: { edges: ["rewrite_query"] },
      joins: waiting ? [{ sources: ["analyzer_one", "retriever_two"], target: "qa" }] : [],
      interruptBefore,
    });
  it.each([false, true])("the deferred node runs once, after the longer branch (waiting edge: %s)", async (waiting) => {
    const g = compileGraph(build(waiting));
    const upd = (await collect(g.stream({ query: "what is weather in sf" }))) as Record<string, unknown>[];
    expect(upd.map((u) => Object.keys(u)[0])).toEqual([
      "rewrite_query",
      "retriever_one",
      "retriever_two",
      "analyzer_one",
      "qa",
    ]);
    expect(await g.invoke({ query: "what is weather in sf" })).toEqual({
      query: "analyzed: query: what is weather in sf",
      docs: ["doc1", "doc2", "doc3", "doc4"],
      answer: "doc1,doc2,doc3,doc4",
    });
    const dbg = (await collect(g.stream({ query: "x" }, { streamMode: "debug" }))) as {
      step: number;
      type: string;
      payload: { name: string; triggers: string[] };
    }[];
    const q = dbg.find((d) => d.type === "task" && d.payload.name === "qa")!;
    expect(q.step).toBe(4);
    expect(q.payload.triggers).toEqual([waiting ? "join:analyzer_one+retriever_two:qa" : "branch:to:qa"]);
  });
});

describe("routers (§1.7)", () => {
  it("see the pre-step state plus their own task's writes only (§8.3 #5)", async () => {
    const seen: Values[] = [];
    const n = nodeFactory("G", ["a", "b", "log"]);
    const route: BranchSpec = (fresh) => {
      seen.push({ ...fresh });
      return "__end__";
    };
    const g = compileGraph(
      graph({
        fields: { a: null, b: null, log: concat as never },
        nodes: [n("a", () => ({ a: "A" }), { branches: [route] }), n("b", () => ({ b: "B" }))],
        start: { edges: ["a", "b"] },
      }),
    );
    await g.invoke({ a: "a0", b: "b0", log: [] });
    expect(seen).toEqual([{ a: "A", b: "b0", log: [] }]);
  });

  it("a START router picks the entry (C-26)", async () => {
    const n = nodeFactory("G", ["value"]);
    const pathMap: Record<string, string> = { "go-left": "left", "go-right": "right" };
    const g = compileGraph(
      graph({
        fields: { value: null },
        nodes: [
          n("left", (s: { value: string }) => ({ value: `${s.value}->left` })),
          n("right", (s: { value: string }) => ({ value: `${s.value}->right` })),
        ],
        start: { branches: [(s) => pathMap[(s.value as string).length > 10 ? "go-right" : "go-left"]!] },
      }),
    );
    expect(await g.invoke({ value: "what is weather in sf" })).toEqual({ value: "what is weather in sf->right" });
    expect(await collect(g.stream({ value: "short" }))).toEqual([{ left: { value: "short->left" } }]);
  });

  it("an unknown destination is an InvalidUpdateError naming the node (graphc's choice)", async () => {
    const n = nodeFactory("G", ["value"]);
    const g = compileGraph(
      graph({
        fields: { value: null },
        nodes: [n("a", () => null, { branches: [() => "zzz"] })],
        start: { edges: ["a"] },
      }),
    );
    await expect(g.invoke({ value: 1 })).rejects.toMatchObject({ name: "InvalidUpdateError", node: "a" });
  });

  it("async routers and sync nodes mix", async () => {
    const n = nodeFactory("G", ["value"]);
    const g = compileGraph(
      graph({
        fields: { value: sumOp as never },
        nodes: [
          n("a", () => ({ value: 1 }), {
            sync: true,
            branches: [async (s) => ((s.value as number) < 3 ? "a" : "__end__")],
          }),
        ],
        start: { edges: ["a"] },
      }),
    );
    expect(await g.invoke({ value: 0 })).toEqual({ value: 3 });
  });
});
const sumOp = (a: number, b: number) => a + b;

describe("self loop and stream shapes (C-27)", () => {
  const n = nodeFactory("G", ["value"]);
  const g = compileGraph(
    graph({
      fields: { value: sumOp as never },
      nodes: [
        n("add_one", () => ({ value: 1 }), {
          sync: true,
          branches: [(s) => ((s.value as number) < 6 ? "add_one" : "__end__")],
        }),
      ],
      start: { edges: ["add_one"] },
    }),
  );
  it("default mode is updates", async () => {
    expect(await collect(g.stream({ value: 1 }))).toEqual(Array(5).fill({ add_one: { value: 1 } }));
  });
  it("values, [values], [values, updates]", async () => {
    expect(await collect(g.stream({ value: 1 }, { streamMode: "values" }))).toEqual(
      [1, 2, 3, 4, 5, 6].map((value) => ({ value })),
    );
    expect(await collect(g.stream({ value: 1 }, { streamMode: ["values"] }))).toEqual(
      [1, 2, 3, 4, 5, 6].map((value) => ["values", { value }]),
    );
    const both = await collect(g.stream({ value: 1 }, { streamMode: ["values", "updates"] }));
    expect(both.slice(0, 3)).toEqual([
      ["values", { value: 1 }],
      ["updates", { add_one: { value: 1 } }],
      ["values", { value: 2 }],
    ]);
    expect(both).toHaveLength(11);
  });
  it("LangGraph's `await graph.stream()` form works too", async () => {
    const s = await g.stream({ value: 5 }, { streamMode: "values" });
    expect(await collect(s)).toEqual([{ value: 5 }, { value: 6 }]);
  });
});

describe("recursion limit (§1.10, C-58)", () => {
  const chain = (k: number) => {
    const n = nodeFactory("Chain", ["log"]);
    const names = Array.from({ length: k }, (_, i) => `n${i}`);
    return graph({
      name: "Chain",
      fields: { log: concat as never },
      nodes: names.map((name, i) =>
        n(name, () => ({ log: [name] }), { sync: true, edges: i + 1 < k ? [names[i + 1]!] : [] }),
      ),
      start: { edges: ["n0"] },
    });
  };
  it.each([
    [1, 1, false],
    [1, 2, true],
    [2, 1, false],
    [2, 2, false],
    [2, 3, true],
    [3, 2, false],
    [3, 3, false],
    [3, 4, true],
  ])("chain of %i nodes with limit %i: ok=%s", async (k, limit, ok) => {
    const p = compileGraph(chain(k)).invoke({ log: [] }, { recursionLimit: limit });
    if (ok) expect(await p).toEqual({ log: Array.from({ length: k }, (_, i) => `n${i}`) });
    else {
      const e = await p.catch((x: unknown) => x);
      expect(e).toBeInstanceOf(GraphRecursionError);
      expect((e as Error).message).toBe(
        `Recursion limit of ${limit} reached without hitting a stop condition. You can increase the limit by setting the "recursionLimit" config key.` +
          "\n\nTroubleshooting URL: https://docs.langchain.com/oss/javascript/langgraph/GRAPH_RECURSION_LIMIT/\n",
      );
      expect((e as GraphRecursionError).graph).toBe("Chain");
    }
  });
  it("withConfig and the spec's limits apply; a per-call limit wins", async () => {
    await expect(compileGraph(chain(2)).withConfig({ recursionLimit: 1 }).invoke({ log: [] })).rejects.toBeInstanceOf(
      GraphRecursionError,
    );
    const limited = compileGraph({ ...chain(3), recursionLimit: 3 });
    await expect(limited.invoke({ log: [] })).rejects.toBeInstanceOf(GraphRecursionError);
    expect(await limited.invoke({ log: [] }, { recursionLimit: 4 })).toEqual({ log: ["n0", "n1", "n2"] });
  });
  it("a limit below 1 is refused", async () => {
    await expect(compileGraph(chain(1)).invoke({ log: [] }, { recursionLimit: 0 })).rejects.toThrow(
      'Passed "recursionLimit" must be at least 1.',
    );
  });
});

describe("loop through a barrier (C-23)", () => {
  it("the barrier resets after its target runs and completes again in the next round", async () => {
    const g = compileGraph(
      graph({
        fields: { query: null, docs: sortedConcat as never, answer: null },
        nodes: [
          node("rewrite_query", rewrite as never, { edges: ["analyzer_one", "retriever_two"] }),
          node("analyzer_one", analyze as never, { edges: ["retriever_one"] }),
          node("retriever_one", r1, { joins: [0] }),
          node("retriever_two", r2, { joins: [0] }),
          node("decider", () => null, {
            branches: [(s) => ((s.query as string).split("analyzed").length - 1 < 2 ? "rewrite_query" : "qa")],
          }),
          node("qa", qa as never),
        ],
        start: { edges: ["rewrite_query"] },
        joins: [{ sources: ["retriever_one", "retriever_two"], target: "decider" }],
      }),
    );
    const upd = (await collect(g.stream({ query: "what is weather in sf" }))) as Record<string, unknown>[];
    expect(upd).toHaveLength(11);
    expect(upd.map((u) => Object.keys(u)[0]).filter((k) => k === "decider")).toHaveLength(2);
    expect(await g.invoke({ query: "what is weather in sf" })).toEqual({
      query: "analyzed: query: analyzed: query: what is weather in sf",
      docs: ["doc1", "doc1", "doc2", "doc2", "doc3", "doc3", "doc4", "doc4"],
      answer: "doc1,doc1,doc2,doc2,doc3,doc3,doc4,doc4",
    });
  });
});
