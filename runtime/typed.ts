/**
 * The types of a compiled graph's entry points, from the graph's own types (generated code passes them to
 * `compileGraph<Input, Output, State, Node, Update>`): what `invoke`/`stream` accept, the chunk type of
 * `stream()` for its `streamMode` (a literal or a tuple) and `subgraphs`, and typed state snapshots.
 * Types only: nothing here reaches a bundle.
 */
import type { Command } from "./command.ts";
import type { Interrupt } from "./errors.ts";
import type { Message } from "./message-like.ts";
import type { Values } from "./spec.ts";
import type { StreamMode } from "./stream.ts";

/** What `invoke`/`stream` accept: the input, a Command (resume, update, goto), or null (continue a thread). */
export type GraphInput<I> = I | Command | null;

/** The chunk an interrupted run streams in "values" and "updates" mode. */
export interface InterruptChunk {
  __interrupt__: Interrupt[];
}

/** The payload of each stream mode, for a graph with state `S` and node names `N`. */
export interface ModeChunks<S, N extends string> {
  /** the whole state after each superstep */
  values: S | InterruptChunk;
  /** per superstep, each node's update by node name */
  updates: { [K in N]?: Partial<S> } | InterruptChunk;
  /** what nodes wrote with `ctx.writer(…)` */
  custom: unknown;
  tasks: Values;
  debug: Values;
  messages: [message: Message, metadata: Values];
  checkpoints: Values;
}

/** `streamMode` as `stream()` accepts it: one mode or a tuple of modes. */
export type StreamModes = StreamMode | readonly StreamMode[];

// With `subgraphs: true` typed loosely, since a subgraph's chunks carry the subgraph's own state.
/**
 * One chunk of `stream()`: the payload for one mode; `[mode, payload]` for a tuple of modes; with
 * `subgraphs: true` prefixed by the namespace (`[]` for the root).
 */
export type StreamChunk<M extends StreamModes, Sub extends boolean, S, N extends string> = Sub extends true
  ? M extends StreamMode
    ? [namespace: string[], payload: ModeChunks<Values, string>[M]]
    : { [K in ModesOf<M>]: [namespace: string[], mode: K, payload: ModeChunks<Values, string>[K]] }[ModesOf<M>]
  : M extends StreamMode
    ? ModeChunks<S, N>[M]
    : { [K in ModesOf<M>]: [mode: K, payload: ModeChunks<S, N>[K]] }[ModesOf<M>];

type ModesOf<M extends StreamModes> = M extends readonly (infer E extends StreamMode)[] ? E : M & StreamMode;

/** What `stream()` returns: iterable directly, or awaited first (LangGraph's form). */
export type StreamHandle<C> = Promise<AsyncIterableIterator<C>> & AsyncIterableIterator<C>;

/** `updateState`'s `asNode`: a node, or LangGraph's special writers. */
export type AsNode<N extends string> = N | "__start__" | "__input__" | "__copy__" | "__end__";
