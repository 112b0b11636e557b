/**
 * `compileGraph(spec)` → a `CompiledGraph` with LangGraph's public API: invoke, stream, getState,
 * getStateHistory, updateState, withConfig.
 */
import type { RunnableConfig } from "./checkpoint/types.ts";
import type { CompileOptions, InvokeResult, RunConfig, StreamOptions } from "./config.ts";
import { mergeConfig, runEnv } from "./config.ts";
import { checkConfigIds, configIdOf } from "./config-ids.ts";
import type { WriteRecord } from "./contracts.ts";
import { CHECKPOINTING_FIX, GraphValueError, missingPart } from "./errors.ts";
import { features, need, type GraphHandle, type StreamTarget } from "./features.ts";
import type { StreamSink } from "./contracts.ts";
import { GraphBase, noStatePart } from "./graph-base.ts";
import { Loop } from "./loop.ts";
import type { LoopSink, Run } from "./loop.ts";
import type { GraphSpec, Values } from "./spec.ts";
import type { GraphInput } from "./typed.ts";

const NO_OPTIONS = {};
// shared by runs that set none (frozen: generated `vars` only reads them, a stray write fails loudly)
const NO_VARS: Values = Object.freeze({});
const NO_TRACE_INFO: Run["traceInfo"] = Object.freeze({});

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

/**
 * A compiled graph, typed by generated code: `I` input, `O` output, `S` state, `N` node names, `U` what
 * `updateState` accepts.
 */
export class CompiledGraph<I = Values, O = Values, S = Values, N extends string = string, U = Values> extends GraphBase<I, S, N, U> {
  /**
   * cache of node results (cache policies), shared by every run of this compiled graph
   * @internal
   */
  readonly cache = new Map<string, { expires: number; record: WriteRecord }>();
  /** `defaults` is empty: `invoke` need not merge them into each call's config */
  private readonly noDefaults: boolean;

  constructor(spec: GraphSpec, options: CompileOptions = {}, defaults: StreamOptions = {}) {
    super(spec, options, defaults);
    this.noDefaults = Object.keys(defaults).length === 0;
    breakpoints(spec, options.interruptBefore, "interruptBefore");
    breakpoints(spec, options.interruptAfter, "interruptAfter");
  }

  clearCache(): void {
    this.cache.clear();
  }

  /**
   * the shared state of one run
   * @internal
   */
  makeRun(cfg: StreamOptions, sink: LoopSink | undefined, signal: AbortSignal | undefined): Run {
    const saver = cfg.checkpointer ?? this.options.checkpointer;
    // never String(): every object would become "[object Object]", one thread for all of them
    const threadId = configIdOf(cfg.configurable, "thread_id", this.spec.name);
    if (saver && (threadId === undefined || threadId === "")) {
      throw new GraphValueError(
        'A checkpointer is set but config.configurable is missing a required "thread_id" field (e.g. { configurable: { thread_id: "1" } }).',
        { graph: this.spec.name },
      );
    }
    const tracing = cfg.tracing ?? this.options.tracing;
    const run: Run = {
      saver,
      threadId,
      multitask: cfg.multitask ?? this.defaults.multitask ?? this.options.multitask,
      durability: cfg.durability ?? "async",
      signal,
      sink,
      resume: { hasValue: false, value: undefined, map: undefined },
      maxConcurrency: cfg.maxConcurrency ?? Infinity,
      varsOverride: cfg.vars ?? NO_VARS,
      env: runEnv(),
      recursionLimit: cfg.recursionLimit,
      store: cfg.store ?? this.options.store,
      checkpointMap: checkpointMapOf(cfg),
      resuming: false,
      replay: undefined,
      cache: this.cache,
      d: saver === undefined ? undefined : (features.durable ?? this.missingCheckpointing()),
      policy: features.policy,
      input: features.input,
      tracing,
      // read only by traced runs (the spans' attributes)
      traceInfo: tracing === undefined ? NO_TRACE_INFO : { tags: cfg.tags, metadata: cfg.metadata, runName: cfg.runName },
    };
    return run;
  }

  private missingCheckpointing(): never {
    throw missingPart("a checkpointer", { graph: this.spec.name }, CHECKPOINTING_FIX);
  }

  /**
   * Without the state part installed a graph without a saver fails as it would with it (no checkpointer),
   * and one with a saver names what installs checkpointing.
   * @internal
   */
  stateGraph(what: string, config: RunnableConfig | RunConfig): GraphHandle {
    return features.state !== undefined ? this : noStatePart(this, what, config);
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
    // without defaults (no withConfig) the caller's config is used as it is: nothing below writes to it
    const merged = this.noDefaults ? (config ?? this.defaults) : mergeConfig(this.defaults, config);
    const cfg = checkConfigIds(merged, this.spec.name);
    const run = this.makeRun(cfg, undefined, cfg.signal);
    const loop = this.makeLoop(cfg, run);
    const r = loop.start(input);
    const o = r instanceof Promise ? await r : r;
    const out = loop.sawOutput ? this.spec.output(loop.view ?? loop.values) : undefined;
    if (o.interrupted) return { ...out, __interrupt__: o.interrupts } as InvokeResult<O>;
    return out as InvokeResult<O>;
  }

  /** @internal */
  streamGraph(): StreamTarget {
    need(features.stream, "stream()", this.spec.name);
    return this;
  }

  /** @internal */
  streamRun(cfg: StreamOptions, sink: StreamSink, signal: AbortSignal, input: unknown): Promise<unknown> | unknown {
    return this.makeLoop(cfg, this.makeRun(cfg, sink, signal)).start(input);
  }
}

/** `checkpoint_map` of a config that names a subgraph's checkpoint (LangGraph's time travel into subgraphs) */
function checkpointMapOf(cfg: StreamOptions): Readonly<Record<string, string>> | undefined {
  const c = cfg.configurable;
  const map = c?.["checkpoint_map"];
  if (!c?.checkpoint_ns || typeof map !== "object" || map === null) return undefined;
  return map as Record<string, string>;
}

export function compileGraph<I = Values, O = Values, S = Values, N extends string = string, U = Values>(
  spec: GraphSpec,
  options: CompileOptions = {},
): CompiledGraph<I, O, S, N, U> {
  return new CompiledGraph<I, O, S, N, U>(spec, options);
}
