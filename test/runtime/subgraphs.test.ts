/** Reference §8 group G and §4: subgraph calls, namespaces in streams, isolation, vars, errors. */
import { describe, expect, it } from "vitest";
import { NodeError, Send, compileGraph, type GraphSpec, type Values } from "@graphc/runtime";
import { concat, graph, nodeFactory, sleep } from "./helpers.ts";

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

const ID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

describe("nested graph basic (C-51)", () => {
  it("the child gets the shared fields and returns its output through the parent's reducers", async () => {
    const inn = nodeFactory("Inner", ["myKey", "myOtherKey"]);
    const inner = graph({
      name: "Inner",
      fields: { myKey: null, myOtherKey: null },
      nodes: [inn("up", (s: { myKey: string }) => ({ myKey: `${s.myKey} there`, myOtherKey: "x" }))],
      start: { edges: ["up"] },
    });
    const out = nodeFactory("Outer", ["myKey", "neverCalled"]);
    const marker = { opaque: true };
    const outer = graph({
      name: "Outer",
      fields: { myKey: null, neverCalled: null },
      nodes: [
        out("inner", (s: Values, ctx) => ctx.runSubgraph(inner, { myKey: s.myKey }).then((o) => o && { myKey: o.myKey }), {
          subgraph: inner,
          edges: ["outer2"],
        }),
        out("outer2", (s: { myKey: string }) => ({ myKey: `${s.myKey} and back again` })),
      ],
      start: { edges: ["inner"] },
    });
    expect(await compileGraph(outer).invoke({ myKey: "my value", neverCalled: marker })).toEqual({
      myKey: "my value there and back again",
      neverCalled: marker,
    });
  });
});

/** parent p1 → ch (c1 → gc (g1)), each level appending to `log` */
function threeLevels(onG1?: (ctx: { writer(x: unknown): void; messages(x: unknown): void }) => void): GraphSpec {
  const gn = nodeFactory("Grand", ["log"]);
  const grand = graph({
    name: "Grand",
    fields: { log: concat as never },
    nodes: [
      gn("g1", (_: unknown, ctx) => {
        onG1?.(ctx);
        return { log: ["g1"] };
      }),
    ],
    start: { edges: ["g1"] },
  });
  const cn = nodeFactory("Child", ["log"]);
  const child = graph({
    name: "Child",
    fields: { log: concat as never },
    nodes: [
      cn("c1", () => ({ log: ["c1"] }), { edges: ["gc"] }),
      cn(
        "gc",
        async (_: Values, ctx) => {
          await ctx.runSubgraph(grand, { log: [] });
          return { log: ["gc"] };
        },
        { subgraph: grand },
      ),
    ],
    start: { edges: ["c1"] },
  });
  const pn = nodeFactory("Parent", ["log"]);
  return graph({
    name: "Parent",
    fields: { log: concat as never },
    nodes: [
      pn("p1", () => ({ log: ["p1"] }), { edges: ["ch"] }),
      pn(
        "ch",
        async (_: Values, ctx) => {
          await ctx.runSubgraph(child, { log: [] });
          return { log: ["ch"] };
        },
        { subgraph: child },
      ),
    ],
    start: { edges: ["p1"] },
  });
}

