/** Reference §8 group F: interrupts, checkpoints, pending writes, history, replay and fork (MemorySaver). */
import { describe, expect, it } from "vitest";
import {
  Command,
  GraphValueError,
  MemorySaver,
  Overwrite,
  RemoveMessage,
  Send,
  compileGraph,
  messages,
  type StateSnapshot,
  type Values,
} from "@graphc/runtime";
import { concat, graph, nodeFactory } from "./helpers.ts";
import { installPolicies } from "@graphc/runtime/install";

// hand-written specs with node policies install them, as the generated module of such a graph does
installPolicies();

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}
const thread = (id: string) => ({ configurable: { thread_id: id } });

describe("dynamic interrupt (C-43)", () => {
  const build = (calls = { n: 0 }) => {
    const n = nodeFactory("G", ["my_key", "market"]);
    return graph({
      fields: { my_key: (a: string, b: string) => a + b, market: null },
      nodes: [
        n(
          "tool_two",
          (_: Values, ctx) => {
            calls.n++;
            return { my_key: ctx.interrupt<string>("Just because...") };
          },
          { retry: { maxAttempts: 3, initialInterval: 1, jitter: false } },
        ),
      ],
      start: { edges: ["tool_two"] },
    });
  };
  const input = { my_key: "value ⛰️", market: "DE" };

  it("needs a checkpointer (not retried) and a thread_id", async () => {
    const calls = { n: 0 };
    const e = await compileGraph(build(calls))
      .invoke(input)
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(GraphValueError);
    expect((e as Error).message).toMatch(/^No checkpointer set/);
    expect(calls.n).toBe(1);
    await expect(compileGraph(build(), { checkpointer: new MemorySaver() }).invoke(input)).rejects.toThrow(/thread_id/);
  });

  it("interrupts, reports next/tasks, resumes with Command({resume}); updateState(null, END)", async () => {
    const saver = new MemorySaver();
    const g = compileGraph(build(), { checkpointer: saver });
    const r = await g.invoke(input, thread("1"));
    expect(r).toEqual({
      my_key: "value ⛰️",
      market: "DE",
      __interrupt__: [{ id: expect.stringMatching(/^[0-9a-f]{32}$/), value: "Just because..." }],
    });
    const hist = await collect(g.getStateHistory(thread("1")));
    expect(hist.map((s) => [s.metadata?.source, s.metadata?.step])).toEqual([
      ["loop", 0],
      ["input", -1],
    ]);
    // LangGraph's snapshots carry the thread in their metadata (the stored metadata does not)
    expect(hist.map((s) => s.metadata?.thread_id)).toEqual(["1", "1"]);
    const st = await g.getState(thread("1"));
    expect(st.metadata).toMatchObject({ source: "loop", step: 0, thread_id: "1" });
    expect(st.next).toEqual(["tool_two"]);
    expect(st.tasks[0]!.interrupts).toEqual(r.__interrupt__);
    expect(await collect(g.stream(new Command({ resume: " this is great" }), thread("1")))).toEqual([
      { tool_two: { my_key: " this is great" } },
    ]);
    expect((await g.getState(thread("1"))).values).toEqual({ my_key: "value ⛰️ this is great", market: "DE" });

    await g.invoke(input, thread("2"));
    await g.updateState(thread("2"), null, "__end__");
    const after = await g.getState(thread("2"));
    expect([after.next, after.tasks, after.metadata?.source, after.metadata?.step]).toEqual([[], [], "update", 1]);
  });

  it("durability exit keeps one checkpoint", async () => {
    const g = compileGraph(build(), { checkpointer: new MemorySaver() });
    await g.invoke(input, { ...thread("x"), durability: "exit" });
    expect(await collect(g.getStateHistory(thread("x")))).toHaveLength(1);
    expect((await g.invoke(new Command({ resume: "!" }), { ...thread("x"), durability: "exit" })).my_key).toBe(
      "value ⛰️!",
    );
  });
});

describe("several interrupts in one node (C-46)", () => {
  it.each(["value", "map"])("are resumed in order (resume by %s)", async (how) => {
    let runs = 0;
    const n = nodeFactory("G", ["myKey"]);
    const g = compileGraph(
      graph({
        fields: { myKey: (a: string, b: string) => a + b },
        nodes: [
          n("node", (_: Values, ctx) => {
            runs++;
            const a = ctx.interrupt<string>("first");
            const b = ctx.interrupt<string>("second");
            return { myKey: a + b };
          }),
        ],
        start: { edges: ["node"] },
      }),
      { checkpointer: new MemorySaver() },
    );
    const t = thread(how);
    const r1 = await g.invoke({ myKey: "DE" }, t);
    const id = r1.__interrupt__![0]!.id!;
    const resume = (v: string) => new Command({ resume: how === "map" ? { [id]: v } : v });
    const r2 = await g.invoke(resume("answer 1"), t);
    expect(r2.__interrupt__).toEqual([{ id, value: "second" }]);
    expect(await g.invoke(resume(" answer 2"), t)).toEqual({ myKey: "DEanswer 1 answer 2" });
    expect(runs).toBe(3);
  });
});

