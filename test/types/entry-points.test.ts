/**
 * The typed entry points of a generated graph, as the user's editor sees them: `invoke`/`stream` take the
 * graph's input (or a Command, or null), `stream()` chunks follow `streamMode` and `subgraphs`, and
 * `getState`/`updateState` speak the graph's state and node names. The `@ts-expect-error` lines fail the
 * repository's `tsc` (part of `npm test`) as soon as the call they mark stops being a type error.
 */
import { describe, expectTypeOf, it } from "vitest";
import { Command, type InterruptChunk, type Message, type RunnableConfig, type Values } from "@graphc/runtime";
import {
  Reducers,
  type ReducersNode,
  type ReducersOutput,
  type ReducersState,
  type ReducersUpdate,
} from "../fixtures/emit/_expected/reducers.graph.ts";

type ChunkOf<F extends (...args: never[]) => unknown> = ReturnType<F> extends AsyncIterableIterator<infer C> ? C : never;
const config: RunnableConfig = { configurable: { thread_id: "t" } };

/** Never called: the calls exist to be type-checked. */
export function callSites(): void {
  // @ts-expect-error a misspelt input key
  void Reducers.invoke({ topik: "graphs" });
  // @ts-expect-error an unknown key beside the right ones
  void Reducers.invoke({ topic: "graphs", usr: "ada" });
  // @ts-expect-error a wrongly typed input key
  void Reducers.invoke({ topic: 5 });
  // @ts-expect-error a missing required input key
  void Reducers.invoke({});
  // @ts-expect-error not an input at all
  void Reducers.invoke("graphs");
  // @ts-expect-error stream() takes the same input
  void Reducers.stream({ topik: "graphs" });
  // @ts-expect-error only the graph's nodes (and LangGraph's special writers) can be `asNode`
  void Reducers.updateState(config, { topic: "x" }, "nope");
  // @ts-expect-error updateState's values are the graph's fields
  void Reducers.updateState(config, { nope: 1 });
  // @ts-expect-error a field's update follows its reducer (total: sum takes numbers)
  void Reducers.updateState(config, { total: "2" });

  void Reducers.invoke({ topic: "graphs" });
  void Reducers.invoke({ topic: "graphs" }, config);
  void Reducers.invoke(null, config);
  void Reducers.invoke(new Command({ resume: "yes" }), config);
  void Reducers.updateState(config, { total: 2, log: "one" }, "begin");
  void Reducers.updateState(config, null, "__end__");
}

describe("typed entry points", () => {
  it("invoke returns the output, with the interrupts of a paused run", () => {
    expectTypeOf<Awaited<ReturnType<typeof Reducers.invoke>>>().toMatchTypeOf<ReducersOutput>();
    expectTypeOf<Awaited<ReturnType<typeof Reducers.invoke>>["__interrupt__"]>().toEqualTypeOf<
      import("@graphc/runtime").Interrupt[] | undefined
    >();
  });

  it("stream chunks follow a literal streamMode", () => {
    const updates = () => Reducers.stream({ topic: "x" });
    const values = () => Reducers.stream({ topic: "x" }, { streamMode: "values" });
    const messages = () => Reducers.stream({ topic: "x" }, { streamMode: "messages" });
    expectTypeOf<ChunkOf<typeof updates>>().toEqualTypeOf<{ [K in ReducersNode]?: Partial<ReducersState> } | InterruptChunk>();
    expectTypeOf<ChunkOf<typeof values>>().toEqualTypeOf<ReducersState | InterruptChunk>();
    expectTypeOf<ChunkOf<typeof messages>>().toEqualTypeOf<[message: Message, metadata: Values]>();
  });

  it("stream chunks follow a tuple of modes: [mode, payload]", () => {
    const both = () => Reducers.stream({ topic: "x" }, { streamMode: ["values", "custom"] });
    expectTypeOf<ChunkOf<typeof both>>().toEqualTypeOf<
      [mode: "values", payload: ReducersState | InterruptChunk] | [mode: "custom", payload: unknown]
    >();
  });

  it("stream chunks carry the namespace with subgraphs: true", () => {
    const one = () => Reducers.stream({ topic: "x" }, { streamMode: "values", subgraphs: true });
    const two = () => Reducers.stream({ topic: "x" }, { streamMode: ["updates", "custom"], subgraphs: true });
    expectTypeOf<ChunkOf<typeof one>>().toEqualTypeOf<[namespace: string[], payload: Values | InterruptChunk]>();
    expectTypeOf<ChunkOf<typeof two>>().toEqualTypeOf<
      | [namespace: string[], mode: "updates", payload: { [x: string]: Partial<Values> | undefined } | InterruptChunk]
      | [namespace: string[], mode: "custom", payload: unknown]
    >();
  });

  it("getState and getStateHistory give the graph's state and node names; updateState takes its update type", () => {
    type Snapshot = Awaited<ReturnType<typeof Reducers.getState>>;
    expectTypeOf<Snapshot["values"]>().toEqualTypeOf<ReducersState>();
    expectTypeOf<Snapshot["next"]>().toEqualTypeOf<ReducersNode[]>();
    expectTypeOf<Snapshot["tasks"][number]["name"]>().toEqualTypeOf<ReducersNode>();
    type History = ReturnType<typeof Reducers.getStateHistory> extends AsyncGenerator<infer H> ? H : never;
    expectTypeOf<History>().toEqualTypeOf<Snapshot>();
    expectTypeOf<Parameters<typeof Reducers.updateState>[1]>().toEqualTypeOf<ReducersUpdate | null>();
  });
});
