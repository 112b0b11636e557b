/**
 * Which error a step with several failing tasks throws (reference §1.3): the first failure aborts the
 * step's siblings, a subgraph sees that at its next superstep and stops, and errors caused by the abort are
 * not aggregated. Plain nodes failing in the same step are aggregated. Each expectation below was checked
 * against @langchain/langgraph 1.7.3 with the same graph shapes.
 */
import { describe, expect, it } from "vitest";
import {
  GraphRecursionError,
  InvalidUpdateError,
  MemorySaver,
  MultipleErrors,
  NodeError,
  compileGraph,
  sum,
  type GraphSpec,
  type Values,
} from "@graphc/runtime";
import { graph, nodeFactory, sleep } from "./helpers.ts";

/** counts the supersteps each child ran, to see where a child was stopped */
type Steps = Record<string, number>;

/** A child whose node loops on itself until the recursion limit. */
function loopChild(name: string, steps: Steps): GraphSpec {
  const n = nodeFactory(name, ["x"]);
  return graph({
    name,
    fields: { x: sum as never },
    nodes: [n("c", () => ((steps[name] = (steps[name] ?? 0) + 1), { x: 1 }), { sync: true, edges: ["c"] })],
    start: { edges: ["c"] },
  });
}

/** A child whose two start nodes write the same replace field (a LastValue conflict in its first step). */
function conflictChild(name: string): GraphSpec {
  const n = nodeFactory(name, ["r"]);
  return graph({
    name,
    fields: { r: null },
    nodes: [n("c", () => ({ r: "a" }), { sync: true }), n("d", () => ({ r: "b" }), { sync: true })],
    start: { edges: ["c", "d"] },
  });
}

/**
 * A parent running `a` and `b` in its first step. A subgraph entry is called as generated code calls it,
 * through `ctx.runSubgraphNow`: a child that fails synchronously fails its task at once.
 */
function parent(a: GraphSpec | ((s: Values) => unknown), b: GraphSpec | ((s: Values) => unknown)): GraphSpec {
  const n = nodeFactory("P", ["x", "r"]);
  const node = (name: string, x: GraphSpec | ((s: Values) => unknown)) =>
    typeof x === "function"
      ? n(name, x as never)
      : n(
          name,
          (_: Values, ctx) => {
            const out = ctx.runSubgraphNow!(x, {});
            return out instanceof Promise ? out.then(() => null) : null;
          },
          { subgraph: x },
        );
  return graph({
    name: "P",
    fields: { x: sum as never, r: null },
    nodes: [node("a", a), node("b", b)],
    start: { edges: ["a", "b"] },
  });
}

const fails = (m: string) => () => {
  throw new Error(m);
};

describe("errors of one superstep (divergence 2 of the differential test)", () => {
  it("two sibling subgraphs looping into the recursion limit: the first error only, the second child is stopped", async () => {
    const steps: Steps = {};
    const g = compileGraph(parent(loopChild("A", steps), loopChild("B", steps)));
    const err = await g.invoke({}, { recursionLimit: 6 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GraphRecursionError);
    expect(err).toMatchObject({ graph: "A" });
    // B stopped at the superstep at which A failed, instead of running into its own limit
    expect(steps.B).toBeLessThan(steps.A!);
  });

  it("two sibling subgraphs with a LastValue conflict each (seed 1411): one InvalidUpdateError", async () => {
    const err = await compileGraph(parent(conflictChild("A"), conflictChild("B")))
      .invoke({})
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidUpdateError);
    expect(err).toMatchObject({ graph: "A", field: "r" });
  });

  it("the earliest failure wins: a conflict in B's first step beats A's recursion error, whatever runs first", async () => {
    const steps: Steps = {};
    for (const [a, b] of [
      [loopChild("A", steps), conflictChild("B")],
      [conflictChild("A"), loopChild("B", steps)],
    ] as const) {
      const err = await compileGraph(parent(a, b))
        .invoke({}, { recursionLimit: 6 })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InvalidUpdateError);
      expect(err).not.toBeInstanceOf(MultipleErrors);
    }
  });

  it("a plain node failing beside a subgraph: only the node's error, the subgraph stops at its next step", async () => {
    for (const order of ["sub first", "plain first"]) {
      const steps: Steps = {};
      const child = loopChild("C", steps);
      const spec = order === "sub first" ? parent(child, fails("boom")) : parent(fails("boom"), child);
      const err = await compileGraph(spec)
        .invoke({}, { recursionLimit: 6 })
        .catch((e: unknown) => e);
      expect(err, order).toBeInstanceOf(NodeError);
      expect((err as NodeError).cause, order).toMatchObject({ message: "boom" });
    }
  });

  it("two plain nodes failing in one step are both genuine: MultipleErrors, as LangGraph's AggregateError", async () => {
    const err = await compileGraph(parent(fails("1"), fails("2")))
      .invoke({})
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MultipleErrors);
    expect((err as MultipleErrors).errors.map((e) => ((e as NodeError).cause as Error).message)).toEqual(["1", "2"]);
  });

  it("a node that gives up on the aborted signal is not counted, whenever it asks for the signal", async () => {
    const seen: boolean[] = [];
    const late = async (_: Values, ctx: { signal: AbortSignal }) => {
      const signal = ctx.signal;
      await sleep(5);
      seen.push(signal.aborted);
      signal.throwIfAborted();
      return null;
    };
    // `late` takes its signal before the sibling fails (a runs first), then after it (b runs second)
    for (const spec of [parent(late as never, fails("first")), parent(fails("first"), late as never)]) {
      const err = await compileGraph(spec)
        .invoke({})
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(NodeError);
      expect((err as NodeError).cause).toMatchObject({ message: "first" });
    }
    expect(seen).toEqual([true, true]);
  });

  it("with a checkpointer (asynchronous children) the first error only, and both tasks' errors are saved", async () => {
    const steps: Steps = {};
    const g = compileGraph(parent(loopChild("A", steps), conflictChild("B")), { checkpointer: new MemorySaver() });
    const cfg = { configurable: { thread_id: "t" }, recursionLimit: 6 };
    const err = await g.invoke({}, cfg).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidUpdateError);
    const st = await g.getState(cfg);
    expect(st.next).toEqual(["a", "b"]);
    expect(st.tasks.map((t) => t.error !== undefined)).toEqual([true, true]);
  });
});