describe("pending writes (C-48)", () => {
  it("tasks that succeeded are not re-run on resume", async () => {
    const calls = { one: 0, two: 0 };
    let fixed = false;
    const n = nodeFactory("G", ["value"]);
    const g = compileGraph(
      graph({
        fields: { value: ((a: number, b: number) => a + b) as never },
        nodes: [
          n("one", () => (calls.one++, { value: 2 })),
          n(
            "two",
            () => {
              calls.two++;
              if (!fixed) throw new Error("I am bad");
              return { value: 3 };
            },
            { retry: { maxAttempts: 2, initialInterval: 1, jitter: false } },
          ),
        ],
        start: { edges: ["one", "two"] },
      }),
      { checkpointer: new MemorySaver() },
    );
    const t = thread("pw");
    await expect(g.invoke({ value: 1 }, t)).rejects.toThrow('Node "two" of graph "G" failed: I am bad');
    expect(calls).toEqual({ one: 1, two: 2 });
    const st = await g.getState(t);
    expect(st.next).toEqual(["two"]);
    expect(st.values).toEqual({ value: 3 });
    expect(st.tasks.find((x) => x.name === "two")!.error).toEqual({ message: "I am bad", name: "Error" });
    expect(st.metadata).toMatchObject({ source: "loop", step: 0 });
    expect((await g.getState(st.config)).values).toEqual({ value: 1 });
    await expect(g.invoke(null, t)).rejects.toThrow("I am bad");
    expect(calls).toEqual({ one: 1, two: 4 });
    fixed = true;
    expect(await g.invoke(null, t)).toEqual({ value: 6 });
    expect(await collect(g.getStateHistory(t))).toHaveLength(3);
  });
});

describe("static breakpoints", () => {
  const build = (before: string[] = [], after: string[] = []) => {
    const n = nodeFactory("G", ["foo"]);
    return graph({
      fields: { foo: null },
      nodes: [
        n("node1", (s: { foo: string }) => ({ foo: `${s.foo}|node-1` }), { edges: ["node2"] }),
        n("node2", (s: { foo: string }) => ({ foo: `${s.foo}|node-2` })),
      ],
      start: { edges: ["node1"] },
      interruptBefore: before,
      interruptAfter: after,
    });
  };
  it("interrupt before, resumed by Command update (C-41)", async () => {
    const g = compileGraph(build(["node1"]), { checkpointer: new MemorySaver() });
    expect(await g.invoke({ foo: "abc" }, thread("b"))).toEqual({ foo: "abc", __interrupt__: [] });
    expect(await g.invoke(new Command({ update: { foo: "def" } }), thread("b"))).toEqual({ foo: "def|node-1|node-2" });
  });
  it("per-call interruptAfter and '*'; invoke(null) resumes without firing again", async () => {
    const g = compileGraph(build(), { checkpointer: new MemorySaver() });
    expect(await g.invoke({ foo: "a" }, { ...thread("c"), interruptAfter: ["node1"] })).toEqual({
      foo: "a|node-1",
      __interrupt__: [],
    });
    expect((await g.getState(thread("c"))).next).toEqual(["node2"]);
    expect(await g.invoke(null, { ...thread("c"), interruptAfter: ["node1"] })).toEqual({ foo: "a|node-1|node-2" });
    const t = thread("d");
    expect(await g.invoke({ foo: "x" }, { ...t, interruptBefore: "*" })).toEqual({ __interrupt__: [], foo: "x" });
    expect(await g.invoke(null, { ...t, interruptBefore: "*" })).toEqual({ foo: "x|node-1", __interrupt__: [] });
    expect(await g.invoke(null, { ...t, interruptBefore: "*" })).toEqual({ foo: "x|node-1|node-2" });
  });
  it("unknown breakpoint nodes are refused", () => {
    expect(() => compileGraph(build(), { interruptBefore: ["nope"] })).toThrow("Interrupt node `nope` is not present");
  });
});

