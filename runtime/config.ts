/**
 * What a caller passes to a compiled graph and gets back from its state API: run config, stream options,
 * compile options, state snapshots. Types (and `mergeConfig`) only, so that the optional parts that take a
 * config (streaming.ts, state.ts, features.ts) need not import graph.ts, which reaches them.
 */
import type { Tracing } from "./trace-hooks.ts";
import type { CheckpointMetadata, CheckpointSaver, RunnableConfig } from "./checkpoint/types.ts";
import type { Durability } from "./durability.ts";
import type { Interrupt } from "./errors.ts";
import type { Values } from "./spec.ts";
import type { Store } from "./store/types.ts";
import type { StreamMode } from "./stream.ts";
import type { Multitask } from "./thread-lock.ts";

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
  // docs/durability.md, "One run per thread"
  /** Another run holds the thread: "reject" (default) throws `ThreadBusyError`, "enqueue" waits. */
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

// generated code passes both type arguments
/** A thread's state: `S` the graph's state type, `N` its node names. */
export interface StateSnapshot<S = Values, N extends string = string> {
  values: S;
  next: N[];
  tasks: StateTask<N>[];
  metadata: CheckpointMetadata | undefined;
  config: RunnableConfig;
  createdAt: string | undefined;
  parentConfig: RunnableConfig | undefined;
}

export type InvokeResult<O> = O & { __interrupt__?: Interrupt[] };

/** `over` on top of `base` (per-call config wins; `configurable` merged key by key). */
export function mergeConfig(base: StreamOptions, over: StreamOptions | RunConfig | undefined): StreamOptions {
  if (!over) return base;
  const merged: StreamOptions = { ...base, ...over };
  if (base.configurable || over.configurable) merged.configurable = { ...base.configurable, ...over.configurable };
  return merged;
}

/** The environment `${NAME}` vars are read from: `process.env` where there is one (Node), else empty. */
export function runEnv(): Readonly<Record<string, string | undefined>> {
  const p = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  return p?.env ?? {};
}
