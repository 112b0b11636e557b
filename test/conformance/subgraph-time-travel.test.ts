/**
 * Time travel into subgraphs side by side with LangGraph.js 1.7.3 (issue 13; after time_travel.test.ts):
 * snapshots of subgraph checkpoints carry `checkpoint_map`, and `invoke(null, config)` with a config taken
 * from `getState({ subgraphs: true })` or from a subgraph's history replays the thread from that
 * subgraph checkpoint (a grandchild's included).
 */
import { Annotation, Command as LgCommand, END, MemorySaver as LgMemorySaver, START, StateGraph, interrupt } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { Command, MemorySaver, compileGraph, type NodeContext, type RunnableConfig, type StateSnapshot, type Values } from "@graphc/runtime";
import { concat, graph, nodeFactory } from "../runtime/helpers.ts";

interface Side {
  invoke(input: unknown, cfg: object): Promise<unknown>;
  getState(cfg: object, opts?: { subgraphs?: boolean }): Promise<StateSnapshot>;
  getStateHistory(cfg: object): AsyncIterable<StateSnapshot>;
}

/** root: a -> s; s: i1 -> gg; gg: q (interrupts) */
function langgraph(): Side {
  const S = Annotation.Root({ x: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }) });
  const grand = new StateGraph(S).addNode("q", () => ({ x: [interrupt("ok?") as string] })).addEdge(START, "q").addEdge("q", END).compile();
  const inner = new StateGraph(S).addNode("i1", () => ({ x: ["i1"] })).addNode("gg", grand).addEdge(START, "i1").addEdge("i1", "gg").addEdge("gg", END).compile();
  return new StateGraph(S)
    .addNode("a", () => ({ x: ["a"] }))
    .addNode("s", inner)
    .addEdge(START, "a")
    .addEdge("a", "s")
    .addEdge("s", END)
    .compile({ checkpointer: new LgMemorySaver() }) as unknown as Side;
}

function graphc(): Side {
  const gn = nodeFactory("Grand", ["x"]);
  const inn = nodeFactory("Inner", ["x"]);
  const n = nodeFactory("G", ["x"]);
  const list = { fields: { x: concat as never }, defaults: () => ({ x: [] }) };
  const grand = graph({ name: "Grand", ...list, nodes: [gn("q", (_s: Values, ctx: NodeContext) => ({ x: [ctx.interrupt<string>("ok?")] }))], start: { edges: ["q"] } });
  const inner = graph({
    name: "Inner",
    ...list,
    nodes: [inn("i1", () => ({ x: ["i1"] }), { edges: ["gg"] }), inn("gg", (s: Values, ctx) => ctx.runSubgraph(grand, s), { subgraph: grand })],
    start: { edges: ["i1"] },
  });
  const root = graph({
    name: "G",
    ...list,
    nodes: [n("a", () => ({ x: ["a"] }), { edges: ["s"] }), n("s", (s: Values, ctx) => ctx.runSubgraph(inner, s), { subgraph: inner })],
    start: { edges: ["a"] },
  });
  return compileGraph(root, { checkpointer: new MemorySaver() }) as unknown as Side;
}

const thread = (id: string) => ({ configurable: { thread_id: id } });
const keys = (cfg: RunnableConfig | undefined) => Object.keys((cfg?.configurable?.["checkpoint_map"] as object | undefined) ?? {}).length;
const anonymous = (v: unknown): unknown => JSON.parse(JSON.stringify(v, (k, x: unknown) => (k === "id" && typeof x === "string" ? "ID" : x)));

