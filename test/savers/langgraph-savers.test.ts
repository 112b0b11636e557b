/**
 * LangGraph.js's own savers under compiled graphs (issue 13 §5): graphc's checkpointer interface is
 * LangGraph's BaseCheckpointSaver shape, so `@langchain/langgraph`'s MemorySaver and
 * `@langchain/langgraph-checkpoint-sqlite`'s SqliteSaver plug in as they are (`fromLangGraphSaver` only
 * narrows the type). Interrupts and resume, history, replay and fork, subgraph checkpoints and Sends run on
 * them as on graphc's own savers.
 */
import { MemorySaver as LgMemorySaver } from "@langchain/langgraph";
import { SqliteSaver as LgSqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { describe, expect, it } from "vitest";
import { Command, Send, compileGraph, fromLangGraphSaver, type CheckpointSaver, type NodeContext, type StateSnapshot, type Values } from "@graphc/runtime";
import { concat, graph, nodeFactory } from "../runtime/helpers.ts";

const savers: [string, () => CheckpointSaver][] = [
  ["LangGraph MemorySaver", () => fromLangGraphSaver(new LgMemorySaver())],
  ["LangGraph SqliteSaver", () => fromLangGraphSaver(LgSqliteSaver.fromConnString(":memory:"))],
];

const n = nodeFactory("G", ["x", "when"]);
const inn = nodeFactory("Inner", ["x"]);
const list = { fields: { x: concat as never }, defaults: () => ({ x: [] }) };
const inner = graph({ name: "Inner", ...list, nodes: [inn("i", (_s: Values, ctx: NodeContext) => ({ x: [`i:${ctx.interrupt<string>("inner?")}`] }))], start: { edges: ["i"] } });
const spec = graph({
  name: "G",
  fields: { x: concat as never, when: null },
  defaults: () => ({ x: [] }),
  nodes: [
    n("fan", () => new Command({ goto: [new Send("w", 1), new Send("w", 2)] }), { edges: [] }),
    n("w", (arg: unknown) => (arg === 1 ? { x: [`w1`], when: new Date(0) } : { x: [`w${String(arg)}`] }), { edges: ["ask"] }),
    n("ask", (_s: Values, ctx: NodeContext) => ({ x: [`ask:${ctx.interrupt<string>("ok?")}`] }), { edges: ["sub"] }),
    n("sub", (s: Values, ctx) => ctx.runSubgraph(inner, { x: s.x }), { subgraph: inner }),
  ],
  start: { edges: ["fan"] },
});
const thread = (id: string) => ({ configurable: { thread_id: id } });

describe.each(savers)("compiled graphs on %s", (_name, open) => {
  it("run with Sends, interrupt, resume, a subgraph interrupt, resume; history and replay", async () => {
    const g = compileGraph(spec, { checkpointer: open() });
    const first = await g.invoke({ x: ["in"] }, thread("t"));
    expect(first).toMatchObject({ x: ["in", "w1", "w2"], __interrupt__: [{ value: "ok?" }] });
    const second = await g.invoke(new Command({ resume: "yes" }), thread("t"));
    expect(second).toMatchObject({ __interrupt__: [{ value: "inner?" }] });
    const done = await g.invoke(new Command({ resume: "deep" }), thread("t"));
    expect(done!.x).toEqual(["in", "w1", "w2", "ask:yes", "in", "w1", "w2", "ask:yes", "i:deep"]);
    // what is stored is the saver's own serde's business: LangGraph's JSON turns a Date into its ISO text
    // (graphc's savers keep it a Date)
    expect((await g.getState(thread("t"))).values["when"]).toBe("1970-01-01T00:00:00.000Z");
    const history: StateSnapshot[] = [];
    for await (const h of g.getStateHistory(thread("t"))) history.push(h);
    expect(history.map((h) => h.next)).toEqual([[], ["sub"], ["ask"], ["w", "w"], ["fan"], ["__start__"]]);
    // replay from before `ask`, then fork that step with an update
    const beforeAsk = history.find((h) => h.next[0] === "ask")!;
    expect(await g.invoke(null, beforeAsk.config)).toMatchObject({ __interrupt__: [{ value: "ok?" }] });
    const forked = await g.updateState(beforeAsk.config, { x: ["edited"] }, "w");
    expect((await g.getState(forked)).values["x"]).toEqual(["in", "w1", "w2", "edited"]);
  });
});
