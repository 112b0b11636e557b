/**
 * The optional parts of the runtime, as installed. Neither the loop (loop.ts) nor graph.ts imports a part:
 * graph.ts reads this table when it builds a run (`makeRun` puts the durable, policy and Command-input hooks
 * into it) and when `stream()` or the state API is called; a lean graph (static/graph.ts) reads it for the
 * full graph and the small loops' Command input. Each part is installed by what uses it (install.ts): checkpointing
 * by constructing a saver, streaming and policies by "@graphc/runtime", so a bundle holds only the parts its
 * program reaches. The hooks' shapes are contracts.ts's.
 */
import type { CheckpointSaver, RunnableConfig } from "./checkpoint/types.ts";
import type { CompileOptions, RunConfig, StateSnapshot, StreamOptions } from "./config.ts";
import type { CommandInputHooks, DurableHooks, PolicyHooks, StreamSink } from "./contracts.ts";
import { missingPart } from "./errors.ts";
import type { Loop, LoopSink, LoopTask, Run } from "./loop.ts";
import type { LeanTask } from "./lean/task.ts";
import type { SmallLoop } from "./small-loop.ts";
import type { GraphSpec } from "./spec.ts";
import type { Command } from "./command.ts";

/** What the graph-level parts (streaming.ts, state.ts) use of a compiled graph. */
export interface GraphHandle {
  readonly spec: GraphSpec;
  readonly options: CompileOptions;
  readonly defaults: StreamOptions;
  makeRun(cfg: StreamOptions, sink: LoopSink | undefined, signal: AbortSignal | undefined): Run;
  makeLoop(cfg: StreamOptions, run: Run): Loop;
}

/**
 * What `stream()` runs: the full compiled graph (graph.ts), or a lean graph's own small loop when the run
 * needs nothing more (static/graph.ts).
 */
export interface StreamTarget {
  readonly spec: GraphSpec;
  readonly defaults: StreamOptions;
  /** starts one run of `input` whose events go to `sink`; `cfg` is checked, the defaults merged in */
  streamRun(cfg: StreamOptions, sink: StreamSink, signal: AbortSignal, input: unknown): unknown;
}

/** `stream()` (streaming.ts) */
export interface StreamingHooks {
  stream(graph: StreamTarget, input: unknown, options?: StreamOptions): Promise<AsyncIterableIterator<unknown>> & AsyncIterableIterator<unknown>;
}

/** getState, getStateHistory, updateState, bulkUpdateState (state.ts) */
export interface StateHooks {
  getState(graph: GraphHandle, config: RunnableConfig | RunConfig, options: { subgraphs?: boolean }): Promise<StateSnapshot>;
  getStateHistory(
    graph: GraphHandle,
    config: RunnableConfig | RunConfig,
    options: { limit?: number; before?: RunnableConfig; filter?: Record<string, unknown> },
  ): AsyncGenerator<StateSnapshot>;
  updateState(graph: GraphHandle, config: RunnableConfig | RunConfig, values: unknown, asNode?: string): Promise<RunnableConfig>;
  bulkUpdateState(
    graph: GraphHandle,
    config: RunnableConfig | RunConfig,
    supersteps: readonly { updates: readonly { values: unknown; asNode?: string }[] }[],
  ): Promise<RunnableConfig>;
}

/**
 * The full compiled graph (graph.ts), as a lean graph (lean/graph.ts) hands it the runs the lean loop does
 * not make: a checkpointer, breakpoints, tracing, a Command as input, `stream()` and the state API.
 */
export interface FullGraph extends GraphHandle {
  invoke(input: unknown, config?: RunConfig): Promise<unknown>;
  streamGraph(): StreamTarget;
  stateGraph(what: string, config: RunnableConfig | RunConfig): GraphHandle;
  clearCache(): void;
}

/**
 * What the static loop (static/loop.ts) hands a Command or a list to: writes.ts's reading of a node's return
 * and the next step with its goto and Sends (static/commands.ts), installed with Command input (install.ts)
 */
export interface SmallCommands {
  settle(t: LeanTask, ret: unknown): void;
  prepare(this: SmallLoop, tasks: LeanTask[]): LeanTask[];
}

/** a Command given as input to a lean graph, on its small loop (small-command.ts) */
export interface SmallInputHooks {
  startCommand(loop: SmallLoop, input: Command): void | Promise<void>;
}

export interface Features {
  /** the full compiled graph, for the runs a lean graph hands over (installed with any other part) */
  graph?: (spec: GraphSpec, options: CompileOptions, defaults: StreamOptions) => FullGraph;
  /** checkpoints, pending writes, interrupts/resume, durable subgraphs (durable.ts) */
  durable?: DurableHooks<Loop, LoopTask>;
  /** getState, getStateHistory, updateState (state.ts) */
  state?: StateHooks;
  /** a Command or a list returned by a node of a static graph, which its type said it cannot return */
  leanWrites?: SmallCommands;
  /** a Command as input on the small loops (small-command.ts) */
  smallInput?: SmallInputHooks;
  /** a Command as invoke input (command-input.ts) */
  input?: CommandInputHooks<Loop>;
  /** stream() (streaming.ts) */
  stream?: StreamingHooks;
  /** retry, timeout, cache and error-route policies of nodes (policy.ts) */
  policy?: PolicyHooks<LoopTask>;
}

export const features: Features = {};

/** The installed part, or a `GraphValueError` saying which import provides it. */
export function need<T>(feature: T | undefined, what: string, graph: string, node?: string): T {
  if (feature !== undefined) return feature;
  throw missingPart(what, node === undefined ? { graph } : { graph, node });
}

/** a run's saver: the per-call one, withConfig's, or the compile option's */
export function saverOf(graph: Pick<GraphHandle, "defaults" | "options">, config: RunConfig | RunnableConfig | undefined): CheckpointSaver | undefined {
  return (config as RunConfig | undefined)?.checkpointer ?? graph.defaults.checkpointer ?? graph.options.checkpointer;
}
