/**
 * What users see in the IDE: the generated types are precise, and a node function with the wrong state or
 * update type does not compile (`@ts-expect-error` lines fail the repository's `tsc` if they stop being
 * errors). The runtime assertions check that the typed functions are the ones the graph calls.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import { Command, END, Send, type NodeContext, type Overwrite } from "@graphc/runtime";
import {
  Branches,
  type BranchesDispatchBranch,
  type BranchesNode,
  type BranchesReviewBranch,
  type BranchesReviewFn,
  type BranchesReviewRouteKey,
  type BranchesSend,
  type BranchesWorkerRead,
} from "../fixtures/emit/_expected/branches.graph.ts";
import {
  Reducers,
  type ReducersBeginFn,
  type ReducersBeginRead,
  type ReducersBeginUpdate,
  type ReducersCountRead,
  type ReducersInput,
  type ReducersOutput,
  type ReducersVars,
} from "../fixtures/emit/_expected/reducers.graph.ts";
import type { ChildInput } from "../fixtures/emit/_expected/child.graph.ts";
import type { SubgraphsTransformedUpdate } from "../fixtures/emit/_expected/subgraphs.graph.ts";
import type { DeskParentCommand, NotesParentCommand } from "../fixtures/emit/_expected/parent-command.graph.ts";

describe("generated types", () => {
  it("give each node exactly the fields it reads", () => {
    expectTypeOf<ReducersBeginRead>().toEqualTypeOf<{ topic: string }>();
    expectTypeOf<ReducersCountRead>().toEqualTypeOf<{ log: string[]; scratch: string | undefined; total: number }>();
  });

  it("type updates by reducer: elements or arrays for append, numbers for sum, partial objects for merge", () => {
    expectTypeOf<{ log: "one" }>().toMatchTypeOf<ReducersBeginUpdate>();
    expectTypeOf<{ log: readonly string[] }>().toMatchTypeOf<ReducersBeginUpdate>();
    expectTypeOf<{ total: 2 }>().toMatchTypeOf<ReducersBeginUpdate>();
    expectTypeOf<{ meta: { k: "v" } }>().toMatchTypeOf<ReducersBeginUpdate>();
    expectTypeOf<{ tags: Overwrite<("a" | "b" | "c")[]> }>().toMatchTypeOf<ReducersBeginUpdate>();
    expectTypeOf<{ total: "2" }>().not.toMatchTypeOf<ReducersBeginUpdate>();
    expectTypeOf<{ tags: "z" }>().not.toMatchTypeOf<ReducersBeginUpdate>();
  });

  it("type vars, input and output", () => {
    expectTypeOf<ReducersVars>().toEqualTypeOf<{ greeting: string; step: number }>();
    expectTypeOf<ReducersInput>().toEqualTypeOf<{ topic: string }>();
    expectTypeOf<Awaited<ReturnType<typeof Reducers.invoke>>>().toMatchTypeOf<ReducersOutput>();
    expectTypeOf<ReducersOutput["summary"]>().toEqualTypeOf<string>();
  });

  it("let a node with `goto` return a Command, and type routers by their case keys", () => {
    expectTypeOf<ReturnType<BranchesReviewFn>>().toMatchTypeOf<unknown>();
    expectTypeOf<Command>().toMatchTypeOf<Awaited<ReturnType<BranchesReviewFn>>>();
    expectTypeOf<BranchesReviewRouteKey>().toEqualTypeOf<"more" | "all done">();
    expectTypeOf<Awaited<ReturnType<BranchesDispatchBranch>>>().toEqualTypeOf<BranchesSend | readonly BranchesSend[]>();
    // one packet type per node, its arg that node's read type
    expectTypeOf<Extract<BranchesSend, { node: "worker" }>>().toEqualTypeOf<Send<BranchesWorkerRead, "worker">>();
    expectTypeOf<BranchesNode>().toEqualTypeOf<"classify" | "left" | "right" | "joined" | "dispatch" | "worker" | "review">();
  });
});

describe("wrong signatures do not compile", () => {
  it("rejects node functions, routers and transforms of the wrong type", async () => {
    const ok: ReducersBeginFn = (s: { topic: string }, ctx: NodeContext<ReducersVars>) => ({ log: `${ctx.vars.greeting} ${s.topic}` });
    // @ts-expect-error a field the node does not read
    const readsMore: ReducersBeginFn = (s: { topic: string; log: string[] }) => ({ total: s.log.length });
    // @ts-expect-error a field of the wrong type
    const wrongField: ReducersBeginFn = (s: { topic: number }) => ({ total: s.topic });
    // @ts-expect-error a wrong update type for a `sum` field
    const wrongUpdate: ReducersBeginFn = () => ({ total: "1" });
    // @ts-expect-error a field the node does not declare it writes
    const undeclared: ReducersBeginFn = () => ({ best: "x" });
    // @ts-expect-error vars of the wrong type
    const wrongVars: ReducersBeginFn = (_s, ctx: NodeContext<{ greeting: number }>) => ({ total: ctx.vars.greeting });
    // @ts-expect-error a router key not listed in the cases
    const badRouter: BranchesReviewBranch = () => "again";
    // @ts-expect-error a transform into the child's input with the wrong type
    const badIn: (s: { text: string }) => ChildInput = (s) => ({ text: s.text.length });
    // @ts-expect-error a transform back into the parent writing an unknown field
    const badOut: () => SubgraphsTransformedUpdate = () => ({ nope: 1 });
    const sends: BranchesDispatchBranch = (s) => s.items.map((i) => new Send("worker", { items: [i] }));
    // @ts-expect-error a Send to a node the graph does not have
    const noSuchNode: BranchesDispatchBranch = () => new Send("wroker", { items: [1] });
    // @ts-expect-error a Send whose arg is not what its node reads
    const wrongArg: BranchesDispatchBranch = () => new Send("worker", { item: [1] });
    void [readsMore, wrongField, wrongUpdate, undeclared, wrongVars, badRouter, badIn, badOut, sends, noSuchNode, wrongArg];

    // the typed function runs: the generated graph calls it with the projection and the vars
    expect(await ok({ topic: "t" }, { vars: { greeting: "hi", step: 1 } } as NodeContext<ReducersVars>)).toEqual({ log: "hi t" });
    expect((await Branches.invoke({ intent: "other" })).rounds).toBe(1);
  });
});

describe("Command.PARENT arguments (`<Parent>ParentCommand`)", () => {
  it("type updates of any parent field and gotos to the subgraph nodes' declared targets", () => {
    const ok = { graph: Command.PARENT, update: { owner: "bob", log: ["x"] }, goto: "human" } satisfies DeskParentCommand;
    const toEnd = { graph: Command.PARENT, goto: [END] } satisfies DeskParentCommand;
    expect(new Command(ok).goto).toEqual(["human"]);
    expect(new Command(toEnd).graph).toBe(Command.PARENT);
    // @ts-expect-error a field the parent does not have
    const unknownField = { graph: Command.PARENT, update: { nope: 1 } } satisfies DeskParentCommand;
    // @ts-expect-error a field of the wrong type
    const wrongType = { graph: Command.PARENT, update: { owner: 1 } } satisfies DeskParentCommand;
    // @ts-expect-error a node no subgraph node of Desk lists in its goto
    const undeclared = { graph: Command.PARENT, goto: "triage" } satisfies DeskParentCommand;
    // @ts-expect-error no subgraph node of Notes declares goto targets: a PARENT command may only update
    const noTargets = { graph: Command.PARENT, goto: END } satisfies NotesParentCommand;
    // @ts-expect-error the literal "PARENT" is not Command.PARENT
    const literal = { graph: "PARENT", update: {} } satisfies DeskParentCommand;
    void [unknownField, wrongType, undeclared, noTargets, literal];
  });
});