describe("goto into an interrupt (C-40)", () => {
  it("Command input with goto and update, then resume with update", async () => {
    const n = nodeFactory("G", ["messages"]);
    const g = compileGraph(
      graph({
        fields: { messages: concat as never },
        nodes: [
          n("router", () => new Command({ goto: "__end__" }), { ends: ["interrupt", "__end__"] }),
          n("interrupt", (_: Values, ctx) => ({ messages: [`interrupt: ${ctx.interrupt<string>("?")}`] })),
        ],
        start: { edges: ["router"] },
      }),
      { checkpointer: new MemorySaver() },
    );
    const t = thread("goto");
    expect(await g.invoke({ messages: ["input"] }, t)).toEqual({ messages: ["input"] });
    expect((await g.getState(t)).next).toEqual([]);
    await g.invoke(new Command({ goto: "interrupt", update: { messages: ["update"] } }), t);
    let st = await g.getState(t);
    expect([st.next, st.values]).toEqual([["interrupt"], { messages: ["input", "update"] }]);
    await g.invoke(new Command({ resume: "resume", update: { messages: ["update: resume"] } }), t);
    st = await g.getState(t);
    expect(st.values).toEqual({ messages: ["input", "update", "update: resume", "interrupt: resume"] });
  });
});

describe("replay and fork (C-50)", () => {
  it("replays from a checkpoint, runs nothing from the last one, forks with updateState", async () => {
    const runs: string[] = [];
    const n = nodeFactory("G", ["value"]);
    const g = compileGraph(
      graph({
        fields: { value: concat as never },
        defaults: () => ({ value: [] }),
        nodes: [
          n("node_a", () => (runs.push("a"), { value: ["a"] }), { edges: ["node_b"] }),
          n("node_b", () => (runs.push("b"), { value: ["b"] })),
        ],
        start: { edges: ["node_a"] },
      }),
      { checkpointer: new MemorySaver() },
    );
    const t = thread("tt");
    expect(await g.invoke({}, t)).toEqual({ value: ["a", "b"] });
    const hist = await collect(g.getStateHistory(t));
    const beforeB = hist.find((s) => s.next[0] === "node_b")!;
    runs.length = 0;
    expect(await g.invoke(null, beforeB.config)).toEqual({ value: ["a", "b"] });
    expect(runs).toEqual(["b"]);
    const hist2 = await collect(g.getStateHistory(t));
    expect(hist2.slice(0, 2).map((s) => s.metadata?.source)).toEqual(["loop", "fork"]);
    expect(hist2[1]!.parentConfig?.configurable?.checkpoint_id).toBe(beforeB.config.configurable?.checkpoint_id);
    expect(hist2.length).toBe(hist.length + 2);

    runs.length = 0;
    await g.invoke(null, hist[0]!.config);
    expect(runs).toEqual([]);

    const fork = await g.updateState(beforeB.config, { value: ["x"] });
    expect(await g.invoke(null, fork)).toEqual({ value: ["a", "x", "b"] });
  });

  it("updateState runs the node's edges: next becomes its successors", async () => {
    const n = nodeFactory("G", ["l"]);
    const g = compileGraph(
      graph({
        fields: { l: concat as never },
        nodes: [n("a", () => ({ l: ["a"] }), { edges: ["b"] }), n("b", () => ({ l: ["b"] }))],
        start: { edges: ["a"] },
      }),
      { checkpointer: new MemorySaver() },
    );
    const t = thread("us");
    await g.invoke({ l: [] }, t);
    await g.updateState(t, { l: ["u2"] }, "a");
    const st = await g.getState(t);
    expect([st.next, st.values, st.metadata?.source]).toEqual([["b"], { l: ["a", "b", "u2"] }, "update"]);
    await expect(g.updateState(t, { l: [] }, "zz")).rejects.toThrow('Node "zz" does not exist');
  });
});

