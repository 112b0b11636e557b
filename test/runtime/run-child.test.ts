/** `ctx.run`: only the graph a node declares (`uses`, NodeSpec.subgraph), once per task with a checkpointer. */
import { describe, expect, it } from "vitest";
import { GraphValueError, MemorySaver, compileGraph, type NodeContext, type Values } from "@graphc/runtime";
import { graph, nodeFactory } from "./helpers.ts";

const cn = nodeFactory("Child", ["x"]);
const child = graph({ name: "Child", fields: { x: null }, nodes: [cn("a", () => ({ x: "child" }))], start: { edges: ["a"] } });
const other = graph({ name: "Other", fields: { x: null }, nodes: [cn("a", () => ({ x: "other" }))], start: { edges: ["a"] } });
const n = nodeFactory("P", ["x"]);
const parent = (fn: (s: Values, ctx: NodeContext) => unknown, declared = true) =>
  graph({ name: "P", fields: { x: null }, nodes: [n("p", fn, declared ? { subgraph: child } : {})], start: { edges: ["p"] } });

describe("ctx.run", () => {
  it("runs the declared child, given as its spec, its compiled graph or its name", async () => {
    for (const c of [child, compileGraph(child), "Child"] as const) {
      const g = compileGraph(parent(async (_s, ctx) => ({ x: `got ${String((await ctx.run<object, Values>(c as never, {}))?.["x"])}` })));
      expect(await g.invoke({ x: "" })).toEqual({ x: "got child" });
    }
  });

  it("refuses a graph the node does not declare, naming graph, node and the fix", async () => {
    const undeclared = compileGraph(parent((_s, ctx) => ctx.run(other, {})));
    await expect(undeclared.invoke({ x: "" })).rejects.toThrow(/node "p" of graph "P" runs graph "Other" with ctx.run, which it does not declare: it declares `uses: Child`/);
    const none = compileGraph(parent((_s, ctx) => ctx.run(child, {}), false));
    const e = await none.invoke({ x: "" }).catch((x: unknown) => x);
    expect(e).toMatchObject({ graph: "P", node: "p" });
    expect(String((e as Error).message)).toContain("add `{ uses: Child }` to the node");
  });

  it("with a checkpointer, a second child run in one task is MULTIPLE_SUBGRAPHS", async () => {
    const twice = compileGraph(parent(async (_s, ctx) => (await ctx.run(child, {}), ctx.run(child, {}))), { checkpointer: new MemorySaver() });
    const e = await twice.invoke({ x: "" }, { configurable: { thread_id: "t" } }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(Error);
    const cause = (e as { cause?: unknown }).cause ?? e;
    expect(cause).toBeInstanceOf(GraphValueError);
    expect(cause).toMatchObject({ code: "MULTIPLE_SUBGRAPHS", node: "p" });
  });
});
