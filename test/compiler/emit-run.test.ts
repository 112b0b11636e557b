/**
 * The golden outputs of test/fixtures/emit run on the runtime: reducers, ephemeral fields, vars (with
 * `${ENV}` read at run time), inline conditions, routers, send, joins, every kind of subgraph mapping,
 * escaped strings, and the inline input / update checks.
 */
import { afterEach, describe, expect, it } from "vitest";
import { GraphInputError, InvalidUpdateError, MemorySaver } from "graphc/runtime";
import { Branches } from "../fixtures/emit/_expected/branches.graph.ts";
import { Escapes } from "../fixtures/emit/_expected/escapes.graph.ts";
import { Paused, Reducers, ReducersSpec } from "../fixtures/emit/_expected/reducers.graph.ts";
import { Subgraphs } from "../fixtures/emit/_expected/subgraphs.graph.ts";

afterEach(() => {
  delete process.env.GRAPHC_FIXTURE_GREETING;
});

describe("reducers fixture", () => {
  it("folds every reducer, clears the ephemeral field after its superstep and projects the output", async () => {
    const out = await Reducers.invoke({ topic: "x" });
    expect(out).toEqual({
      log: ["hello x", "count 1", "scratch cleared"],
      messages: [{ id: "m1", role: "user", content: "x" }],
      total: 3,
      meta: { first: "1" },
      tags: ["a", "b", "c"],
      best: "longest!",
      summary: "x: 3 (a,b,c) longest! first",
    });
  });

  it("reads `${ENV:-default}` vars when the graph runs, and lets a per-run override win", async () => {
    process.env.GRAPHC_FIXTURE_GREETING = "hi";
    expect((await Reducers.invoke({ topic: "x" })).log[0]).toBe("hi x");
    expect((await Reducers.invoke({ topic: "x" }, { vars: { greeting: "yo" } })).log[0]).toBe("yo x");
  });

  it("checks inputs inline: wrong type and unknown key are GraphInputErrors naming graph and field", async () => {
    await expect(Reducers.invoke({ topic: 5 } as never)).rejects.toThrow(GraphInputError);
    await expect(Reducers.invoke({ topic: 5 } as never)).rejects.toThrow(/graph "Reducers": input field "topic" must be string, got number/);
    await expect(Reducers.invoke({ topic: "x", log: [] } as never)).rejects.toThrow(/graph "Reducers" has no input field "log"/);
  });

  it("rejects an update key the node did not declare", () => {
    const begin = ReducersSpec.nodes.find((n) => n.name === "begin")!;
    expect(() => begin.check({ log: "a" })).not.toThrow();
    expect(() => begin.check({ best: "a" })).toThrow(InvalidUpdateError);
    expect(() => begin.check({ best: "a" })).toThrow(/node "begin" of graph "Reducers" cannot write "best"/);
  });

  it("keeps LangGraph's LastValue error for two writes to a replace field in one step", () => {
    const values = ReducersSpec.init();
    expect(() =>
      ReducersSpec.apply(values, [
        { node: "a", values: { topic: "a" } },
        { node: "b", values: { topic: "b" } },
      ]),
    ).toThrow('Invalid update for channel "topic" with values ["a","b"]: LastValue can only receive one value per step.');
  });
});

describe("interrupts", () => {
  it("pause before the declared node and resume on the same thread", async () => {
    const config = { configurable: { thread_id: "emit-run" }, checkpointer: new MemorySaver() };
    const first = await Paused.invoke({ topic: "x" }, config);
    expect(first.__interrupt__).toEqual([]);
    expect(first.log).toEqual([]);
    expect(await Paused.invoke(null, config)).toEqual({ topic: "x", log: ["x"] });
  });
});

describe("branches fixture", () => {
  it("fans out to two nodes joined by a waiting edge, then routes by key", async () => {
    expect(await Branches.invoke({ intent: "fan" })).toEqual({ results: ["left:3", "right:3"], verdict: "left:3,right:3", rounds: 1 });
  });

  it("sends one packet per item (negative index and `in` condition)", async () => {
    expect(await Branches.invoke({ intent: "send" })).toEqual({ results: ["w1", "w2", "w3"], verdict: "", rounds: 1 });
  });

  it("takes the default case", async () => {
    expect(await Branches.invoke({ intent: "other" })).toEqual({ results: [], verdict: "", rounds: 1 });
  });
});

describe("subgraphs fixture", () => {
  it("maps shared fields, renames, expressions, transforms, inline and by-file subgraphs", async () => {
    expect(await Subgraphs.invoke({ text: "hello big world" })).toEqual({
      loud: "HELLO BIG WORLD!",
      shouted: "WORLD!",
      count: 3,
      last: "WORLD!!!",
      echo: "echo hello big world",
    });
  });
});

describe("escapes fixture", () => {
  it("keeps every string exactly as written in the .graph file", async () => {
    expect(await Escapes.invoke({ quote: 'it\'s "quoted"' })).toEqual({
      picked: 'it\'s "quoted"|',
      text: "</script> \u2028 ${x} */ '",
      default: "field named like a keyword",
    });
    const tick = await Escapes.invoke({ quote: "`tick` ${notEnv} */" });
    expect(tick.picked).toBe("`tick` ${notEnv} */|</script> \u2028 ${x} */ '");
  });

  it("routes on keys with quotes, separators and non-ASCII", async () => {
    expect((await Escapes.invoke({ quote: "line\u2028sep\u2029end" })).picked).toBe("line\u2028sep\u2029end|");
    expect((await Escapes.invoke({ quote: "中文 🎉 \\" })).picked).toBe("中文 🎉 \\|");
  });
});
