/**
 * updateState / bulkUpdateState side by side with LangGraph.js 1.7.3 (issue 13 §4; scenarios after
 * pregel.test.ts and time_travel.test.ts): `__input__` saves input for START (`next: ["__start__"]`),
 * `__copy__` with `[[values, asNode]]` forks and applies those as the forked step's task results, and
 * bulkUpdateState applies several nodes' updates as one superstep, one checkpoint per superstep.
 * Histories are compared as [source, step, next, values, parent's position in the history].
 */
import { Annotation, END, MemorySaver as LgMemorySaver, START, StateGraph } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { InvalidUpdateError, MemorySaver, compileGraph, type StateSnapshot, type Values } from "@graphc/runtime";
import { concat, graph, nodeFactory } from "../runtime/helpers.ts";

interface Side {
  invoke(input: unknown, cfg: object): Promise<unknown>;
  getState(cfg: object): Promise<StateSnapshot>;
  getStateHistory(cfg: object): AsyncIterable<StateSnapshot>;
  updateState(cfg: object, values: unknown, asNode?: string): Promise<object>;
  bulkUpdateState(cfg: object, steps: { updates: { values: unknown; asNode?: string }[] }[]): Promise<object>;
}

/** START -> a -> b [-> c] -> END over { x, log (append) }; `before` interrupts before those nodes */
function both(names: string[], before: string[] = []): { lg: Side; gc: Side } {
  const write = (name: string) => (s: { x?: string }) => ({ log: [name === "a" ? `a:${s.x}` : name] });
  const S = Annotation.Root({ x: Annotation<string>, log: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }) });
  let builder = new StateGraph(S) as unknown as { addNode: Function; addEdge: Function; compile: Function };
  for (const n of names) builder = builder.addNode(n, write(n));
  builder = builder.addEdge(START, names[0]);
  names.forEach((n, i) => (builder = builder.addEdge(n, names[i + 1] ?? END)));
  const lg = builder.compile({ checkpointer: new LgMemorySaver(), interruptBefore: before }) as Side;
  const node = nodeFactory("G", ["x", "log"]);
  const spec = graph({
    fields: { x: null, log: concat as never },
    defaults: () => ({ log: [] }),
    nodes: names.map((n, i) => node(n, write(n), { edges: [names[i + 1] ?? END] })),
    start: { edges: [names[0]!] },
    interruptBefore: before,
  });
  const gc = compileGraph(spec, { checkpointer: new MemorySaver() }) as unknown as Side;
  return { lg, gc };
}

async function history(side: Side, cfg: object) {
  const hs: StateSnapshot[] = [];
  for await (const h of side.getStateHistory(cfg)) hs.push(h);
  const ids = hs.map((h) => h.config.configurable?.checkpoint_id);
  return hs.map((h) => [
    h.metadata?.source,
    h.metadata?.step,
    h.next,
    sorted(h.values),
    h.parentConfig ? ids.indexOf(h.parentConfig.configurable?.checkpoint_id) : null,
  ]);
}
const sorted = (v: Values) => Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)));
const thread = (id: string) => ({ configurable: { thread_id: id } });

describe("updateState and bulkUpdateState as LangGraph", () => {
  it("__input__ saves the input for START; the next run applies it (fresh thread and after a finished run)", async () => {
    const { lg, gc } = both(["a", "b"]);
    for (const side of [lg, gc]) {
      await side.updateState(thread("i"), { x: "hi" }, "__input__");
      await side.invoke(null, thread("i"));
      await side.updateState(thread("i"), { x: "again" }, "__input__");
    }
    const [sl, sg] = [await lg.getState(thread("i")), await gc.getState(thread("i"))];
    expect([sg.next, sg.metadata?.source, sg.metadata?.step]).toEqual([["__start__"], "input", 3]);
    expect([sg.next, sg.metadata?.source, sg.metadata?.step]).toEqual([sl.next, sl.metadata?.source, sl.metadata?.step]);
    expect(await gc.invoke(null, thread("i"))).toEqual(await lg.invoke(null, thread("i")));
    expect(await history(gc, thread("i"))).toEqual(await history(lg, thread("i")));
  });

  it("__copy__ with [[values, asNode]] forks the checkpoint and uses the values as that task's result", async () => {
    const { lg, gc } = both(["a", "b", "c"], ["b"]);
    const results: unknown[] = [];
    for (const side of [lg, gc]) {
      await side.invoke({ x: "q" }, thread("c"));
      const paused = await side.getState(thread("c"));
      const forked = await side.updateState(paused.config, [[{ log: ["b-supplied"] }, "b"]], "__copy__");
      results.push(await side.invoke(null, forked));
    }
    expect(results[1]).toEqual({ x: "q", log: ["a:q", "b-supplied", "c"] });
    expect(results[1]).toEqual(results[0]);
    expect(await history(gc, thread("c"))).toEqual(await history(lg, thread("c")));
  });

  it("bulkUpdateState applies a superstep's updates together, one checkpoint per superstep", async () => {
    const { lg, gc } = both(["a", "b"]);
    const steps = [
      { updates: [{ values: { log: ["u-b"] }, asNode: "b" }, { values: { log: ["u-a"] }, asNode: "a" }] },
      { updates: [{ values: { x: "z" }, asNode: "b" }] },
    ];
    for (const side of [lg, gc]) {
      await side.invoke({ x: "q" }, thread("b"));
      await side.bulkUpdateState(thread("b"), steps);
    }
    expect((await gc.getState(thread("b"))).values).toEqual({ x: "z", log: ["a:q", "b", "u-b", "u-a"] });
    expect(await history(gc, thread("b"))).toEqual(await history(lg, thread("b")));
  });

  it("refuses what LangGraph refuses, with its messages", async () => {
    const { gc } = both(["a", "b"]);
    await gc.invoke({ x: "q" }, thread("e"));
    const bad = (steps: { updates: { values: unknown; asNode?: string }[] }[]) => gc.bulkUpdateState(thread("e"), steps);
    await expect(bad([])).rejects.toThrow("No supersteps provided");
    await expect(bad([{ updates: [] }])).rejects.toThrow("No updates provided");
    await expect(bad([{ updates: [{ values: {}, asNode: "a" }, { values: {} }] }])).rejects.toThrow('"asNode" is required when applying multiple updates');
    await expect(bad([{ updates: [{ values: null, asNode: END }, { values: {}, asNode: "a" }] }])).rejects.toThrow("Cannot apply multiple updates when clearing state");
    await expect(bad([{ updates: [{ values: {}, asNode: "__copy__" }, { values: {}, asNode: "a" }] }])).rejects.toThrow("Cannot copy checkpoint with multiple updates");
    await expect(bad([{ updates: [{ values: {}, asNode: "__input__" }, { values: {}, asNode: "a" }] }])).rejects.toBeInstanceOf(InvalidUpdateError);
    await expect(gc.updateState(thread("never"), {}, "__copy__")).rejects.toThrow("Cannot copy a non-existent checkpoint");
  });
});
