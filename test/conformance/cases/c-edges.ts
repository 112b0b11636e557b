/** Reference §8 group C (edges, fan-out/fan-in, conditionals), run without a checkpointer. */
import { beforeEach, describe, expect, it } from "vitest";
import { collect, graph } from "../context.ts";
import { calls } from "../graphs/c-edges.nodes.ts";
import { errorCodes } from "../invalid.ts";

const g = (name: string) => graph("c-edges", name);
const QUERY = { query: "what is weather in sf" };
const RESULT = {
  query: "analyzed: query: what is weather in sf",
  docs: ["doc1", "doc2", "doc3", "doc4"],
  answer: "doc1,doc2,doc3,doc4",
};
/** the `updates` chunks of one pass through the fan-out (retriever_two is the slow one) */
const PASS = (q: string) => [
  { rewrite_query: { query: `query: ${q}` } },
  { analyzer_one: { query: `analyzed: query: ${q}` } },
  { retriever_two: { docs: ["doc3", "doc4"] } },
  { retriever_one: { docs: ["doc1", "doc2"] } },
];

type Debug = { step: number; type: string; payload: { name: string; triggers?: string[] } };

export function edges(): void {
  describe("C. edges, fan-out/fan-in, conditionals", () => {
    beforeEach(() => {
      for (const k of Object.keys(calls)) delete calls[k];
    });

    it("C-20: a waiting edge collects sources that finish in different supersteps", async () => {
      expect(await g("WaitingEdge").invoke(QUERY)).toEqual(RESULT);
    });

    it.each(["DeferJoin", "DeferPlain"])("C-21: a deferred node runs once, after the longer branch (%s)", async (name) => {
      expect(await g(name).invoke(QUERY)).toEqual(RESULT);
      expect(await collect(g(name).stream(QUERY))).toEqual([...PASS(QUERY.query), { qa: { answer: "doc1,doc2,doc3,doc4" } }]);
      const debug = (await collect(g(name).stream(QUERY, { streamMode: "debug" }))) as Debug[];
      const qaTask = debug.find((d) => d.type === "task" && d.payload.name === "qa");
      expect(qaTask?.step).toBe(4);
      expect(qaTask?.payload.triggers).toEqual([name === "DeferJoin" ? "join:retriever_one+retriever_two:qa" : "branch:to:qa"]);
    });

    it("C-22: a waiting edge plus a plain edge runs the target twice", async () => {
      const chunks = await collect(g("WaitingPlusPlain").stream(QUERY));
      expect(chunks.filter((c) => "qa" in (c as object))).toEqual([{ qa: { answer: "" } }, { qa: { answer: "doc1,doc2,doc3,doc4" } }]);
      expect(chunks).toHaveLength(6);
      expect(chunks[0]).toEqual({ rewrite_query: { query: "query: what is weather in sf" } });
      expect(chunks.at(-1)).toEqual({ qa: { answer: "doc1,doc2,doc3,doc4" } });
    });

    it("C-23: a loop through the barrier", async () => {
      const out = await g("BarrierLoop").invoke(QUERY);
      expect(out.docs).toEqual(["doc1", "doc1", "doc2", "doc2", "doc3", "doc3", "doc4", "doc4"]);
      const q1 = "analyzed: query: what is weather in sf";
      expect(await collect(g("BarrierLoop").stream(QUERY))).toEqual([
        ...PASS(QUERY.query),
        { decider: {} },
        ...PASS(q1),
        { decider: {} },
        { qa: { answer: "doc1,doc1,doc2,doc2,doc3,doc3,doc4,doc4" } },
      ]);
    });

    it("C-24: a cached node is replayed with __metadata__.cached until the cache is cleared", async () => {
      const loop = g("CachedLoop");
      const first = await collect(loop.stream(QUERY));
      expect(calls.rewrite_query).toBe(2);
      expect(first.filter((c) => "rewrite_query" in (c as object)).every((c) => !("__metadata__" in (c as object)))).toBe(true);
      const second = await collect(loop.stream(QUERY));
      expect(calls.rewrite_query).toBe(2);
      expect(second.filter((c) => "rewrite_query" in (c as object))).toEqual([
        { rewrite_query: { query: "query: what is weather in sf" }, __metadata__: { cached: true } },
        { rewrite_query: { query: "query: analyzed: query: what is weather in sf" }, __metadata__: { cached: true } },
      ]);
      loop.clearCache();
      await loop.invoke(QUERY);
      expect(calls.rewrite_query).toBe(4);
    });

    it("C-25: a router without cases returns node names", async () => {
      expect(await g("RouterNoCases").invoke({})).toEqual({ keys: { value: 3 } });
    });

    it("C-26: a conditional entry with string keys", async () => {
      expect(await g("ConditionalEntry").invoke({ value: "what is weather in sf" })).toEqual({ value: "what is weather in sf->right" });
      expect(await collect(g("ConditionalEntry").stream({ value: "what is weather in sf" }))).toEqual([
        { right: { value: "what is weather in sf->right" } },
      ]);
      expect(await g("ConditionalEntry").invoke({ value: "short" })).toEqual({ value: "short->left" });
    });

    it("C-27: a self loop in every stream shape", async () => {
      const loop = g("SelfLoop");
      expect(await collect(loop.stream({ value: 1 }))).toEqual(Array.from({ length: 5 }, () => ({ add_one: { value: 1 } })));
      const values = [1, 2, 3, 4, 5, 6].map((value) => ({ value }));
      expect(await collect(loop.stream({ value: 1 }, { streamMode: "values" }))).toEqual(values);
      expect(await collect(loop.stream({ value: 1 }, { streamMode: ["values"] }))).toEqual(values.map((v) => ["values", v]));
      const both = await collect(loop.stream({ value: 1 }, { streamMode: ["values", "updates"] }));
      expect(both).toEqual([
        ["values", { value: 1 }],
        ...[2, 3, 4, 5, 6].flatMap((value) => [
          ["updates", { add_one: { value: 1 } }],
          ["values", { value }],
        ]),
      ]);
    });

    it("C-28: sequences", async () => {
      expect(await g("Sequence").invoke({})).toEqual({ foo: ["step1", "step2"], bar: "baz" });
      expect(await g("SequenceBranch").invoke({})).toEqual({ foo: ["a", "b", "d", "e"] });
      expect(await g("SequenceBranch").invoke({ foo: ["start"] })).toEqual({ foo: ["start", "a", "b", "c"] });
      expect(errorCodes("duplicate-node")).toEqual(["G2005"]);
    });

    it("C-29: a conditional entry; the first write of a reducer field without default is stored raw", async () => {
      expect(await g("StartBranch").invoke({ my_key: "value", market: "DE" })).toEqual({ my_key: "value slow", market: "DE" });
      expect(await g("StartBranch").invoke({ my_key: "value", market: "US" })).toEqual({ my_key: "value fast", market: "US" });
    });
  });
}
