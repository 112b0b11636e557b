/**
 * Slots (`subgraph ask: Answerer [= AnswerA]`) in generated code: `.bind({ ask: Impl })` runs the bound
 * child with the parent's entry points; only graphs that declare `implements Answerer` fit (the
 * `@ts-expect-error` lines fail the repository's tsc if they stop being errors); an unbound slot is a typed
 * run-time error; a bound graph keeps its binding when bound into another slot; checkpoints resume under
 * the binding of the compiled graph that resumes them.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import { GraphValueError, MemorySaver } from "@graphc/runtime";
import {
  AnswerA,
  AnswerB,
  Desk,
  DeskSpec,
  DeskSpecFor,
  Kept,
  Lookalike,
  Open,
  type Answerer,
  type DeskSlots,
} from "../fixtures/emit/_expected/slots.graph.ts";

describe("slots", () => {
  it("run the default binding, or the bound graph with the same entry points", async () => {
    expect(await Desk.invoke({ question: "q" })).toEqual({ answer: "A: q", log: ["A"], turns: 1 });
    const bound = Desk.bind({ ask: AnswerB });
    expect(await bound.invoke({ question: "q" })).toEqual({ answer: "B: q", log: ["B"], turns: 1 });
    // binding builds a new spec; the default graph is unchanged
    expect(bound.spec).not.toBe(DeskSpec);
    expect(await Desk.invoke({ question: "again" })).toMatchObject({ answer: "A: again" });
    // the spec of a graph with slots is a function of its bindings (no reflection): the node's child is the bound spec
    const child = (spec: typeof DeskSpec) => spec.nodes.find((n) => n.name === "ask")?.subgraph;
    expect(child(DeskSpecFor({ ask: AnswerB.spec }))).toBe(AnswerB.spec);
    expect(child(DeskSpec)).toBe(AnswerA.spec);
  });

  it("take only graphs that declare the interface (nominal through a brand), not lookalikes", () => {
    expectTypeOf(AnswerB).toMatchTypeOf<Answerer>();
    expectTypeOf(Lookalike).not.toMatchTypeOf<Answerer>();
    // @ts-expect-error Lookalike has AnswerB's fields but does not declare `implements Answerer`
    const wrong: DeskSlots = { ask: Lookalike };
    expect(wrong.ask).toBe(Lookalike);
    // @ts-expect-error a slot without a default must be bound: `ask` is required
    const unbound = Open.bind({});
    expect(unbound.name).toBe("Open"); // untyped callers get the run-time error below
    // @ts-expect-error only the graph's slots can be bound
    Desk.bind({ other: AnswerB });
    // Desk has a slot but declares no interface itself: it does not fit a slot either
    expectTypeOf(Desk).not.toMatchTypeOf<Answerer>();
  });

  it("fail with a typed error naming graph and slot when a slot without a default is not bound", async () => {
    const err = await Open.invoke({ question: "q" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GraphValueError);
    expect(err).toMatchObject({ code: "UNBOUND_SLOT", graph: "Open", node: "ask" });
    expect((err as Error).message).toContain('slot "ask" (Answerer) is not bound');
    expect(await Open.bind({ ask: AnswerB }).invoke({ question: "q" })).toEqual({ answer: "B: q", log: ["B"] });
  });

  it("keep a bound graph's binding when it is bound into another slot (nested)", async () => {
    const inner = Open.bind({ ask: AnswerB });
    expectTypeOf(inner).toMatchTypeOf<Answerer>(); // a bound implementation still implements
    expect(await Desk.bind({ ask: inner }).invoke({ question: "deep" })).toEqual({ answer: "B: deep", log: ["B"], turns: 1 });
    expect(await Desk.bind({ ask: Open.bind({ ask: AnswerA }) }).invoke({ question: "deep" })).toMatchObject({ answer: "A: deep" });
  });

  it("resume a thread's checkpoints under the binding of the graph that runs it", async () => {
    const checkpointer = new MemorySaver();
    const config = { configurable: { thread_id: "t1" } };
    const bound = Desk.bind({ ask: AnswerB }).withConfig({ checkpointer });
    await bound.invoke({ question: "one" }, config);
    expect(await bound.invoke({ question: "two" }, config)).toEqual({ answer: "B: two", log: ["B", "B"], turns: 2 });
    // the checkpoint holds the parent's state, not the binding: the default graph continues the thread with A
    const rebound = Desk.withConfig({ checkpointer });
    expect(await rebound.invoke({ question: "three" }, config)).toEqual({ answer: "A: three", log: ["B", "B", "A"], turns: 3 });
  });

  it("bind a stateful slot: the bound child keeps its state across calls on one thread", async () => {
    const checkpointer = new MemorySaver();
    const config = { configurable: { thread_id: "k" } };
    const kept = Kept.bind({ ask: AnswerB }).withConfig({ checkpointer });
    await kept.invoke({ question: "one" }, config);
    await kept.invoke({ question: "two" }, config);
    const child = await kept.getState({ configurable: { thread_id: "k", checkpoint_ns: "ask" } });
    expect((child.values as { log: string[] }).log).toEqual(["B", "B"]);
  });
});