describe("streaming with subgraphs (§4.3)", () => {
  it("subgraphs:true gives [namespace, payload] with node:taskId segments", async () => {
    const chunks = (await collect(compileGraph(threeLevels()).stream({ log: [] }, { subgraphs: true }))) as [
      string[],
      Values,
    ][];
    expect(chunks.map(([ns, p]) => [ns.map((s) => s.split(":")[0]), Object.keys(p)[0]])).toEqual([
      [[], "p1"],
      [["ch"], "c1"],
      [["ch", "gc"], "g1"],
      [["ch"], "gc"],
      [[], "ch"],
    ]);
    const [ch, gc] = chunks[2]![0];
    expect(ch).toMatch(new RegExp(`^ch:${ID}$`));
    expect(gc).toMatch(new RegExp(`^gc:${ID}$`));
    expect(chunks[1]![0]).toEqual([ch]);
  });

  it("array modes with subgraphs give [namespace, mode, payload]; without, subgraph chunks are hidden", async () => {
    const g = compileGraph(threeLevels());
    const all = (await collect(g.stream({ log: [] }, { subgraphs: true, streamMode: ["values", "updates"] }))) as [
      string[],
      string,
      Values,
    ][];
    expect(all[0]).toEqual([[], "values", { log: [] }]);
    expect(all.some(([ns, m]) => ns.length === 2 && m === "values")).toBe(true);
    const root = (await collect(g.stream({ log: [] }, { streamMode: ["updates"] }))) as [string, Values][];
    expect(root.map(([, p]) => Object.keys(p)[0])).toEqual(["p1", "ch"]);
  });

  it("custom and messages from a subgraph are emitted even without subgraphs:true (§8.3 #10)", async () => {
    const g = compileGraph(
      threeLevels((ctx) => {
        ctx.writer({ progress: 1 });
        ctx.messages({ content: "tok" });
      }),
    );
    const plain = await collect(g.stream({ log: [] }, { streamMode: ["custom", "messages"] }));
    expect(plain[0]).toEqual(["custom", { progress: 1 }]);
    expect(plain[1]).toEqual([
      "messages",
      [{ content: "tok" }, expect.objectContaining({ langgraph_node: "g1", langgraph_step: 1 })],
    ]);
    const ns = (await collect(g.stream({ log: [] }, { streamMode: ["custom", "messages"], subgraphs: true }))) as [
      string[],
      string,
      unknown,
    ][];
    expect(ns[0]![0].map((s) => s.split(":")[0])).toEqual(["ch", "gc"]);
    // messages carry the emitting task's own segment too (JS behaviour)
    expect(ns[1]![0].map((s) => s.split(":")[0])).toEqual(["ch", "gc", "g1"]);
  });
});

describe("isolation", () => {
  it("parallel calls of one subgraph never share state", async () => {
    const cn = nodeFactory("Worker", ["items", "seen"]);
    const worker = graph({
      name: "Worker",
      fields: { items: concat as never, seen: null },
      nodes: [
        cn("w", async (s: { items: string[] }) => {
          await sleep(s.items[0] === "a" ? 15 : 1);
          return { items: [`${s.items[0]}!`], seen: s.items.length };
        }),
      ],
      start: { edges: ["w"] },
    });
    const pn = nodeFactory("P", ["results"]);
    const parent = graph({
      name: "P",
      fields: { results: concat as never },
      nodes: [
        pn("call", (x: string, ctx) => ctx.runSubgraph(worker, { items: [x] }).then((o) => ({ results: [o] })), {
          subgraph: worker,
        }),
      ],
      start: { branches: [() => ["a", "b", "c"].map((x) => new Send("call", x))] },
    });
    expect(await compileGraph(parent).invoke({ results: [] })).toEqual({
      results: [
        { items: ["a", "a!"], seen: 1 },
        { items: ["b", "b!"], seen: 1 },
        { items: ["c", "c!"], seen: 1 },
      ],
    });
  });

  it("a subgraph shares an appending list with its parent: the full list is appended again (§4.1)", async () => {
    const cn = nodeFactory("C", ["list"]);
    const child = graph({
      name: "C",
      fields: { list: concat as never },
      nodes: [cn("c1", () => ({ list: ["c1"] }))],
      start: { edges: ["c1"] },
    });
    const pn = nodeFactory("P", ["list"]);
    const parent = graph({
      name: "P",
      fields: { list: concat as never },
      nodes: [
        pn("p1", () => ({ list: ["p1"] }), { edges: ["ch"] }),
        pn("ch", (s: Values, ctx) => ctx.runSubgraph(child, s), { subgraph: child }),
      ],
      start: { edges: ["p1"] },
    });
    expect(await compileGraph(parent).invoke({ list: ["in"] })).toEqual({ list: ["in", "p1", "in", "p1", "c1"] });
  });
});

