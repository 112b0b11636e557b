/** Reference §8 groups D (Send) and E (Command), §1.8, §1.9. */
import { describe, expect, it } from "vitest";
import { Command, InvalidUpdateError, Send, compileGraph, type GraphSpec, type Values } from "@graphc/runtime";
import { concat, graph, nodeFactory, sleep } from "./helpers.ts";

describe("Send (group D)", () => {
  it("map-reduce: each packet is a task receiving its args exactly as sent (C-30)", async () => {
    const received: unknown[] = [];
    const n = nodeFactory("G", ["subjects", "jokes"]);
    const g = compileGraph(
      graph({
        fields: { subjects: null, jokes: concat as never },
        defaults: () => ({ jokes: [] }),
        nodes: [
          n("generate_joke", (arg: { subjects: string[] }) => {
            received.push(arg);
            return { jokes: [`Joke about ${arg.subjects[0]}`] };
          }),
        ],
        start: { branches: [(s) => (s.subjects as string[]).map((x) => new Send("generate_joke", { subjects: [x] }))] },
      }),
    );
    expect(await g.invoke({ subjects: ["cats", "dogs"] })).toEqual({
      subjects: ["cats", "dogs"],
      jokes: ["Joke about cats", "Joke about dogs"],
    });
    expect(received).toEqual([{ subjects: ["cats"] }, { subjects: ["dogs"] }]);
  });

  it("args need not be objects and are not projected (§1.8)", async () => {
    const n = nodeFactory("G", ["items"]);
    const g = compileGraph(
      graph({
        fields: { items: concat as never },
        nodes: [n("w", (x: number) => ({ items: [x * 10] }))],
        start: { branches: [() => [new Send("w", 1), new Send("w", 2)]] },
      }),
    );
    expect(await g.invoke({ items: [] })).toEqual({ items: [10, 20] });
  });

  it("conditional edge after Send: the next node runs once (C-31)", async () => {
    const n = nodeFactory("G", ["items"]);
    const g = compileGraph(
      graph({
        fields: { items: concat as never },
        nodes: [
          n("1", () => ({ items: ["1"] }), { branches: [(s) => [new Send("2", s), new Send("2", s)]] }),
          n("2", () => ({ items: ["2"] }), { branches: [() => "3"] }),
          n("3", () => ({ items: ["3"] })),
        ],
        start: { edges: ["1"] },
      }),
    );
    expect(await g.invoke({ items: ["0"] })).toEqual({ items: ["0", "1", "2", "2", "3"] });
  });

  it("ordering of concurrent Sends (C-32)", async () => {
    const n = nodeFactory("G", ["items"]);
    const g = compileGraph(
      graph({
        fields: { items: concat as never },
        nodes: [
          n("1", () => ({ items: ["1"] }), { branches: [() => [new Send("2", 1), new Send("2", 2), "3.1"]] }),
          n("1.1", () => ({ items: ["1.1"] }), { branches: [() => [new Send("2", 3), new Send("2", 4)]] }),
          n(
            "2",
            async (x: number) => {
              await sleep(5 - x);
              return { items: [`2|${x}`] };
            },
            { branches: [() => "3"] },
          ),
          n("3", () => ({ items: ["3"] })),
          n("3.1", () => ({ items: ["3.1"] })),
        ],
        start: { edges: ["1", "1.1"] },
      }),
    );
    expect(await g.invoke({ items: ["0"] })).toEqual({
      items: ["0", "1", "1.1", "3.1", "2|1", "2|2", "2|3", "2|4", "3"],
    });
  });

  it.each([
    ["__end__", "Cannot send a packet to the END node"],
    ["nope", 'Invalid node name "nope" in Send packet'],
  ])("a Send to %s is refused", async (target, message) => {
    const n = nodeFactory("G", ["items"]);
    const g = compileGraph(
      graph({
        fields: { items: concat as never },
        nodes: [n("a", () => null)],
        start: { branches: [() => new Send(target, 1)] },
      }),
    );
    const e = await g.invoke({ items: [] }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(InvalidUpdateError);
    expect((e as Error).message).toBe(message);
  });

  it("map-reduce through Command.goto (C-34)", async () => {
    const n = nodeFactory("G", ["foo", "tasks"]);
    const g = compileGraph(
      graph({
        fields: { foo: null, tasks: concat as never },
        defaults: () => ({ tasks: [] }),
        nodes: [
          n(
            "map",
            () => new Command({ goto: [0, 1, 2].map((index) => new Send("task", { index })), update: { foo: "map" } }),
            { ends: ["task"] },
          ),
          n("task", (a: { index: number }) => ({ tasks: [a.index] })),
        ],
        start: { edges: ["map"] },
      }),
    );
    expect(await g.invoke({})).toEqual({ foo: "map", tasks: [0, 1, 2] });
  });
});

describe("Command (group E)", () => {
  const n = nodeFactory("G", ["log", "count"]);
  it("goto plus static edges: both fire, each target once per step (§1.9)", async () => {
    const g = compileGraph(
      graph({
        fields: { log: concat as never, count: null },
        nodes: [
          n("a", () => new Command({ goto: ["b", "c"], update: { log: ["a"] } }), { edges: ["b"], ends: ["b", "c"] }),
          n("b", () => ({ log: ["b"] })),
          n("c", () => ({ log: ["c"] })),
        ],
        start: { edges: ["a"] },
      }),
    );
    expect(await g.invoke({ log: [] })).toEqual({ log: ["a", "b", "c"] });
  });

  it("a Command or Send made by another copy of the runtime is recognised by its tag", async () => {
    const g = compileGraph(
      graph({
        fields: { log: concat as never, count: null },
        nodes: [
          n(
            "a",
            () => ({ lg_name: "Command", update: { log: ["a"] }, goto: ["b", { lg_name: "Send", node: "c", arg: 1 }] }),
            {
              ends: ["b", "c"],
            },
          ),
          n("b", () => ({ log: ["b"] })),
          n("c", (x: number) => ({ log: [`c${x}`] })),
        ],
        start: { edges: ["a"] },
      }),
    );
    expect(await g.invoke({ log: [] })).toEqual({ log: ["a", "b", "c1"] });
  });

  it("goto END (C-42)", async () => {
    const g = compileGraph(
      graph({
        fields: { log: concat as never, count: null },
        nodes: [n("a", () => new Command({ update: { count: 1 }, goto: "__end__" }), { ends: ["__end__"] })],
        start: { edges: ["a"] },
      }),
    );
    expect(await g.invoke({ log: [] })).toEqual({ log: [], count: 1 });
  });

  it("goto outside the declared targets or to an unknown node is an InvalidUpdateError", async () => {
    const mk = (goto: string) =>
      compileGraph(
        graph({
          fields: { log: concat as never, count: null },
          nodes: [n("a", () => new Command({ goto }), { ends: ["b"] }), n("b", () => null), n("c", () => null)],
          start: { edges: ["a"] },
        }),
      );
    await expect(mk("c").invoke({ log: [] })).rejects.toMatchObject({ name: "InvalidUpdateError", node: "a" });
    await expect(mk("zz").invoke({ log: [] })).rejects.toThrow('Command.goto from node "a" names unknown node "zz"');
  });

  it("Command.PARENT at the root: There is no parent graph.", async () => {
    const g = compileGraph(
      graph({
        fields: { log: concat as never, count: null },
        nodes: [n("a", () => new Command({ graph: Command.PARENT, update: { count: 1 } }))],
        start: { edges: ["a"] },
      }),
    );
    await expect(g.invoke({ log: [] })).rejects.toThrow("There is no parent graph.");
    await expect(g.invoke(new Command({ graph: Command.PARENT }))).rejects.toThrow("There is no parent graph.");
    await expect(g.invoke(new Command({}))).rejects.toThrow("Received empty Command input");
  });

  describe("Command.PARENT from a subgraph (C-35, §8.3 #11)", () => {
    const build = (goto: string) => {
      const calls: string[] = [];
      const cn = nodeFactory("Child", ["foo", "list"]);
      const child: GraphSpec = graph({
        name: "Child",
        fields: { foo: null, list: concat as never },
        nodes: [
          cn("s1", () => ({ list: ["s1"] }), { edges: ["s2"] }),
          cn("s2", () => {
            calls.push("Called A");
            return new Command({ update: { foo: "a", list: ["cmd"] }, goto, graph: Command.PARENT });
          }),
        ],
        start: { edges: ["s1"] },
      });
      const pn = nodeFactory("Parent", ["foo", "list"]);
      const parent = graph({
        name: "Parent",
        fields: { foo: (a: string, b: string) => `${a}|${b}`, list: concat as never },
        nodes: [
          pn("sub", (input: Values, ctx) => ctx.runSubgraph(child, input), {
            subgraph: child,
            ends: ["nodeB", "nodeC"],
          }),
          pn("nodeB", () => {
            calls.push("Called B");
            return { foo: "b" };
          }),
          pn("nodeC", () => {
            calls.push("Called C");
            return { foo: "c" };
          }),
        ],
        start: { edges: ["sub"] },
      });
      return { g: compileGraph(parent), calls };
    };
    it("routes in the parent and carries only the Command's update", async () => {
      const b = build("nodeB");
      expect(await b.g.invoke({ list: [] })).toEqual({ foo: "a|b", list: ["cmd"] });
      expect(b.calls).toEqual(["Called A", "Called B"]);
      const c = build("nodeC");
      expect(await c.g.invoke({ list: [] })).toEqual({ foo: "a|c", list: ["cmd"] });
    });
  });
});