describe("interrupts inside subgraphs (C-52, C-47, C-54, C-57)", () => {
  const build = (calls: Record<string, number>) => {
    const inn = nodeFactory("Inner", ["myKey", "myOtherKey"]);
    const bump = (k: string) => (calls[k] = (calls[k] ?? 0) + 1);
    const inner = graph({
      name: "Inner",
      fields: { myKey: null, myOtherKey: null },
      nodes: [
        inn("inner1", (s: { myKey: string }) => (bump("inner1"), { myKey: `${s.myKey} here`, myOtherKey: s.myKey }), {
          edges: ["inner2"],
        }),
        inn("inner2", (s: { myKey: string }, ctx) => {
          bump("inner2");
          const answer = ctx.interrupt<string>("continue?");
          return { myKey: `${s.myKey} and ${answer}` };
        }),
      ],
      start: { edges: ["inner1"] },
    });
    const out = nodeFactory("Outer", ["myKey"]);
    return graph({
      name: "Outer",
      fields: { myKey: null },
      nodes: [
        out("outer1", (s: { myKey: string }) => (bump("outer1"), { myKey: `hi ${s.myKey}` }), { edges: ["inner"] }),
        out(
          "inner",
          (s: { myKey: string }, ctx) => (
            bump("inner"),
            ctx.runSubgraph(inner, { myKey: s.myKey }).then((o) => o && { myKey: o.myKey })
          ),
          {
            subgraph: inner,
            edges: ["outer2"],
          },
        ),
        out("outer2", (s: { myKey: string }) => ({ myKey: `${s.myKey} and back again` })),
      ],
      start: { edges: ["outer1"] },
    });
  };

  it.each(["sync", "async", "exit"] as const)(
    "surface at the root and resume in place (durability %s)",
    async (durability) => {
      const calls: Record<string, number> = {};
      const g = compileGraph(build(calls), { checkpointer: new MemorySaver() });
      const t = { ...thread(`nested-${durability}`), durability };
      const r = await g.invoke({ myKey: "my value" }, t);
      expect(r).toEqual({ myKey: "hi my value", __interrupt__: [{ id: expect.any(String), value: "continue?" }] });
      const st = await g.getState(t, { subgraphs: true });
      expect(st.next).toEqual(["inner"]);
      expect(st.tasks[0]!.interrupts).toEqual(r.__interrupt__);
      const child = st.tasks[0]!.state as StateSnapshot;
      expect(child.values).toEqual({ myKey: "hi my value here", myOtherKey: "hi my value" });
      expect(child.next).toEqual(["inner2"]);
      expect(child.config.configurable?.checkpoint_ns).toMatch(/^inner:/);
      expect(child.metadata?.parents?.[""]).toBe(st.config.configurable?.checkpoint_id);
      expect(await g.invoke(new Command({ resume: "there" }), t)).toEqual({
        myKey: "hi my value here and there and back again",
      });
      expect(calls).toEqual({ outer1: 1, inner: 2, inner1: 1, inner2: 2 });
    },
  );

  it("with subgraphs:true the interrupt is reported at every level with the same id", async () => {
    const g = compileGraph(build({}), { checkpointer: new MemorySaver() });
    const chunks = (await collect(g.stream({ myKey: "v" }, { ...thread("ns"), subgraphs: true }))) as [
      string[],
      Values,
    ][];
    const ints = chunks.filter(([, p]) => "__interrupt__" in p);
    expect(ints.map(([ns]) => ns.length)).toEqual([1, 0]);
    expect(ints[0]![0][0]).toMatch(/^inner:/);
    expect(ints[0]![1]).toEqual(ints[1]![1]);
  });

  it("five parallel subgraph interrupts resumed by one id map (C-47)", async () => {
    const cn = nodeFactory("Child", ["prompt", "humanInputs"]);
    const child = graph({
      name: "Child",
      fields: { prompt: null, humanInputs: concat as never },
      output: ["humanInputs"],
      nodes: [
        cn("ask", (s: { prompt: string }, ctx) => ({ humanInputs: [`response: ${ctx.interrupt<string>(s.prompt)}`] })),
      ],
      start: { edges: ["ask"] },
    });
    const pn = nodeFactory("P", ["prompts", "humanInputs"]);
    const g = compileGraph(
      graph({
        name: "P",
        fields: { prompts: null, humanInputs: concat as never },
        defaults: () => ({ humanInputs: [] }),
        nodes: [
          pn("childGraph", (a: { prompt: string }, ctx) => ctx.runSubgraph(child, { prompt: a.prompt }), {
            subgraph: child,
          }),
        ],
        start: { branches: [(s) => (s.prompts as string[]).map((prompt) => new Send("childGraph", { prompt }))] },
      }),
      { checkpointer: new MemorySaver() },
    );
    const t = thread("five");
    const r = await g.invoke({ prompts: ["a", "b", "c", "d", "e"] }, t);
    const ints = r.__interrupt__!;
    expect(ints.map((i) => i.value)).toEqual(["a", "b", "c", "d", "e"]);
    const st = await g.getState(t);
    expect(st.tasks.flatMap((x) => x.interrupts)).toEqual(ints);
    const map = Object.fromEntries(ints.map((i) => [i.id!, i.value]));
    expect((await g.invoke(new Command({ resume: map }), t)).humanInputs).toEqual(
      ["a", "b", "c", "d", "e"].map((x) => `response: ${x}`),
    );
  });
});