describe("vars", () => {
  const childSpec = (seen: Values[]) => {
    const cn = nodeFactory("C", ["x"]);
    return graph({
      name: "C",
      fields: { x: null },
      nodes: [cn("c", (_: unknown, ctx) => (seen.push(ctx.vars), null))],
      start: { edges: ["c"] },
      vars: (over, inh, env) => ({
        limit: over.limit ?? inh.limit ?? 7,
        model: over.model ?? inh.model ?? env.GRAPHC_TEST_MODEL ?? "child-default",
      }),
    });
  };
  it("per-run override, then the parent's value, then the child's default; env read at run time", async () => {
    const seen: Values[] = [];
    const child = childSpec(seen);
    const pn = nodeFactory("P", ["x"]);
    const parent = graph({
      name: "P",
      fields: { x: null },
      nodes: [
        pn("p", (_: unknown, ctx) => (seen.push(ctx.vars), ctx.runSubgraph(child, {}).then(() => null)), {
          subgraph: child,
        }),
      ],
      start: { edges: ["p"] },
      vars: (over, _inh, env) => ({
        limit: over.limit ?? 500,
        model: over.model ?? env.GRAPHC_TEST_MODEL ?? "gpt-4o-mini",
      }),
    });
    const g = compileGraph(parent);
    await g.invoke({});
    expect(seen).toEqual([
      { limit: 500, model: "gpt-4o-mini" },
      { limit: 500, model: "gpt-4o-mini" },
    ]);
    seen.length = 0;
    const env = (globalThis as { process?: { env: Record<string, string | undefined> } }).process!.env;
    env.GRAPHC_TEST_MODEL = "from-env";
    try {
      await g.invoke({}, { vars: { limit: 9 } });
    } finally {
      delete env.GRAPHC_TEST_MODEL;
    }
    expect(seen).toEqual([
      { limit: 9, model: "from-env" },
      { limit: 9, model: "from-env" },
    ]);
  });
});

describe("errors in subgraphs", () => {
  it("a failing child node fails the run with a NodeError naming the child graph and node", async () => {
    const cn = nodeFactory("C", ["x"]);
    const child = graph({
      name: "C",
      fields: { x: null },
      nodes: [
        cn("boom", () => {
          throw new Error("kaput");
        }),
      ],
      start: { edges: ["boom"] },
    });
    const pn = nodeFactory("P", ["x"]);
    const parent = graph({
      name: "P",
      fields: { x: null },
      nodes: [pn("sub", (s: Values, ctx) => ctx.runSubgraph(child, s), { subgraph: child })],
      start: { edges: ["sub"] },
    });
    const e = (await compileGraph(parent)
      .invoke({ x: 1 })
      .catch((x: unknown) => x)) as NodeError;
    expect(e).toBeInstanceOf(NodeError);
    expect([e.graph, e.node, e.message]).toEqual(["C", "boom", 'Node "boom" of graph "C" failed: kaput']);
    expect((e.cause as Error).message).toBe("kaput");
  });

  it("an AbortSignal cancels a run, subgraphs included", async () => {
    let childSawAbort = false;
    const cn = nodeFactory("C", ["x"]);
    const child = graph({
      name: "C",
      fields: { x: null },
      nodes: [
        cn("slow", async (_: unknown, ctx) => {
          await new Promise<void>((r) => ctx.signal.addEventListener("abort", () => r()));
          childSawAbort = true;
          return null;
        }),
      ],
      start: { edges: ["slow"] },
    });
    const pn = nodeFactory("P", ["x"]);
    const parent = graph({
      name: "P",
      fields: { x: null },
      nodes: [pn("sub", (s: Values, ctx) => ctx.runSubgraph(child, s), { subgraph: child })],
      start: { edges: ["sub"] },
    });
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(), 10);
    await expect(compileGraph(parent).invoke({ x: 1 }, { signal: ctl.signal })).rejects.toMatchObject({
      name: "AbortError",
      code: "ABORTED",
    });
    await sleep(1);
    expect(childSawAbort).toBe(true);
  });
});
