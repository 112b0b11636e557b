/**
 * `compileGraph(spec)` → a `CompiledGraph` with LangGraph's public API: invoke, stream, getState,
 * getStateHistory, updateState, withConfig.
 */
import type { Tracing } from "./trace-hooks.ts";
import type { Store } from "./store/types.ts";
import type { CheckpointMetadata, CheckpointSaver, RunnableConfig } from "./checkpoint/types.ts";
import { checkConfigIds, configIdOf } from "./config-ids.ts";
import { GraphValueError } from "./errors.ts";
import type { Interrupt } from "./errors.ts";
import { features, need } from "./features.ts";
import { Loop } from "./loop.ts";
import type { Durability } from "./durability.ts";
import type { Run, WriteRecord } from "./loop.ts";
import type { GraphSpec, Values } from "./spec.ts";
import type { Multitask } from "./thread-lock.ts";
import type { Sink, StreamMode } from "./stream.ts";
import type { AsNode, GraphInput, StreamChunk, StreamHandle, StreamModes } from "./typed.ts";

/** The graphc version this runtime implements; generated code from another major (0.x: minor) is refused. */
export const RUNTIME_VERSION = "0.1.0";

export interface Configurable {
  thread_id?: string;
  checkpoint_id?: string;
  checkpoint_ns?: string;
  [key: string]: unknown;
}

export interface RunConfig {
  configurable?: Configurable;
  /** supersteps per graph level; default: the spec's `limits { recursion }`, else 25 */
  recursionLimit?: number;
  /** per-run overrides of the graph's vars (inherited by subgraphs) */
  vars?: Values;
  checkpointer?: CheckpointSaver;
  /** the long-term store for this run (overrides the compile option) */
  store?: Store;
  /** when checkpoints are written: every step awaited ("sync"), queued ("async", default), at exit only */
  durability?: Durability;
  interruptBefore?: readonly string[] | "*";
  interruptAfter?: readonly string[] | "*";
  signal?: AbortSignal;
  maxConcurrency?: number;
  /**
   * What a run or updateState does when another one holds its thread (docs/durability.md, "One run per
   * thread"): "reject" (default) fails with `ThreadBusyError`, "enqueue" waits. Wins over the compile option.
   */
  multitask?: Multitask;
  /** LangGraph's config keys: recorded on the run's trace spans (with `tracing`) */
  tags?: readonly string[];
  metadata?: Readonly<Record<string, unknown>>;
  /** the root run span's name (default: the graph's name) */
  runName?: string;
  /** spans for this run: `otelTracing(otel)` from `@graphc/runtime/tracing`; wins over the compile option */
  tracing?: Tracing;
}

export interface StreamOptions extends RunConfig {
  /** default "updates", as a compiled LangGraph StateGraph */
  streamMode?: StreamMode | readonly StreamMode[];
  subgraphs?: boolean;
}

export interface CompileOptions {
  checkpointer?: CheckpointSaver;
  /** the long-term store (`ctx.store`) shared by every thread and by subgraphs */
  store?: Store;
  /** the default of `RunConfig.multitask` for this graph */
  multitask?: Multitask;
  interruptBefore?: readonly string[] | "*";
  interruptAfter?: readonly string[] | "*";
  /** spans for every run of this graph: `otelTracing(otel)` from `@graphc/runtime/tracing` */
  tracing?: Tracing;
}

export interface StateTask<N extends string = string> {
  id: string;
  name: N;
  path: [string, string | number];
  interrupts: Interrupt[];
  error?: unknown;
  result?: Values;
  /** a subgraph task: the child's config, or its snapshot with `getState(…, { subgraphs: true })` */
  state?: RunnableConfig | StateSnapshot;
}

/** A thread's state: `S` the graph's state type, `N` its node names (generated code passes both). */
export interface StateSnapshot<S = Values, N extends string = string> {
  values: S;
  next: N[];
  tasks: StateTask<N>[];
  metadata: CheckpointMetadata | undefined;
  config: RunnableConfig;
  createdAt: string | undefined;
  parentConfig: RunnableConfig | undefined;
}

const NO_OPTIONS = {};

export type InvokeResult<O> = O & { __interrupt__?: Interrupt[] };

function env(): Readonly<Record<string, string | undefined>> {
  const p = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  return p?.env ?? {};
}