describe("time travel into subgraphs, as LangGraph", () => {
  it("subgraph snapshots carry checkpoint_map with one entry per level", async () => {
    const seen: unknown[] = [];
    for (const g of [langgraph(), graphc()]) {
      await g.invoke({ x: ["in"] }, thread("m"));
      const st = await g.getState(thread("m"), { subgraphs: true });
      const child = st.tasks[0]!.state as StateSnapshot;
      const grand = child.tasks[0]!.state as StateSnapshot;
      seen.push([keys(st.config), keys(child.config), keys(grand.config)]);
    }
    expect(seen).toEqual([
      [0, 2, 3],
      [0, 2, 3],
    ]);
  });

  it("replays from a child's or a grandchild's checkpoint, and resumes the replayed run", async () => {
    const seen: unknown[] = [];
    const sides: [Side, () => unknown][] = [
      [langgraph(), () => new LgCommand({ resume: "yes" })],
      [graphc(), () => new Command({ resume: "yes" })],
    ];
    for (const [g, resume] of sides) {
      await g.invoke({ x: ["in"] }, thread("r"));
      const st = await g.getState(thread("r"), { subgraphs: true });
      const child = st.tasks[0]!.state as StateSnapshot;
      const grand = child.tasks[0]!.state as StateSnapshot;
      const fromChild = await g.invoke(null, child.config);
      const fromGrand = await g.invoke(null, grand.config);
      const resumed = await g.invoke(resume(), thread("r"));
      const history: StateSnapshot[] = [];
      for await (const h of g.getStateHistory(child.config)) history.push(h);
      seen.push(anonymous([fromChild, fromGrand, resumed, history.map((h) => [h.metadata?.step, h.next, h.values])]));
    }
    expect(seen[1]).toEqual(seen[0]);
  });
});

describe("replaying a parent checkpoint with a stateful subgraph, as LangGraph", () => {
  it("the subgraph starts from its state as of that checkpoint, not its newest", async () => {
    const S = Annotation.Root({ x: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }) });
    const lgInner = new StateGraph(S)
      .addNode("i", (s) => ({ x: [`i${s.x.length}`] }))
      .addEdge(START, "i")
      .addEdge("i", END)
      .compile({ checkpointer: true });
    const lg = new StateGraph(Annotation.Root({ y: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }) }))
      .addNode("call", async (_s, cfg) => ({ y: [(await lgInner.invoke({ x: ["in"] }, cfg)).x.join(",")] }), { subgraphs: [lgInner] } as never)
      .addEdge(START, "call")
      .addEdge("call", END)
      .compile({ checkpointer: new LgMemorySaver() }) as unknown as Side;
    const inn = nodeFactory("Inner", ["x"]);
    const n = nodeFactory("G", ["y"]);
    const inner = {
      ...graph({ name: "Inner", fields: { x: concat as never }, defaults: () => ({ x: [] }), nodes: [inn("i", (s: Values) => ({ x: [`i${(s.x as string[]).length}`] }))], start: { edges: ["i"] } }),
      stateful: true,
    };
    const call = (_s: Values, ctx: NodeContext) => ctx.runSubgraph(inner, { x: ["in"] }).then((o) => ({ y: [(o!.x as string[]).join(",")] }));
    const gc = compileGraph(graph({ name: "G", fields: { y: concat as never }, defaults: () => ({ y: [] }), nodes: [n("call", call, { subgraph: inner })], start: { edges: ["call"] } }), {
      checkpointer: new MemorySaver(),
    }) as unknown as Side;
    const seen: unknown[] = [];
    for (const g of [lg, gc]) {
      for (let i = 0; i < 3; i++) await g.invoke({ y: [] }, thread("s"));
      const history: StateSnapshot[] = [];
      for await (const h of g.getStateHistory(thread("s"))) history.push(h);
      const beforeSecondCall = history.find((h) => h.metadata?.step === 3)!;
      seen.push([await g.invoke(null, beforeSecondCall.config), await g.invoke({ y: [] }, thread("s"))]);
    }
    expect(seen[1]).toEqual(seen[0]);
    expect((seen[1] as unknown[])[0]).toEqual({ y: ["in,i1", "in,i1,in,i3"] });
  });
});
