/**
 * What `CompiledGraph` (graph.ts) and `StaticGraph`/`LeanGraph` (static/graph.ts) share: the spec, options and
 * config defaults, `withConfig`, `stream()` and the state API, which all run on the full compiled graph through the installed
 * parts (streaming.ts, state.ts). One copy of these members (and of their declarations) serves both classes.
 */
import type { RunnableConfig } from "./checkpoint/types.ts";
import type { CompileOptions, RunConfig, StateSnapshot, StreamOptions } from "./config.ts";
import { mergeConfig } from "./config.ts";
import { checkConfigIds } from "./config-ids.ts";
import { CHECKPOINTING_FIX, missingCheckpointer, missingPart } from "./errors.ts";
import { features, saverOf, type GraphHandle, type StreamTarget } from "./features.ts";
import type { GraphSpec, Values } from "./spec.ts";
import type { AsNode, GraphInput, StreamChunk, StreamHandle, StreamModes } from "./typed.ts";
import { checkVersion } from "./version.ts";

/** What every compiled graph has (`I` input, `S` state, `N` node names, `U` what `updateState` accepts). */
export abstract class GraphBase<I = Values, S = Values, N extends string = string, U = Values> {
  // set by the constructor: declared only (lean/task.ts says why)
  declare readonly spec: GraphSpec;
  declare readonly options: CompileOptions;
  declare readonly defaults: StreamOptions;

  constructor(spec: GraphSpec, options: CompileOptions = {}, defaults: StreamOptions = {}) {
    this.spec = spec;
    this.options = options;
    this.defaults = defaults;
    checkVersion(spec);
  }

  /**
   * a `LeanGraph`'s router code (static/graph.ts), which `withConfig` hands its copy
   * @internal
   */
  declare protected readonly router: unknown;

  get name(): string {
    return this.spec.name;
  }

  /** A copy of this graph whose runs use `config` as defaults (per-call config wins). */
  withConfig(config: StreamOptions): this {
    // the class of this graph (a LeanGraph's router too: the other classes take three arguments)
    const Graph = this.constructor as new (spec: GraphSpec, options: CompileOptions, defaults: StreamOptions, router: unknown) => this;
    return new Graph(this.spec, this.options, mergeConfig(this.defaults, config), this.router);
  }

  /**
   * the graph that runs `stream(…, options)`: the full one, or a lean graph's small loop; returns only
   * when the streaming part is installed (else throws the error naming its import)
   * @internal
   */
  abstract streamGraph(options: StreamOptions | undefined): StreamTarget;

  /**
   * the full graph that runs the state call `what`; returns only when the state part is installed (else
   * throws the error a graph without a saver or without the part gives)
   * @internal
   */
  abstract stateGraph(what: string, config: RunnableConfig | RunConfig): GraphHandle;

  /**
   * Streams chunks: `for await (const c of graph.stream(…))`, or LangGraph's `await graph.stream(…)` first.
   * Breaking out of the loop cancels the run.
   */
  stream<const M extends StreamModes = "updates", const Sub extends boolean = false>(
    input: GraphInput<I>,
    options?: StreamOptions & { streamMode?: M; subgraphs?: Sub },
  ): StreamHandle<StreamChunk<M, Sub, S, N>> {
    const g = this.streamGraph(options);
    return features.stream!.stream(g, input, options) as StreamHandle<StreamChunk<M, Sub, S, N>>;
  }

  async getState(config: RunnableConfig | RunConfig, options: { subgraphs?: boolean } = {}): Promise<StateSnapshot<S, N>> {
    const g = this.stateGraph("getState()", config);
    return (await features.state!.getState(g, config, options)) as StateSnapshot<S, N>;
  }

  async *getStateHistory(
    config: RunnableConfig | RunConfig,
    options: { limit?: number; before?: RunnableConfig; filter?: Record<string, unknown> } = {},
  ): AsyncGenerator<StateSnapshot<S, N>> {
    const g = this.stateGraph("getStateHistory()", config);
    yield* features.state!.getStateHistory(g, config, options) as AsyncGenerator<StateSnapshot<S, N>>;
  }

  /**
   * Writes `values` as if node `asNode` had returned them (its edges and routers run too) and saves an
   * "update" checkpoint. `asNode` END with `null` drops unfinished tasks; "__copy__" forks; "__input__" is
   * new input. Returns the new checkpoint's config.
   */
  async updateState(config: RunnableConfig | RunConfig, values: U | null, asNode?: AsNode<N>): Promise<RunnableConfig> {
    const g = this.stateGraph("updateState()", config);
    return features.state!.updateState(g, config, values, asNode);
  }

  /**
   * Several supersteps of updates, each saved as a checkpoint on the previous one; the updates of one
   * superstep are applied together as that step's writes (LangGraph's bulkUpdateState).
   */
  async bulkUpdateState(
    config: RunnableConfig | RunConfig,
    supersteps: readonly { updates: readonly { values: unknown; asNode?: string }[] }[],
  ): Promise<RunnableConfig> {
    const g = this.stateGraph("bulkUpdateState()", config);
    return features.state!.bulkUpdateState(g, config, supersteps);
  }
}

/**
 * The error of a state call (`what`) on `graph` without the state part installed: as without a saver when the
 * run has none (`MISSING_CHECKPOINTER`), else naming what installs checkpointing (both compiled graphs).
 */
export function noStatePart(graph: GraphBase<unknown, unknown, string, unknown>, what: string, config: RunnableConfig | RunConfig): never {
  const site = { graph: graph.spec.name };
  if (saverOf(graph, checkConfigIds(config, site.graph)) === undefined) throw missingCheckpointer(site);
  throw missingPart(what, site, CHECKPOINTING_FIX);
}
