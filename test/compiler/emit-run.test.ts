/**
 * The golden outputs of test/fixtures/emit run on the runtime: reducers, ephemeral fields, vars (with
 * `${ENV}` read at run time), inline conditions, routers, send, joins, every kind of subgraph mapping,
 * escaped strings, the inline input / update checks, Command.PARENT from a subgraph (updates of any parent
 * field, gotos to the subgraph node's declared targets) and stateful subgraphs.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  Command,
  compileGraph,
  END,
  GraphInputError,
  InvalidUpdateError,
  MemorySaver,
  Overwrite,
  type GraphSpec,
  type NodeSpec,
} from "@graphc/runtime";
import { Branches, BranchesSpec as TypedBranchesSpec } from "../fixtures/emit/_expected/branches.graph.ts";
import { Escapes, EscapesSpec } from "../fixtures/emit/_expected/escapes.graph.ts";
import { Desk, DeskSpec, Notes, TriageSpec } from "../fixtures/emit/_expected/parent-command.graph.ts";
import { Paused, Reducers, ReducersSpec as TypedReducersSpec } from "../fixtures/emit/_expected/reducers.graph.ts";
import { Subgraphs } from "../fixtures/emit/_expected/subgraphs.graph.ts";

// typed specs are `GraphSpec`s, as the runtime holds them: these tests hand them values of any shape
const ReducersSpec: GraphSpec = TypedReducersSpec;
const BranchesSpec: GraphSpec = TypedBranchesSpec;

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

  it("applies one update directly and several through the step's fold, with the same result", () => {
    const one = ReducersSpec.init();
    const written = ReducersSpec.apply(one, [
      { node: "a", values: { topic: new Overwrite("t"), log: "a", total: new Overwrite(5), nope: 1 } },
    ]);
    // Overwrite unwrapped on a replace and on a reducer field, the reducer folded, an unknown key ignored
    expect(one).toEqual({ ...ReducersSpec.init(), topic: "t", log: ["a"], total: 5 });
    expect([...written].sort()).toEqual(["log", "topic", "total"]);
    const two = ReducersSpec.init();
    expect(
      ReducersSpec.apply(two, [
        { node: "a", values: { topic: new Overwrite("t"), log: "a" } },
        { node: "b", values: { total: new Overwrite(5), nope: 1 } },
      ]),
    ).toEqual(["topic", "log", "total"]);
    expect(two).toEqual(one);
  });
});

describe("shared node functions", () => {
  it("shares one update check between nodes that write the same fields, each naming its own node", () => {
    const [a, b] = ["class", "class2"].map((name) => EscapesSpec.nodes.find((n) => n.name === name)!);
    expect(() => a!.check({ picked: "x" })).not.toThrow();
    expect(() => a!.check({ nope: 1 })).toThrow(/node "class" of graph "Escapes" cannot write "nope" \(it declares: picked\)/);
    expect(() => b!.check({ nope: 1 })).toThrow(/node "class2" of graph "Escapes" cannot write "nope"/);
  });

  it("declares a projection used by several nodes once, so the runtime sees one function", () => {
    const read = (name: string) => BranchesSpec.nodes.find((n) => n.name === name)!.read;
    // left, right, dispatch and worker all read `items`; classify reads `intent`
    expect(read("right")).toBe(read("left"));
    expect(read("worker")).toBe(read("left"));
    expect(read("classify")).not.toBe(read("left"));
    expect(read("worker")({ items: ["a"], intent: "x" })).toEqual({ items: ["a"] });
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

describe("parent-command fixture", () => {
  it("applies a child's Command.PARENT update of a field the subgraph lacks and routes to a declared target", async () => {
    // the child's own writes (`notes`) are not carried along (LangGraph.js), only the Command's update
    expect(await Desk.invoke({ topic: "refund" })).toEqual({
      log: ["looked at refund", "escalated", "human alice"],
      owner: "alice",
    });
    expect(await Desk.invoke({ topic: "quiet" })).toEqual({ log: ["closed"], owner: "" });
  });

  it("emits the declared goto targets as `ends` and checks PARENT updates against every parent field", () => {
    const triage = DeskSpec.nodes.find((n) => n.name === "triage")!;
    expect(triage.ends).toEqual(["human", END]);
    expect(() => triage.check({ owner: "x", log: [], topic: "t" })).not.toThrow();
    expect(() => triage.check({ nope: 1 })).toThrow(InvalidUpdateError);
    expect(() => triage.check({ nope: 1 })).toThrow(
      /node "triage" of graph "Desk" cannot write "nope": graph "Desk" has no such field/,
    );
  });

  /** Desk with a child whose `escalate` sends `cmd` (standing for an untyped JS node) */
  function deskSending(cmd: Command): ReturnType<typeof compileGraph> {
    const child: GraphSpec = {
      ...TriageSpec,
      nodes: TriageSpec.nodes.map((n): NodeSpec => (n.name === "escalate" ? { ...n, call: () => cmd, sync: true } : n)),
    };
    const nodes = DeskSpec.nodes.map(
      (n): NodeSpec => (n.name === "triage" ? { ...n, call: (input, ctx) => ctx.runSubgraph(child, input as never) } : n),
    );
    return compileGraph({ ...DeskSpec, nodes });
  }

  it("rejects at run time an unknown parent field or a goto outside the declared targets, naming graph and node", async () => {
    const unknown = deskSending(new Command({ graph: Command.PARENT, update: { nope: 1 } }));
    await expect(unknown.invoke({ topic: "t" })).rejects.toThrow(
      expect.objectContaining({ name: "InvalidUpdateError", graph: "Desk", node: "triage", field: "nope" }),
    );
    const wrongGoto = deskSending(new Command({ graph: Command.PARENT, goto: "triage" }));
    await expect(wrongGoto.invoke({ topic: "t" })).rejects.toThrow(
      /Command.goto from node "triage" to "triage", which is not among its declared goto targets/,
    );
  });

  it("keeps a stateful subgraph's state across calls on one thread; a stateless one starts fresh", async () => {
    const saver = new MemorySaver();
    const config = { configurable: { thread_id: "notes" }, checkpointer: saver };
    expect(await Notes.invoke({ item: "a" }, config)).toEqual({ seen: ["a"], fresh: ["a"] });
    expect(await Notes.invoke({ item: "b" }, config)).toEqual({ seen: ["a", "b"], fresh: ["b"] });
    // the stateful child's namespace is the node name, without a task id
    const namespaces: string[] = [];
    for await (const chunk of await Notes.stream({ item: "c" }, { ...config, subgraphs: true, streamMode: "updates" }))
      namespaces.push((chunk as [string[], unknown])[0].join("|"));
    expect(namespaces[0]).toBe("kept");
    expect(namespaces[2]).toMatch(/^again:[0-9a-f-]{36}$/);
    // another thread starts empty
    expect(await Notes.invoke({ item: "z" }, { ...config, configurable: { thread_id: "other" } })).toEqual({
      seen: ["z"],
      fresh: ["z"],
    });
  });
});
