/**
 * Streams around interrupts side by side with LangGraph.js 1.7.3 (issue 13; scenarios after pregel.test.ts's
 * interrupt/stream cases): a root with a writing node, an interrupting node and a subgraph whose own
 * sibling interrupts. `values` (with and without `subgraphs`) and the `debug` event sequence must match,
 * including the subgraph task's `state` in checkpoint payloads and every task announced before any runs.
 */
import { Annotation, END, MemorySaver as LgMemorySaver, START, StateGraph, interrupt } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { MemorySaver, compileGraph, type NodeContext, type Values } from "@graphc/runtime";
import { concat, graph, nodeFactory } from "../runtime/helpers.ts";

type Streamer = { stream(input: unknown, opts: object): Promise<AsyncIterable<unknown>> | AsyncIterable<unknown> };

function langgraph(): Streamer {
  const S = Annotation.Root({ x: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }) });
  const inner = new StateGraph(S)
    .addNode("w", () => ({ x: ["w"] }))
    .addNode("ask", () => ({ x: [interrupt("q?") as string] }))
    .addEdge(START, "w")
    .addEdge(START, "ask")
    .addEdge("w", END)
    .addEdge("ask", END)
    .compile();
  return new StateGraph(S)
    .addNode("a", () => ({ x: ["a"] }))
    .addNode("b", () => ({ x: [interrupt("b?") as string] }))
    .addNode("s", inner)
    .addEdge(START, "a")
    .addEdge(START, "b")
    .addEdge(START, "s")
    .compile({ checkpointer: new LgMemorySaver() }) as unknown as Streamer;
}

function graphc(): Streamer {
  const inn = nodeFactory("Inner", ["x"]);
  const n = nodeFactory("G", ["x"]);
  const ask = (q: string) => (_s: Values, ctx: NodeContext) => ({ x: [ctx.interrupt<string>(q)] });
  const inner = graph({ name: "Inner", fields: { x: concat as never }, defaults: () => ({ x: [] }), nodes: [inn("w", () => ({ x: ["w"] })), inn("ask", ask("q?"))], start: { edges: ["w", "ask"] } });
  const root = graph({
    name: "G",
    fields: { x: concat as never },
    defaults: () => ({ x: [] }),
    nodes: [n("a", () => ({ x: ["a"] })), n("b", ask("b?")), n("s", (s: Values, ctx) => ctx.runSubgraph(inner, s), { subgraph: inner })],
    start: { edges: ["a", "b", "s"] },
  });
  return compileGraph(root, { checkpointer: new MemorySaver() }) as unknown as Streamer;
}

/** ids and task-id namespaces replaced, so two runs compare */
const anon = (v: unknown): unknown =>
  JSON.parse(JSON.stringify(v, (k, x: unknown) => (k === "id" && typeof x === "string" ? "ID" : typeof x === "string" ? x.replace(/:[0-9a-f-]{36}/g, ":T") : x)));

async function chunks(g: Streamer, opts: object): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const c of await g.stream({ x: ["in"] }, { configurable: { thread_id: "t" }, ...opts })) out.push(c);
  return out;
}

/** a debug event as [type, step, tasks of a checkpoint payload as [name, has state, interrupts]] */
const debugShape = (c: unknown) => {
  const e = c as { type: string; step: number; payload: { tasks?: { name: string; state?: unknown; interrupts: unknown[] }[] } };
  return [e.type, e.step, e.payload.tasks?.map((t) => [t.name, t.state !== undefined, t.interrupts.length]) ?? null];
};

describe("streams with interrupts, as LangGraph", () => {
  for (const subgraphs of [false, true]) {
    it(`values mode${subgraphs ? " with subgraphs" : ""}: interrupts at each level, the root's view last, no subgraph view`, async () => {
      const [lg, gc] = [await chunks(langgraph(), { streamMode: "values", subgraphs }), await chunks(graphc(), { streamMode: "values", subgraphs })];
      expect(anon(gc)).toEqual(anon(lg));
    });
  }

  it("debug mode: every task announced before any runs; a subgraph task's state in checkpoint payloads", async () => {
    const [lg, gc] = [await chunks(langgraph(), { streamMode: "debug" }), await chunks(graphc(), { streamMode: "debug" })];
    expect(gc.map(debugShape)).toEqual(lg.map(debugShape));
    expect(gc.map(debugShape)[1]).toEqual(["checkpoint", 0, [["a", false, 0], ["b", false, 0], ["s", true, 0]]]);
  });
});
