/**
 * "exit" durability side by side with LangGraph.js 1.7.3 (issue 13; after pregel.test.ts's durability
 * cases): only a run's last checkpoint is stored, its parent is the checkpoint stored before the run (so
 * `getState(parentConfig)` works), and a subgraph that finished leaves no checkpoint of its own; an
 * interrupted one does, and the thread resumes from it.
 */
import { Annotation, Command as LgCommand, END, MemorySaver as LgMemorySaver, START, StateGraph, interrupt } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { Command, MemorySaver, compileGraph, type CheckpointSaver, type NodeContext, type StateSnapshot, type Values } from "@graphc/runtime";
import { concat, graph, nodeFactory } from "../runtime/helpers.ts";

interface Side {
  invoke(input: unknown, cfg: object): Promise<unknown>;
  getState(cfg: object): Promise<StateSnapshot>;
}

function langgraph(ask: boolean): { g: Side; saver: LgMemorySaver } {
  const S = Annotation.Root({ x: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }) });
  const inner = new StateGraph(S)
    .addNode("i1", () => ({ x: ["i1"] }))
    .addNode("i2", () => ({ x: [ask ? (interrupt("ok?") as string) : "i2"] }))
    .addEdge(START, "i1")
    .addEdge("i1", "i2")
    .addEdge("i2", END)
    .compile();
  const saver = new LgMemorySaver();
  const g = new StateGraph(S).addNode("a", () => ({ x: ["a"] })).addNode("s", inner).addEdge(START, "a").addEdge("a", "s").addEdge("s", END).compile({ checkpointer: saver });
  return { g: g as unknown as Side, saver };
}

function graphc(ask: boolean): { g: Side; saver: MemorySaver } {
  const inn = nodeFactory("Inner", ["x"]);
  const n = nodeFactory("G", ["x"]);
  const i2 = (_s: Values, ctx: NodeContext) => ({ x: [ask ? ctx.interrupt<string>("ok?") : "i2"] });
  const inner = graph({ name: "Inner", fields: { x: concat as never }, defaults: () => ({ x: [] }), nodes: [inn("i1", () => ({ x: ["i1"] }), { edges: ["i2"] }), inn("i2", i2)], start: { edges: ["i1"] } });
  const saver = new MemorySaver();
  const root = graph({
    name: "G",
    fields: { x: concat as never },
    defaults: () => ({ x: [] }),
    nodes: [n("a", () => ({ x: ["a"] }), { edges: ["s"] }), n("s", (s: Values, ctx) => ctx.runSubgraph(inner, s), { subgraph: inner })],
    start: { edges: ["a"] },
  });
  return { g: compileGraph(root, { checkpointer: saver }) as unknown as Side, saver };
}

/** every stored checkpoint as [namespace (task ids dropped), step, source] */
async function stored(saver: Pick<CheckpointSaver, "list">, thread: string): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const t of saver.list({ configurable: { thread_id: thread } }))
    out.push([String(t.config.configurable?.checkpoint_ns).replace(/:[0-9a-f-]{36}/g, ""), t.metadata.step, t.metadata.source]);
  return out.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

const exit = (thread: string) => ({ configurable: { thread_id: thread }, durability: "exit" });

describe('"exit" durability as LangGraph', () => {
  it("stores one checkpoint per run, hung off the previous run's; a finished subgraph stores none", async () => {
    const sides = [langgraph(false), graphc(false)];
    const seen: unknown[][] = [];
    for (const { g, saver } of sides) {
      await g.invoke({ x: ["in"] }, exit("e"));
      const first = await g.getState({ configurable: { thread_id: "e" } });
      expect(first.parentConfig).toBeUndefined();
      await g.invoke({ x: ["again"] }, exit("e"));
      const second = await g.getState({ configurable: { thread_id: "e" } });
      const parent = await g.getState(second.parentConfig!);
      seen.push([await stored(saver as never, "e"), parent.values, parent.metadata?.step, second.values]);
    }
    expect(seen[1]).toEqual(seen[0]);
    expect(seen[1]![0]).toEqual([["", 2, "loop"], ["", 6, "loop"]]);
  });

  it("an interrupted subgraph's checkpoint is stored, and the thread resumes from it", async () => {
    const sides = [
      { ...langgraph(true), resume: new LgCommand({ resume: "yes" }) },
      { ...graphc(true), resume: new Command({ resume: "yes" }) },
    ];
    const seen: unknown[][] = [];
    for (const { g, saver, resume } of sides) {
      await g.invoke({ x: ["in"] }, exit("i"));
      const paused = await stored(saver as never, "i");
      const out = await g.invoke(resume, exit("i"));
      seen.push([paused, out]);
    }
    expect(seen[1]).toEqual(seen[0]);
    expect(seen[1]![1]).toEqual({ x: ["in", "a", "in", "a", "i1", "yes"] });
  });
});