describe("checkpoints stream mode (§6)", () => {
  it("emits one chunk per saved checkpoint with config, values, metadata, next and tasks", async () => {
    const n = nodeFactory("G", ["l"]);
    const g = compileGraph(
      graph({
        fields: { l: concat as never },
        nodes: [n("a", () => ({ l: ["a"] }), { edges: ["b"] }), n("b", () => ({ l: ["b"] }))],
        start: { edges: ["a"] },
      }),
      { checkpointer: new MemorySaver() },
    );
    const cps = (await collect(g.stream({ l: [] }, { ...thread("cp"), streamMode: "checkpoints" }))) as {
      config: { configurable: Record<string, unknown> };
      values: Values;
      metadata: { source: string; step: number };
      next: string[];
      tasks: { name: string; path: unknown[] }[];
      parentConfig?: unknown;
    }[];
    expect(cps.map((c) => [c.metadata.source, c.metadata.step, c.next, c.values])).toEqual([
      ["input", -1, ["__start__"], {}],
      ["loop", 0, ["a"], { l: [] }],
      ["loop", 1, ["b"], { l: ["a"] }],
      ["loop", 2, [], { l: ["a", "b"] }],
    ]);
    expect(cps[1]!.tasks[0]).toMatchObject({ name: "a", path: ["__pregel_pull", "a"] });
    expect(cps[1]!.config.configurable).toEqual({
      checkpoint_ns: "",
      thread_id: "cp",
      checkpoint_id: expect.any(String),
    });
    expect(cps[1]!.parentConfig).toEqual({
      configurable: { thread_id: "cp", checkpoint_ns: "", checkpoint_id: cps[0]!.config.configurable.checkpoint_id },
    });
    const hist = await collect(g.getStateHistory(thread("cp")));
    expect(hist.map((s) => s.config.configurable?.checkpoint_id)).toEqual(
      cps.map((c) => c.config.configurable.checkpoint_id).reverse(),
    );
    expect((await collect(g.getStateHistory(thread("cp"), { limit: 2 }))).map((s) => s.metadata?.step)).toEqual([2, 1]);
    expect(
      (await collect(g.getStateHistory(thread("cp"), { before: hist[1]!.config }))).map((s) => s.metadata?.step),
    ).toEqual([0, -1]);
    expect(
      (await collect(g.getStateHistory(thread("cp"), { filter: { source: "input" } }))).map((s) => s.metadata?.step),
    ).toEqual([-1]);
  });
});

describe("subgraph state (C-55, C-56)", () => {
  it("Send into a subgraph that stops before a node; update one child's state; resume", async () => {
    const cn = nodeFactory("Joke", ["subject", "jokes"]);
    const joke = graph({
      name: "Joke",
      fields: { subject: null, jokes: concat as never },
      defaults: () => ({ jokes: [] }),
      input: ["subject"],
      output: ["jokes"],
      nodes: [
        cn("edit", (s: { subject: string }) => ({ subject: `${s.subject} - hohoho` }), { edges: ["generate"] }),
        cn("generate", (s: { subject: string }) => ({ jokes: [`Joke about ${s.subject}`] })),
      ],
      start: { edges: ["edit"] },
      interruptBefore: ["generate"],
    });
    const pn = nodeFactory("P", ["subjects", "jokes"]);
    const g = compileGraph(
      graph({
        name: "P",
        fields: { subjects: null, jokes: concat as never },
        defaults: () => ({ jokes: [] }),
        nodes: [pn("gen", (a: { subject: string }, ctx) => ctx.runSubgraph(joke, a), { subgraph: joke })],
        start: { branches: [(s) => (s.subjects as string[]).map((subject) => new Send("gen", { subject }))] },
      }),
      { checkpointer: new MemorySaver() },
    );
    const t = thread("jokes");
    expect(await g.invoke({ subjects: ["cats", "dogs"] }, t)).toEqual({
      subjects: ["cats", "dogs"],
      jokes: [],
      __interrupt__: [],
    });
    const st = await g.getState(t, { subgraphs: true });
    expect(st.tasks.map((x) => x.path)).toEqual([
      ["__pregel_push", 0],
      ["__pregel_push", 1],
    ]);
    const kids = st.tasks.map((x) => x.state as StateSnapshot);
    expect(kids.map((k) => k.values)).toEqual([
      { subject: "cats - hohoho", jokes: [] },
      { subject: "dogs - hohoho", jokes: [] },
    ]);
    await g.updateState(kids[1]!.config, { subject: "turtles - hohoho" });
    expect((await g.invoke(null, t)).jokes).toEqual(["Joke about cats - hohoho", "Joke about turtles - hohoho"]);
  });

  it("a stateful subgraph keeps its state across calls on one thread, under the plain node namespace", async () => {
    const cn = nodeFactory("Counter", ["hits", "seen"]);
    const counter = graph({
      name: "Counter",
      fields: { hits: ((a: number, b: number) => a + b) as never, seen: concat as never },
      defaults: () => ({ hits: 0, seen: [] }),
      nodes: [cn("count", () => ({ hits: 1 }))],
      start: { edges: ["count"] },
      stateful: true,
    });
    const pn = nodeFactory("P", ["hits", "seen"]);
    const g = compileGraph(
      graph({
        name: "P",
        fields: { hits: null, seen: null },
        nodes: [pn("inner", (_: Values, ctx) => ctx.runSubgraph(counter, { seen: ["x"] }), { subgraph: counter })],
        start: { edges: ["inner"] },
      }),
      { checkpointer: new MemorySaver() },
    );
    const t = thread("stateful");
    expect(await g.invoke({}, t)).toEqual({ hits: 1, seen: ["x"] });
    const chunks = (await collect(g.stream({}, { ...t, subgraphs: true }))) as [string[], Values][];
    expect(chunks[0]).toEqual([["inner"], { count: { hits: 1 } }]);
    expect(chunks.at(-1)).toEqual([[], { inner: { hits: 2, seen: ["x", "x"] } }]);
    const inner = await collect(g.getStateHistory({ configurable: { thread_id: "stateful", checkpoint_ns: "inner" } }));
    expect(inner.map((s) => s.metadata?.step)).toEqual([4, 3, 2, 1, 0, -1]);
  });
});

