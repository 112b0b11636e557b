/**
 * `StaticGraph`: the public API of `CompiledGraph` (../graph.ts) for a graph the static loop (loop.ts) can
 * run — a lean-eligible graph without routers whose nodes declare no `goto`, so that each node's function type
 * returns an update or nothing, never a Command. Generated code makes one for every such graph
 * (compiler/phases/4-lower/lean.ts `staticEligible`); it checks the spec again, so any spec is safe here:
 * one the static loop cannot run goes to the full graph. `LeanGraph` (below) is one that runs the lean loop
 * (../lean/loop.ts) instead.
 *
 * `invoke` and `stream()` run the graph's own small loop (`maxConcurrency` too; a Command as input with
 * ../small-command.ts, installed by install.ts `installCommandInput` when a `Command` is made) unless the run needs more: a checkpointer
 * (per call, withConfig or compile option), breakpoints or tracing. Those runs and the state API
 * go to the full compiled graph (features.ts `graph`), which importing "@graphc/runtime", constructing one of
 * graphc's savers or calling `otelTracing` installs (install.ts `installFullGraph`). Without it they fail with a
 * `GraphValueError` naming the import to add. A stream of the small loop pushes the full loop's events
 * (stream-events.ts) into the same sink (streaming.ts).
 */
import type { RunnableConfig } from "../checkpoint/types.ts";
import { isCommand, type Command } from "../command.ts";
import type { CompiledNodes } from "../compiled.ts";
import { compileNodes } from "../compiled.ts";
import type { CompileOptions, InvokeResult, RunConfig, StreamOptions } from "../config.ts";
import { mergeConfig } from "../config.ts";
import { checkConfigIds } from "../config-ids.ts";
import { CHECKPOINTING_FIX, missingPart, noInput } from "../errors.ts";
import type { StreamSink } from "../contracts.ts";
import type { FullGraph, GraphHandle, StreamTarget } from "../features.ts";
import { GraphBase, noStatePart } from "../graph-base.ts";
import { features, need } from "../features.ts";
import type { LeanRun, SmallLoop } from "../small-loop.ts";
import type { GraphSpec, Values } from "../spec.ts";
import type { GraphInput } from "../typed.ts";
import { runBranches } from "../writes.ts";
import { LeanLoop } from "../lean/loop.ts";
import { StaticLoop } from "./loop.ts";

/** the defaults of a graph made without `withConfig`, shared: nothing writes to a run's config */
export const NO_DEFAULTS: StreamOptions = {};
const EVERYTHING = 'import "@graphc/runtime" once';
const STREAMING = 'import "@graphc/runtime/streaming" once (or "@graphc/runtime")';

/**
 * The spec uses nothing but what the lean loop runs: no joins, breakpoints, deferred, subgraph or policy
 * nodes, and routers only with their code (`routers`).
 */
export function isLeanSpec(spec: GraphSpec, routers: boolean): boolean {
  return (
    spec.joins.length === 0 &&
    spec.interruptBefore.length === 0 &&
    spec.interruptAfter.length === 0 &&
    (routers || spec.start.branches.length === 0) &&
    spec.nodes.every(
      (n) =>
        !n.defer && !n.retry && !n.timeout && !n.cache && n.onError === undefined && n.subgraph === undefined && (routers || n.branches.length === 0),
    )
  );
}

/** What of a run the small loop does not make, or undefined when it makes all of it. */
function fullRunReason(graph: StaticGraph<unknown, unknown, unknown, string, unknown>, cfg: StreamOptions): string | undefined {
  const o = graph.options;
  if (!graph.lean) return `graph "${graph.spec.name}" (joins, breakpoints, deferred, subgraph or policy nodes)`;
  if ((cfg.checkpointer ?? o.checkpointer) !== undefined) return "a checkpointer";
  if ((cfg.interruptBefore ?? o.interruptBefore ?? cfg.interruptAfter ?? o.interruptAfter) !== undefined) return "interruptBefore/interruptAfter";
  // a Command as input and maxConcurrency run on the small loop (`invoke`, `streamRun`)
  return (cfg.tracing ?? o.tracing) !== undefined ? "tracing" : undefined;
}

/**
 * the full compiled graph of `graph`'s spec and config, or the `GraphValueError` naming what installs it (a
 * saver for a checkpointer, else "@graphc/runtime")
 */
function full(
  graph: StaticGraph<unknown, unknown, unknown, string, unknown>,
  what: string,
  fix = what === "a checkpointer" ? CHECKPOINTING_FIX : EVERYTHING,
): FullGraph {
  if (graph.fullGraph !== undefined) return graph.fullGraph;
  const make = features.graph;
  if (make === undefined) throw missingPart(what, { graph: graph.spec.name }, fix);
  return (graph.fullGraph = make(graph.spec, graph.options, graph.defaults));
}

/** A compiled graph run by the static loop; typed as `CompiledGraph` (`I` input, `O` output, `S` state, `N` nodes, `U` updates). */
export class StaticGraph<I = Values, O = Values, S = Values, N extends string = string, U = Values> extends GraphBase<I, S, N, U> {
  // the fields are set by the constructor or on first use: declared only (lean/task.ts says why)
  /** @internal */
  declare fullGraph: FullGraph | undefined;
  /**
   * the small loop can run the spec (the static loop here, the lean loop in a `LeanGraph`)
   * @internal
   */
  declare lean: boolean;
  /**
   * the spec's compiled nodes, kept from the first small run (compileNodes' cache is a WeakMap lookup per run)
   * @internal
   */
  declare private leanNodes: CompiledNodes | undefined;
  /**
   * a `LeanGraph`'s router code (`compileLeanGraph` gives it), which `withConfig` hands its copy
   * @internal
   */
  declare protected readonly router: typeof runBranches | undefined;