function breakpoints(
  spec: GraphSpec,
  list: readonly string[] | "*" | undefined,
  what: string,
): readonly string[] | undefined {
  if (list === undefined) return undefined;
  if (list === "*") return ["*"];
  for (const n of list) {
    if (n !== "*" && !spec.nodes.some((x) => x.name === n))
      throw new GraphValueError(`Interrupt node \`${n}\` is not present (${what})`, { graph: spec.name, node: n });
  }
  return list;
}

function checkVersion(spec: GraphSpec): void {
  const v = spec.compilerVersion;
  if (typeof v !== "string")
    throw new GraphValueError(`graph "${spec.name}" has no compilerVersion; regenerate it with graphc`, {
      graph: spec.name,
    });
  const [a, b] = v.split(".");
  const [ra, rb] = RUNTIME_VERSION.split(".");
  if (a !== ra || (a === "0" && b !== rb)) {
    throw new GraphValueError(
      `graph "${spec.name}" was generated by graphc ${v}, which this runtime (${RUNTIME_VERSION}) does not support; regenerate it`,
      { graph: spec.name },
    );
  }
}

/**
 * A compiled graph. Generated code passes the graph's types: `I` input, `O` output, `S` state, `N` node
 * names, `U` what `updateState` accepts; entry points are typed from them (typed.ts).
 */
export class CompiledGraph<I = Values, O = Values, S = Values, N extends string = string, U = Values> {
  /**
   * cache of node results (cache policies), shared by every run of this compiled graph
   * @internal
   */
  readonly cache = new Map<string, { expires: number; record: WriteRecord }>();

  constructor(
    readonly spec: GraphSpec,
    readonly options: CompileOptions = {},
    readonly defaults: StreamOptions = {},
  ) {
    checkVersion(spec);
    breakpoints(spec, options.interruptBefore, "interruptBefore");
    breakpoints(spec, options.interruptAfter, "interruptAfter");
  }

  get name(): string {
    return this.spec.name;
  }

  /** A copy of this graph whose runs use `config` as defaults (per-call config wins). */
  withConfig(config: StreamOptions): CompiledGraph<I, O, S, N, U> {
    return new CompiledGraph<I, O, S, N, U>(this.spec, this.options, mergeConfig(this.defaults, config));
  }

  clearCache(): void {
    this.cache.clear();
  }

  /**
   * the shared state of one run
   * @internal
   */
  makeRun(cfg: StreamOptions, sink: Sink | undefined, signal: AbortSignal | undefined): Run {
    const saver = cfg.checkpointer ?? this.options.checkpointer;
    // never String(): every object would become "[object Object]", one thread for all of them
    const threadId = configIdOf(cfg.configurable, "thread_id", this.spec.name);
    if (saver && (threadId === undefined || threadId === "")) {
      throw new GraphValueError(
        'A checkpointer is set but config.configurable is missing a required "thread_id" field (e.g. { configurable: { thread_id: "1" } }).',
        { graph: this.spec.name },
      );
    }
    const run: Run = {
      saver,
      threadId,
      multitask: cfg.multitask ?? this.defaults.multitask ?? this.options.multitask,
      durability: cfg.durability ?? "async",
      signal,
      sink,
      resume: { hasValue: false, value: undefined, map: undefined },
      maxConcurrency: cfg.maxConcurrency ?? Infinity,
      varsOverride: cfg.vars ?? {},
      env: env(),
      recursionLimit: cfg.recursionLimit,
      store: cfg.store ?? this.options.store,
      checkpointMap: checkpointMapOf(cfg),
      resuming: false,
      replay: undefined,
      cache: this.cache,
      d: saver === undefined ? undefined : need(features.durable, "a checkpointer", this.spec.name),
      tracing: cfg.tracing ?? this.options.tracing,
      traceInfo: { tags: cfg.tags, metadata: cfg.metadata, runName: cfg.runName },
    };
    return run;
  }

  /**
   * the root loop of one run
   * @internal
   */
  makeLoop(cfg: StreamOptions, run: Run): Loop {
    const cpId = run.checkpointMap ? run.checkpointMap[""] : cfg.configurable?.checkpoint_id;
    const before = cfg.interruptBefore ?? this.options.interruptBefore;
    const after = cfg.interruptAfter ?? this.options.interruptAfter;
    if (cpId === undefined && before === undefined && after === undefined) return new Loop(this.spec, run, NO_OPTIONS);
    return new Loop(this.spec, run, {
      ...(cpId !== undefined ? { checkpointId: cpId } : {}),
      interruptBefore: breakpoints(this.spec, before, "interruptBefore"),
      interruptAfter: breakpoints(this.spec, after, "interruptAfter"),
    });
  }