describe("partial pending checkpoint (C-44)", () => {
  it("a finished Send task keeps its writes while its sibling is interrupted; updateState(null, END) drops only the unfinished", async () => {
    const n = nodeFactory("G", ["my_key", "market"]);
    const g = compileGraph(
      graph({
        fields: { my_key: (a: string, b: string) => a + b, market: null },
        nodes: [
          n("tool_one", () => ({ my_key: " one" })),
          n("tool_two", (_: Values, ctx) => ({ my_key: ctx.interrupt<string>("Just because...") })),
        ],
        start: { branches: [(s) => ["tool_two", new Send("tool_one", s)]] },
      }),
      { checkpointer: new MemorySaver() },
    );
    const t = thread("partial");
    const chunks = await collect(
      g.stream(
        { my_key: "value ⛰️", market: "DE" },
        { ...thread("partial-stream"), streamMode: ["values", "updates"] },
      ),
    );
    const ints = [{ id: expect.any(String), value: "Just because..." }];
    expect(chunks).toEqual([
      ["values", { my_key: "value ⛰️", market: "DE" }],
      ["updates", { tool_one: { my_key: " one" } }],
      ["updates", { __interrupt__: ints }],
      ["values", { __interrupt__: ints }],
      ["values", { my_key: "value ⛰️ one", market: "DE" }],
    ]);
    const r = await g.invoke({ my_key: "value ⛰️", market: "DE" }, t);
    // the finished sibling's write shows in the result, as in LangGraph, though it is only a pending write
    expect(r).toEqual({
      my_key: "value ⛰️ one",
      market: "DE",
      __interrupt__: [{ id: expect.any(String), value: "Just because..." }],
    });
    const st = await g.getState(t);
    expect(st.values).toEqual({ my_key: "value ⛰️ one", market: "DE" });
    expect((await g.getState(st.config)).values).toEqual({ my_key: "value ⛰️", market: "DE" });
    expect(st.tasks.map((x) => [x.name, x.path, x.result, x.interrupts.length])).toEqual([
      ["tool_one", ["__pregel_push", 0], { my_key: " one" }, 0],
      ["tool_two", ["__pregel_pull", "tool_two"], undefined, 1],
    ]);
    expect(st.next).toEqual(["tool_two"]);
    await g.updateState(t, null, "__end__");
    const after = await g.getState(t);
    expect([after.values, after.next, after.tasks]).toEqual([{ my_key: "value ⛰️ one", market: "DE" }, [], []]);
  });

  it("Overwrite and RemoveMessage writes survive being saved as pending writes", async () => {
    const n = nodeFactory("G", ["items", "msgs"]);
    const g = compileGraph(
      graph({
        fields: { items: concat as never, msgs: messages as never },
        defaults: () => ({ items: [], msgs: [] }),
        nodes: [
          n("reset", () => ({ items: new Overwrite(["fresh"]), msgs: new RemoveMessage("m1") })),
          n("ask", (_: Values, ctx) => ({ items: [ctx.interrupt<string>("?")] })),
        ],
        start: { edges: ["reset", "ask"] },
      }),
      { checkpointer: new MemorySaver() },
    );
    const t = thread("wire");
    await g.invoke(
      {
        items: ["old"],
        msgs: [
          { id: "m1", content: "x" },
          { id: "m2", content: "y" },
        ],
      },
      t,
    );
    expect(await g.invoke(new Command({ resume: "answer" }), t)).toEqual({
      items: ["fresh"],
      msgs: [{ id: "m2", content: "y" }],
    });
  });
});