  constructor(spec: GraphSpec, options?: CompileOptions, defaults?: StreamOptions);
  /** @internal */
  constructor(spec: GraphSpec, options: CompileOptions, defaults: StreamOptions, router: typeof runBranches | undefined);
  constructor(spec: GraphSpec, options: CompileOptions = {}, defaults: StreamOptions = NO_DEFAULTS, router?: typeof runBranches) {
    super(spec, options, defaults);
    this.router = router;
    this.lean = this.runs(spec);
    // breakpoints given at compile time are checked now, by the graph that runs them
    if (options.interruptBefore !== undefined || options.interruptAfter !== undefined) full(this, "interruptBefore/interruptAfter");
  }

  /**
   * the small loop can run `spec`: here lean without routers, no node declares goto targets, and a lone
   * update is applied bare
   * @internal
   */
  runs(spec: GraphSpec): boolean {
    return isLeanSpec(spec, false) && spec.applyOne !== undefined && spec.nodes.every((n) => n.ends === undefined);
  }

  /**
   * a run of the small loop with this config (checked, defaults merged)
   * @internal
   */
  makeRun(c: CompiledNodes, cfg: LeanRun): SmallLoop {
    return new StaticLoop(c, cfg, this.options.store);
  }

  clearCache(): void {
    this.fullGraph?.clearCache();
  }

  /**
   * Runs the graph to completion and returns the output fields, or `undefined` when no superstep wrote an
   * output field (as `CompiledGraph.invoke`).
   */
  async invoke(input: GraphInput<I>, config?: RunConfig): Promise<InvokeResult<O>> {
    const spec = this.spec;
    // without defaults the caller's config is used as it is, as CompiledGraph.invoke does: nothing writes to it
    const cfg = checkConfigIds(this.defaults === NO_DEFAULTS ? (config ?? NO_DEFAULTS) : mergeConfig(this.defaults, config), spec.name);
    const reason = fullRunReason(this, cfg);
    if (reason !== undefined) return (await full(this, reason).invoke(input, config)) as InvokeResult<O>;
    const loop = this.makeRun((this.leanNodes ??= compileNodes(spec)), cfg);
    // inline rather than a method shared with streamRun: that call read W5 ×1.06 against ×0.95 in one
    // bench/ab.ts pair of runs (noisy; docs/benchmarks.md, "W5, measured apart")
    if (input === null || input === undefined) throw noInput({ graph: spec.name });
    const r = isCommand(input) ? this.commandRun(loop, input) : loop.start(spec.input(input));
    if (r !== undefined) await r;
    return (loop.sawOutput ? spec.output(loop.values) : undefined) as InvokeResult<O>;
  }

  /**
   * a small run from a Command given as input (small-command.ts, installed)
   * @internal
   */
  commandRun(loop: SmallLoop, input: Command): void | Promise<void> {
    return need(features.smallInput, "A Command as input", this.spec.name).startCommand(loop, input);
  }

  /**
   * `stream()` runs on the small loop too, unless the run needs more (as `invoke`); without streaming
   * installed it fails, naming the import
   * @internal
   */
  streamGraph(options: StreamOptions | undefined): StreamTarget {
    if (features.stream === undefined) throw missingPart("stream()", { graph: this.spec.name }, STREAMING);
    const reason = fullRunReason(this, mergeConfig(this.defaults, options));
    return reason === undefined ? this : full(this, reason).streamGraph();
  }

  /**
   * a streamed run of the small loop (streaming.ts): as `invoke`'s, with the stream's sink and signal
   * @internal
   */
  streamRun(cfg: StreamOptions, sink: StreamSink, signal: AbortSignal, input: unknown): void | Promise<void> {
    const spec = this.spec;
    const loop = this.makeRun((this.leanNodes ??= compileNodes(spec)), { ...cfg, signal, sink });
    if (input === null || input === undefined) throw noInput({ graph: spec.name });
    return isCommand(input) ? this.commandRun(loop, input) : loop.start(spec.input(input));
  }

  /**
   * The state API runs on the full graph; without it installed, a run without a saver fails as there.
   * @internal
   */
  stateGraph(what: string, config: RunnableConfig | RunConfig): GraphHandle {
    return features.graph === undefined ? noStatePart(this, what, config) : full(this, what, CHECKPOINTING_FIX).stateGraph(what, config);
  }
}

// Generated code makes a LeanGraph for every graph the compiler finds lean-eligible and not static
// (compiler/phases/4-lower/lean.ts): `compileLeanGraph(spec)` with routers, `new LeanGraph(spec)` without, whose
// bundle then holds no router code (a spec with routers runs on the full graph, as one the lean loop cannot
// run). A bundle that makes none drops the class and the lean loop (both free of side effects).
/** A compiled graph run by the lean loop; typed as `CompiledGraph` (`I` input, `O` output, `S` state, `N` nodes, `U` updates). */
export class LeanGraph<I = Values, O = Values, S = Values, N extends string = string, U = Values> extends StaticGraph<I, O, S, N, U> {
  /** @internal */
  override runs(spec: GraphSpec): boolean {
    // routers without their code (`new LeanGraph(spec)`): the full graph runs them
    return isLeanSpec(spec, this.router !== undefined);
  }

  /** @internal */
  override makeRun(c: CompiledNodes, cfg: LeanRun): LeanLoop {
    return new LeanLoop(c, cfg, this.options.store, this.router);
  }
}

export function compileLeanGraph<I = Values, O = Values, S = Values, N extends string = string, U = Values>(
  spec: GraphSpec,
  options: CompileOptions = {},
): LeanGraph<I, O, S, N, U> {
  return new LeanGraph<I, O, S, N, U>(spec, options, NO_DEFAULTS, runBranches);
}
