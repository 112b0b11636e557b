/** Reference §8 group A: channels and reducers (C-1, C-3, C-4, C-5, C-6, C-7, C-9, C-10). */
import { describe, expect, it } from "vitest";
import {
  Command,
  InvalidUpdateError,
  Overwrite,
  REMOVE_ALL_MESSAGES,
  RemoveMessage,
  append,
  foldAppend,
  compileGraph,
  fold,
  merge,
  messages,
  sum,
  union,
} from "@graphc/runtime";
import { MemorySaver } from "../../runtime/checkpoint/memory.ts";
import { Barrier } from "../../runtime/channels.ts";
import { compile } from "../../runtime/compiled.ts";
import { concat, graph, nodeFactory } from "./helpers.ts";

const node = nodeFactory("G", ["my_key", "market", "v", "test", "reducerField", "items", "total", "value", "foo"]);

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe("LastValue conflict (C-1, §1.5)", () => {
  it("rejects two writes to a replace field in one step with LangGraph's text", async () => {
    const g = compileGraph(
      graph({
        fields: { my_key: (a: string, b: string) => a + b, market: null },
        nodes: [node("foo", () => ({ market: " slow" })), node("bar", () => ({ market: " fast" }))],
        start: { edges: ["foo", "bar"] },
      }),
    );
    const err = await g.invoke({ my_key: "value", market: "DE" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidUpdateError);
    const e = err as InvalidUpdateError;
    expect(e.lc_error_code).toBe("INVALID_CONCURRENT_GRAPH_UPDATE");
    expect(e.message).toBe(
      'Invalid update for channel "market" with values [" fast"," slow"]: LastValue can only receive one value per step.' +
        "\n\nTroubleshooting URL: https://docs.langchain.com/oss/javascript/langgraph/INVALID_CONCURRENT_GRAPH_UPDATE/\n",
    );
    expect(e.graph).toBe("G");
    expect(e.field).toBe("market");
  });
});

describe("node return values (C-3, §2.5)", () => {
  it.each([
    [123, "number"],
    ["x", "string"],
    [[{ v: 1 }], "array"],
  ])("a node returning %j is an InvalidUpdateError naming the node", async (ret, kind) => {
    const g = compileGraph(graph({ fields: { v: null }, nodes: [node("a", () => ret)], start: { edges: ["a"] } }));
    const err = (await g.invoke({ v: 0 }).catch((e: unknown) => e)) as InvalidUpdateError;
    expect(err).toBeInstanceOf(InvalidUpdateError);
    expect(err.lc_error_code).toBe("INVALID_GRAPH_NODE_RETURN_VALUE");
    expect(err.message).toContain(
      `Expected node "a" to return an object or an array containing at least one Command object, received ${kind}`,
    );
    expect(err.node).toBe("a");
  });

  it("null and {} write nothing: no values chunk, updates {node:{}} (§8.3 #8)", async () => {
    const g = compileGraph(
      graph({
        fields: { v: null },
        nodes: [node("a", () => null, { edges: ["b"] }), node("b", () => ({}))],
        start: { edges: ["a"] },
      }),
    );
    const chunks = await collect(g.stream({ v: 1 }, { streamMode: ["values", "updates"] }));
    expect(chunks).toEqual([
      ["values", { v: 1 }],
      ["updates", { a: {} }],
      ["updates", { b: {} }],
    ]);
  });

  it("an unknown update key is an InvalidUpdateError naming graph, node and field (graphc's choice)", async () => {
    const n2 = nodeFactory("G", ["v"]);
    const g = compileGraph(
      graph({ fields: { v: null }, nodes: [n2("b", () => ({ v: 1, now: 123 }))], start: { edges: ["b"] } }),
    );
    const err = (await g.invoke({ v: 0 }).catch((e: unknown) => e)) as InvalidUpdateError;
    expect(err).toBeInstanceOf(InvalidUpdateError);
    expect([err.graph, err.node, err.field]).toEqual(["G", "b", "now"]);
  });
});

describe("undefined values in updates (C-4)", () => {
  it("are written like any other value; a y ?? x reducer keeps the old value; history matches", async () => {
    const saver = new MemorySaver();
    const g = compileGraph(
      graph({
        fields: { test: null, reducerField: (x: string, y: string | undefined) => y ?? x },
        defaults: () => ({ reducerField: "" }),
        nodes: [
          node("updateTest", () => ({ test: "test", reducerField: "should not be wiped" }), { edges: ["wipeFields"] }),
          node("wipeFields", () => ({ test: undefined, reducerField: undefined })),
        ],
        start: { edges: ["updateTest"] },
      }),
      { checkpointer: saver },
    );
    const cfg = { configurable: { thread_id: "c4" } };
    expect(await g.invoke({}, cfg)).toEqual({ test: undefined, reducerField: "should not be wiped" });
    const hist = [];
    for await (const s of g.getStateHistory(cfg)) hist.push(s);
    expect(hist.map((s) => [s.metadata?.source, s.metadata?.step, s.next])).toEqual([
      ["loop", 2, []],
      ["loop", 1, ["wipeFields"]],
      ["loop", 0, ["updateTest"]],
      ["input", -1, ["__start__"]],
    ]);
    expect(hist[1]!.values).toEqual({ test: "test", reducerField: "should not be wiped" });
    expect(hist[1]!.tasks[0]!.result).toEqual({ test: undefined, reducerField: undefined });
    expect(hist[2]!.values).toEqual({ reducerField: "" });
    expect(hist[3]!.values).toEqual({ reducerField: "" });
  });
});

describe("Overwrite (C-5, C-6)", () => {
  const build = (steps: unknown[], op: (a: never, b: never) => unknown, init: unknown) => {
    const names = steps.map((_, i) => `n${i}`);
    return compileGraph(
      graph({
        fields: { items: op },
        defaults: () => ({ items: init }),
        nodes: steps.map((s, i) =>
          node(names[i]!, () => ({ items: s }), { edges: i + 1 < steps.length ? [names[i + 1]!] : [] }),
        ),
        start: { edges: ["n0"] },
      }),
    );
  };
  it.each([
    ["add then Overwrite", [["a", "b"], new Overwrite(["replaced"])], ["replaced"]],
    ["wire form", [["a", "b"], { __overwrite__: ["replaced"] }], ["replaced"]],
    ["Overwrite([])", [["a"], new Overwrite([])], []],
    ["then add more", [["a"], new Overwrite(["x"]), ["y"]], ["x", "y"]],
  ])("%s", async (_, steps, expected) => {
    expect(await build(steps, concat as never, []).invoke({})).toEqual({ items: expected });
  });
  it("sum: add 5, reset to 0, add 3", async () => {
    expect(await build([5, new Overwrite(0), 3], sum as never, 0).invoke({})).toEqual({ items: 3 });
  });
  it("unit rules: values before are folded then replaced, later values ignored, two Overwrites throw", () => {
    const op = (a: string[], b: string[]) => a.concat(b);
    expect(fold("G", "k", true, ["s"], [["a"], new Overwrite(["o"]), ["later"]], op as never)).toEqual(["o"]);
    expect(fold("G", "k", false, undefined, [new Overwrite(["first"])], op as never)).toEqual(["first"]);
    expect(() => fold("G", "k", true, [], [new Overwrite([1]), new Overwrite([2])], op as never)).toThrow(
      /Invalid update for channel "k" with values .*Can receive only one Overwrite value per step\./,
    );
  });
  it("a reducer field without default stores its first write as is", () => {
    expect(fold("G", "k", false, undefined, ["value", " slow"], ((a: string, b: string) => a + b) as never)).toBe(
      "value slow",
    );
  });
});

describe("join barrier (NamedBarrierValue)", () => {
  it("keeps each source once, in arrival order, by node or by a checkpoint's name", () => {
    const spec = graph({
      name: "Barrier",
      fields: {},
      nodes: ["a", "b", "c"].map((n) => node(n, () => ({}))),
      start: { edges: ["a", "b"] },
      joins: [{ sources: ["b", "a"], target: "c" }],
    });
    const c = compile(spec);
    const barrier = new Barrier(c);
    expect(barrier.addNode(c.byName.get("b")!)).toBe(true);
    expect(barrier.add("b")).toBe(false);
    expect(barrier.addNode(c.byName.get("b")!)).toBe(false);
    expect(barrier.add("gone")).toBe(true);
    expect(barrier.add("gone")).toBe(false);
    expect(barrier.addNode(c.start)).toBe(true);
    expect(barrier.addNode(c.start)).toBe(false);
    expect(barrier.add("a")).toBe(true);
    expect(barrier.names).toEqual(["b", "gone", "__start__", "a"]);
    expect(barrier.size).toBe(4);
    barrier.clear();
    expect(barrier.size).toBe(0);
    expect(barrier.addNode(c.byName.get("a")!)).toBe(true);
    expect(barrier.addNode(c.byName.get("b")!)).toBe(true);
    expect(barrier.names).toEqual(["a", "b"]);
  });
});

/** `got`, a merge of `x`, is a new array equal to `want` (concat's result) index by index, holes and prototype too */
function expectConcat(got: unknown[], x: unknown[], want: unknown[]): void {
    expect(got).not.toBe(x);
    expect(got.length).toBe(want.length);
    expect(Object.getPrototypeOf(got)).toBe(Object.getPrototypeOf(want));
    for (let i = 0; i < want.length; i++) {
      expect(i in got).toBe(i in want);
      expect(got[i]).toBe(want[i]);
    }
}

describe("built-in reducers", () => {
  it("append concatenates and appends single elements", () => {
    expect(append([1], [2, 3])).toEqual([1, 2, 3]);
    expect(append([1], 2)).toEqual([1, 2]);
    expect(append(undefined, [1])).toEqual([1]);
    const a = [1];
    append(a, 2);
    expect(a).toEqual([1]);
  });
  it("append of two arrays is exactly concat, short or long, holes and subclasses included", () => {
    class Tagged<T> extends Array<T> {}
    const tagged = Tagged.from([1, 2]);
    const unspread = Object.assign([9], { [Symbol.isConcatSpreadable]: false });
    // eslint-disable-next-line no-sparse-arrays
    const holey = [1, , 3];
    const long = Array.from({ length: 40 }, (_, i) => i);
    const cases: [unknown[], unknown[]][] = [
      [[], []],
      [[1, 2], [3]],
      [holey, [4]],
      [[0], holey],
      [[undefined], [undefined]],
      [tagged, [3]],
      [[1], unspread],
      [long, [40]],
      [[1], long],
    ];
    for (const [x, y] of cases) {
      expectConcat(append(x, y), x, x.concat(y));
    }
  });
  it("a step's array writes into an append field fold exactly as concat, holes and subclasses included", () => {
    class Tagged<T> extends Array<T> {}
    const unspread = Object.assign([9], { [Symbol.isConcatSpreadable]: false });
    // eslint-disable-next-line no-sparse-arrays
    const holey = [1, , 3];
    const ones = Array.from({ length: 50 }, (_, i) => [i]);
    const long = Array.from({ length: 200 }, (_, i) => i);
    const cases: [unknown[], unknown[][]][] = [
      [[], ones],
      [[0, 1], [[2], [], [3, 4]]],
      [holey, ones],
      [[0], [[1], holey, [4]]],
      [[undefined], [[undefined], [undefined]]],
      [Tagged.from([1, 2]), [[3], [4]]],
      [[1], [[2], unspread]],
      [long, [[1], [2]]],
      [[], [long, [1]]],
    ];
    for (const [x, ys] of cases) {
      expectConcat(foldAppend("G", "f", x, ys), x, x.concat(...ys));
    }
  });
  it("sum, merge (shallow), union (ordered dedupe)", () => {
    expect(sum(2, 3)).toBe(5);
    expect(merge({ a: 1, b: { x: 1 } }, { b: { y: 2 } } as never)).toEqual({ a: 1, b: { y: 2 } });
    expect(union(["a", "b"], ["b", "c", "c", "a", "d"])).toEqual(["a", "b", "c", "d"]);
    expect(union(["a"], "b")).toEqual(["a", "b"]);
  });
});

describe("messages reducer (C-7)", () => {
  it("is pure: the same (state, update) twice gives equal, separate lists (no result is cached between calls)", () => {
    const left = [{ id: "1", content: "a" }];
    const update = [{ id: "2", content: "b" }];
    const first = messages(left, update);
    expect(first).toEqual([
      { id: "1", content: "a" },
      { id: "2", content: "b" },
    ]);
    const second = messages(left, update);
    expect(second).not.toBe(first);
    expect(second).toEqual(first);
    expect(messages(first, update)).toEqual([
      { id: "1", content: "a" },
      { id: "2", content: "b" },
    ]);
    expect(messages([{ id: "9", content: "z" }], update)).toEqual([
      { id: "9", content: "z" },
      { id: "2", content: "b" },
    ]);
    expect(messages(left, [{ id: "2", content: "c" }])).toEqual([
      { id: "1", content: "a" },
      { id: "2", content: "c" },
    ]);
    expect(left).toEqual([{ id: "1", content: "a" }]);
  });
  it("two histories merged in turn, and a merge into an older list of a history, give what fresh lists give", () => {
    const msg = (id: string) => ({ id, content: id });
    let a = messages([], [msg("a0")]);
    let b = messages([], [msg("b0")]);
    const aOld = a;
    for (let i = 1; i <= 3; i++) {
      a = messages(a, [msg(`a${i}`)]);
      b = messages(b, [msg(`b${i}`)]);
    }
    expect(a.map((m) => m.id)).toEqual(["a0", "a1", "a2", "a3"]);
    expect(b.map((m) => m.id)).toEqual(["b0", "b1", "b2", "b3"]);
    // aOld's history went on without it: an id added later is new to aOld, one of aOld is replaced
    expect(messages(aOld, [msg("a2")]).map((m) => m.id)).toEqual(["a0", "a2"]);
    expect(messages(aOld, [{ id: "a0", content: "x" }])).toEqual([{ id: "a0", content: "x" }]);
    expect(messages(a, [{ id: "a3", content: "x" }, msg("a4")]).map((m) => m.content)).toEqual(["a0", "a1", "a2", "x", "a4"]);
    expect(aOld.map((m) => m.id)).toEqual(["a0"]);
  });
  it("adds one or many, assigning uuid ids that are written back", () => {
    const m = { role: "user", content: "hi" } as { role: string; content: string; id?: string };
    const out = messages([], m);
    expect(out).toHaveLength(1);
    expect(m.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(
      messages(out, [
        { id: "b", role: "assistant", content: "x" },
        { id: "c", role: "user", content: "y" },
      ]).map((x) => x.id),
    ).toEqual([m.id, "b", "c"]);
  });
  it("same id replaces in place; duplicate ids in the update: last wins", () => {
    const left = [
      { id: "1", content: "a" },
      { id: "2", content: "b" },
    ];
    expect(messages(left, { id: "1", content: "A" })).toEqual([
      { id: "1", content: "A" },
      { id: "2", content: "b" },
    ]);
    expect(
      messages(left, [
        { id: "3", content: "x" },
        { id: "3", content: "y" },
      ]),
    ).toEqual([...left, { id: "3", content: "y" }]);
    expect(left).toEqual([
      { id: "1", content: "a" },
      { id: "2", content: "b" },
    ]);
  });
  it("RemoveMessage deletes; remove then re-add keeps the newest; unknown id throws", () => {
    const left = [
      { id: "1", content: "a" },
      { id: "2", content: "b" },
    ];
    expect(messages(left, new RemoveMessage("1"))).toEqual([{ id: "2", content: "b" }]);
    expect(messages(left, [new RemoveMessage("1"), { id: "1", content: "again" }])).toEqual([
      { id: "1", content: "again" },
      { id: "2", content: "b" },
    ]);
    expect(() => messages(left, new RemoveMessage("zz"))).toThrow(
      "Attempting to delete a message with an ID that doesn't exist ('zz')",
    );
  });
  it("REMOVE_ALL_MESSAGES keeps only what follows it", () => {
    const left = [{ id: "1", content: "a" }];
    expect(
      messages(left, [{ id: "2", content: "b" }, new RemoveMessage(REMOVE_ALL_MESSAGES), { id: "3", content: "c" }]),
    ).toEqual([{ id: "3", content: "c" }]);
  });
  it("keeps the update's message objects and never writes to the update's list", () => {
    const plain = { id: "p", role: "assistant", content: "p" };
    const noId = { role: "user", content: "n" } as { role: string; content: string; id?: string };
    const update: unknown[] = [plain, "hi", noId, ["ai", "yo"]];
    const out = messages([{ id: "0", content: "z" }], update);
    expect(update).toEqual([plain, "hi", noId, ["ai", "yo"]]);
    expect(out[1]).toBe(plain);
    expect(out[2]).toMatchObject({ role: "user", content: "hi" });
    expect(out[3]).toBe(noId);
    expect(noId.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(out[4]).toMatchObject({ role: "assistant", content: "yo" });
    expect(new Set(out.map((m) => m.id)).size).toBe(5);
    // a list of plain messages with ids only: their objects, in a new list
    const ready = [{ id: "a", content: "a" }];
    const merged = messages(out, ready);
    expect(merged).not.toBe(ready);
    expect(merged[5]).toBe(ready[0]);
    expect(ready).toEqual([{ id: "a", content: "a" }]);
  });
  it("strings become user messages; lineage index stays correct across branches of history", () => {
    const base = messages([], ["a", "b"]);
    const x = messages(base, { id: "x", content: "x" });
    const y = messages(base, { id: "y", content: "y" });
    expect(messages(y, { id: "x", content: "x2" }).map((m) => m.content)).toEqual(["a", "b", "y", "x2"]);
    expect(messages(x, { id: "x", content: "x3" }).map((m) => m.content)).toEqual(["a", "b", "x3"]);
  });
});

describe("several updates from one task (C-9, C-10)", () => {
  it("a list of Commands: all updates apply; updates chunk is a list", async () => {
    const g = compileGraph(
      graph({
        fields: { value: (a: string, b: string) => a + b },
        nodes: [
          node("node_a", () => [new Command({ update: { value: "a1" } }), new Command({ update: { value: "a2" } })], {
            edges: ["node_b"],
          }),
          node("node_b", () => ({ value: "b" })),
        ],
        start: { edges: ["node_a"] },
      }),
    );
    expect(await g.invoke({ value: "" })).toEqual({ value: "a1a2b" });
    expect(await collect(g.stream({ value: "" }))).toEqual([
      { node_a: [{ value: "a1" }, { value: "a2" }] },
      { node_b: { value: "b" } },
    ]);
  });
  it("[key, value] tuples write one field twice; tasks stream shows $writes", async () => {
    const join = (a: string, b: string) => [a, b].filter(Boolean).join(", ");
    const g = compileGraph(
      graph({
        fields: { foo: join },
        defaults: () => ({ foo: "" }),
        nodes: [
          node(
            "one",
            () =>
              new Command({
                update: [
                  ["foo", "one.0"],
                  ["foo", "one.1"],
                ],
              }),
            { edges: ["two"] },
          ),
          node("two", () => ({ foo: "two" })),
        ],
        start: { edges: ["one"] },
      }),
    );
    const chunks = (await collect(g.stream({ foo: "input" }, { streamMode: ["updates", "tasks"] }))) as [
      string,
      Record<string, unknown>,
    ][];
    expect(chunks[0]).toEqual([
      "tasks",
      { id: expect.any(String), name: "one", input: { foo: "input" }, triggers: ["branch:to:one"], interrupts: [] },
    ]);
    expect(chunks[1]).toEqual(["updates", { one: [{ foo: "one.0" }, { foo: "one.1" }] }]);
    expect(chunks[2]).toEqual([
      "tasks",
      { id: chunks[0]![1].id, name: "one", result: { foo: { $writes: ["one.0", "one.1"] } }, interrupts: [] },
    ]);
    expect(chunks[3]![1]).toMatchObject({ name: "two", input: { foo: "input, one.0, one.1" } });
    // without a checkpointer a task's id is random (task.ts): uuid-shaped, kept by the task, one per task
    expect(chunks[0]![1].id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(chunks[3]![1].id).not.toBe(chunks[0]![1].id);
    expect(await g.invoke({ foo: "input" })).toEqual({ foo: "input, one.0, one.1, two" });
  });
});