describe("checkpoint recovery per durability (C-49)", () => {
  it.each(["sync", "async", "exit"] as const)(
    "a failed run, then new input on the same thread (%s)",
    async (durability) => {
      const n = nodeFactory("G", ["steps", "attempt"]);
      const g = compileGraph(
        graph({
          fields: { steps: concat as never, attempt: null },
          defaults: () => ({ steps: [] }),
          nodes: [
            n(
              "node1",
              (s: { attempt?: number }) => {
                if (s.attempt === undefined) throw new Error("Simulated failure");
                return { steps: ["node1"] };
              },
              { edges: ["node2"] },
            ),
            n("node2", () => ({ steps: ["node2"] })),
          ],
          start: { edges: ["node1"] },
        }),
        { checkpointer: new MemorySaver() },
      );
      const t = { ...thread(`rec-${durability}`), durability };
      await expect(g.invoke({}, t)).rejects.toThrow("Simulated failure");
      expect(await g.invoke({ steps: ["start"], attempt: 1 }, t)).toEqual({
        steps: ["start", "node1", "node2"],
        attempt: 1,
      });
      const hist = await collect(g.getStateHistory(thread(`rec-${durability}`)));
      const rows = hist.map((s) => [s.metadata?.step, s.metadata?.source]);
      if (durability === "exit")
        expect(rows).toEqual([
          [4, "loop"],
          [0, "loop"],
        ]);
      else
        expect(rows).toEqual([
          [4, "loop"],
          [3, "loop"],
          [2, "loop"],
          [1, "input"],
          [0, "loop"],
          [-1, "input"],
        ]);
      expect(hist[0]!.values).toEqual({ steps: ["start", "node1", "node2"], attempt: 1 });
      const failed = hist.find((s) => s.metadata?.step === 0)!;
      expect(failed.tasks[0]).toMatchObject({ name: "node1", error: { message: "Simulated failure", name: "Error" } });
    },
  );
});