  /**
   * Runs the graph to completion (or to an interrupt) and returns the output fields. Returns `undefined`
   * when no superstep wrote an output field; an interrupted run returns `{ ...output, __interrupt__ }`.
   */
  async invoke(input: GraphInput<I>, config?: RunConfig): Promise<InvokeResult<O>> {
    const cfg = checkConfigIds(mergeConfig(this.defaults, config), this.spec.name);
    const run = this.makeRun(cfg, undefined, cfg.signal);
    const loop = this.makeLoop(cfg, run);
    const r = loop.start(input);
    const o = r instanceof Promise ? await r : r;
    const out = loop.sawOutput ? this.spec.output(loop.view ?? loop.values) : undefined;
    if (o.interrupted) return { ...out, __interrupt__: o.interrupts } as InvokeResult<O>;
    return out as InvokeResult<O>;
  }

  /**
   * Streams chunks (reference §6). Both `for await (const c of graph.stream(…))` and LangGraph's
   * `for await (const c of await graph.stream(…))` work. Breaking out of the loop cancels the run.
   */
  stream<const M extends StreamModes = "updates", const Sub extends boolean = false>(
    input: GraphInput<I>,
    options?: StreamOptions & { streamMode?: M; subgraphs?: Sub },
  ): StreamHandle<StreamChunk<M, Sub, S, N>> {
    const handle = need(features.stream, "stream()", this.spec.name).stream(this, input, options);
    return handle as StreamHandle<StreamChunk<M, Sub, S, N>>;
  }

  // ------------------------------------------------------------------------------------------------------
  // state (state.ts)

  async getState(config: RunnableConfig | RunConfig, options: { subgraphs?: boolean } = {}): Promise<StateSnapshot<S, N>> {
    const snapshot = await need(features.state, "getState()", this.spec.name).getState(this, config, options);
    return snapshot as StateSnapshot<S, N>;
  }

  async *getStateHistory(
    config: RunnableConfig | RunConfig,
    options: { limit?: number; before?: RunnableConfig; filter?: Record<string, unknown> } = {},
  ): AsyncGenerator<StateSnapshot<S, N>> {
    const history = need(features.state, "getStateHistory()", this.spec.name).getStateHistory(this, config, options);
    yield* history as AsyncGenerator<StateSnapshot<S, N>>;
  }

  /**
   * Writes `values` as if node `asNode` had returned them (its edges and routers run too) and saves an
   * "update" checkpoint. `asNode` END with `null` drops unfinished tasks; "__copy__" forks; "__input__" is
   * new input. Returns the new checkpoint's config.
   */
  async updateState(config: RunnableConfig | RunConfig, values: U | null, asNode?: AsNode<N>): Promise<RunnableConfig> {
    return need(features.state, "updateState()", this.spec.name).updateState(this, config, values, asNode);
  }

  /**
   * Several supersteps of updates, each saved as a checkpoint on the previous one; the updates of one
   * superstep are applied together as that step's writes (LangGraph's bulkUpdateState).
   */
  async bulkUpdateState(
    config: RunnableConfig | RunConfig,
    supersteps: readonly { updates: readonly { values: unknown; asNode?: string }[] }[],
  ): Promise<RunnableConfig> {
    return need(features.state, "bulkUpdateState()", this.spec.name).bulkUpdateState(this, config, supersteps);
  }
}

/** `checkpoint_map` of a config that names a subgraph's checkpoint (LangGraph's time travel into subgraphs) */
function checkpointMapOf(cfg: StreamOptions): Readonly<Record<string, string>> | undefined {
  const c = cfg.configurable;
  const map = c?.["checkpoint_map"];
  if (!c?.checkpoint_ns || typeof map !== "object" || map === null) return undefined;
  return map as Record<string, string>;
}

export function mergeConfig(base: StreamOptions, over: StreamOptions | RunConfig | undefined): StreamOptions {
  if (!over) return base;
  const merged: StreamOptions = { ...base, ...over };
  if (base.configurable || over.configurable) merged.configurable = { ...base.configurable, ...over.configurable };
  return merged;
}

export function compileGraph<I = Values, O = Values, S = Values, N extends string = string, U = Values>(
  spec: GraphSpec,
  options: CompileOptions = {},
): CompiledGraph<I, O, S, N, U> {
  return new CompiledGraph<I, O, S, N, U>(spec, options);
}