describe("doubly nested interrupt (C-53, C-38)", () => {
  const build = (runs: string[]) => {
    const gn = nodeFactory("Grand", ["myKey"]);
    const grand = graph({
      name: "Grand",
      fields: { myKey: null },
      nodes: [
        gn("g1", (s: { myKey: string }) => (runs.push("g1"), { myKey: `${s.myKey} here` }), { edges: ["g2"] }),
        gn(
          "g2",
          (s: { myKey: string }, ctx) => (runs.push("g2"), { myKey: `${s.myKey} and ${ctx.interrupt<string>("ok?")}` }),
        ),
      ],
      start: { edges: ["g1"] },
    });
    const cn = nodeFactory("Child", ["myKey"]);
    const child = graph({
      name: "Child",
      fields: { myKey: null },
      nodes: [
        cn("c1", (s: { myKey: string }) => (runs.push("c1"), { myKey: s.myKey }), { edges: ["grand"] }),
        cn("grand", (s: Values, ctx) => (runs.push("grand"), ctx.runSubgraph(grand, s)), { subgraph: grand }),
      ],
      start: { edges: ["c1"] },
    });
    const pn = nodeFactory("Parent", ["myKey"]);
    return graph({
      name: "Parent",
      fields: { myKey: null },
      nodes: [
        pn("p1", (s: { myKey: string }) => (runs.push("p1"), { myKey: `hi ${s.myKey}` }), { edges: ["child"] }),
        pn("child", (s: Values, ctx) => (runs.push("child"), ctx.runSubgraph(child, s)), {
          subgraph: child,
          edges: ["p3"],
        }),
        pn("p3", (s: { myKey: string }) => (runs.push("p3"), { myKey: `${s.myKey} and back again` })),
      ],
      start: { edges: ["p1"] },
    });
  };
  it("values stream stops at the interrupt and continues in place on resume", async () => {
    const runs: string[] = [];
    const g = compileGraph(build(runs), { checkpointer: new MemorySaver() });
    const t = thread("dn");
    const first = await collect(g.stream({ myKey: "my value" }, { ...t, streamMode: "values" }));
    expect(first).toEqual([
      { myKey: "my value" },
      { myKey: "hi my value" },
      { __interrupt__: [{ id: expect.any(String), value: "ok?" }] },
    ]);
    const second = await collect(g.stream(new Command({ resume: "there" }), { ...t, streamMode: "values" }));
    expect(second).toEqual([
      { myKey: "hi my value" },
      { myKey: "hi my value here and there" },
      { myKey: "hi my value here and there and back again" },
    ]);
    expect(runs).toEqual(["p1", "child", "c1", "grand", "g1", "g2", "child", "grand", "g2", "p3"]);
  });
  it("Command.PARENT from a grandchild node is handled by the child's task (C-38)", async () => {
    const gn = nodeFactory("Grand", ["log"]);
    const grand = graph({
      name: "Grand",
      fields: { log: concat as never },
      nodes: [gn("g1", () => new Command({ graph: Command.PARENT, update: { log: ["grandkid"] }, goto: "c2" }))],
      start: { edges: ["g1"] },
    });
    const cn = nodeFactory("Child", ["log"]);
    const child = graph({
      name: "Child",
      fields: { log: concat as never },
      nodes: [
        cn("gc", (_: Values, ctx) => ctx.runSubgraph(grand, { log: [] }), { subgraph: grand, ends: ["c2"] }),
        cn("c2", () => ({ log: ["robert"] })),
      ],
      start: { edges: ["gc"] },
    });
    const pn = nodeFactory("Parent", ["log"]);
    const parent = graph({
      name: "Parent",
      fields: { log: concat as never },
      nodes: [pn("ch", (_: Values, ctx) => ctx.runSubgraph(child, { log: [] }), { subgraph: child })],
      start: { edges: ["ch"] },
    });
    expect(await compileGraph(parent).invoke({ log: ["human"] })).toEqual({ log: ["human", "grandkid", "robert"] });
  });
});

describe("exit durability keeps pending writes of a resumed run", () => {
  it("a second interrupt after a resume is saved, so a third call resumes it", async () => {
    const n = nodeFactory("G", ["log"]);
    const g = compileGraph(
      graph({
        fields: { log: concat as never },
        nodes: [
          n("ok", () => ({ log: ["ok"] })),
          n("ask", (_: Values, ctx) => ({ log: [ctx.interrupt<string>("1"), ctx.interrupt<string>("2")] })),
        ],
        start: { edges: ["ok", "ask"] },
      }),
      { checkpointer: new MemorySaver() },
    );
    const t = { ...thread("exit-2"), durability: "exit" as const };
    expect((await g.invoke({ log: [] }, t)).__interrupt__![0]!.value).toBe("1");
    expect((await g.invoke(new Command({ resume: "a" }), t)).__interrupt__![0]!.value).toBe("2");
    expect(await g.invoke(new Command({ resume: "b" }), t)).toEqual({ log: ["a", "b", "ok"] });
  });
});

describe("tasks stream for stopped tasks", () => {
  it("an interrupted task reports its interrupts, a failed one its error", async () => {
    const n = nodeFactory("G", ["log"]);
    const g = compileGraph(
      graph({
        fields: { log: concat as never },
        nodes: [n("ask", (_: Values, ctx) => ({ log: [ctx.interrupt<string>("?")] }))],
        start: { edges: ["ask"] },
      }),
      { checkpointer: new MemorySaver() },
    );
    const chunks = (await collect(g.stream({ log: [] }, { ...thread("ts"), streamMode: "tasks" }))) as Values[];
    expect(chunks).toEqual([
      { id: expect.any(String), name: "ask", input: { log: [] }, triggers: ["branch:to:ask"], interrupts: [] },
      { id: chunks[0]!.id, name: "ask", result: {}, interrupts: [{ id: expect.any(String), value: "?" }] },
    ]);
    const bad = compileGraph(
      graph({
        fields: { log: concat as never },
        nodes: [
          n("boom", () => {
            throw new Error("x");
          }),
        ],
        start: { edges: ["boom"] },
      }),
    );
    const seen: unknown[] = [];
    await expect(
      (async () => {
        for await (const c of bad.stream({ log: [] }, { streamMode: "tasks" })) seen.push(c);
      })(),
    ).rejects.toThrow("x");
    expect(seen[1]).toMatchObject({ name: "boom", error: 'Node "boom" of graph "G" failed: x' });
  });
});
