/**
 * `compileLeanGraph(spec)` → a `LeanGraph`: the public API of `CompiledGraph` (../graph.ts) for a graph that
 * the lean loop (loop.ts) can run. Generated code uses it for every graph the compiler finds lean-eligible
 * (compiler/phases/4-lower/lean.ts) and not static; it checks the spec again, so any spec is safe here. It is
 * a `StaticGraph` (../static/graph.ts: which runs go to the full compiled graph) whose runs use the lean loop.
 */
import type { CompiledNodes } from "../compiled.ts";
import type { CompileOptions, RunConfig, StreamOptions } from "../config.ts";
import { features } from "../features.ts";
import type { GraphSpec, Values } from "../spec.ts";
import { isLeanSpec, NO_DEFAULTS, StaticGraph } from "../static/graph.ts";
import { runBranches, takeReturn } from "../writes.ts";
import { LeanLoop } from "./loop.ts";

/** A compiled graph run by the lean loop; typed as `CompiledGraph` (`I` input, `O` output, `S` state, `N` nodes, `U` updates). */
export class LeanGraph<I = Values, O = Values, S = Values, N extends string = string, U = Values> extends StaticGraph<I, O, S, N, U> {
  constructor(spec: GraphSpec, options?: CompileOptions, defaults?: StreamOptions);
  /** @internal */
  constructor(spec: GraphSpec, options: CompileOptions, defaults: StreamOptions, router: typeof runBranches | undefined);
  constructor(spec: GraphSpec, options: CompileOptions = {}, defaults: StreamOptions = NO_DEFAULTS, router?: typeof runBranches) {
    super(spec, options, defaults);
    // writes.ts `runBranches`, which `compileLeanGraph` gives; without it (`new LeanGraph(spec)`, what generated
    // code of a graph without routers writes) the bundle holds no router code, and a spec with routers runs on
    // the full graph, as one the lean loop cannot run
    this.router = router;
    // routers without their code: the full graph runs them
    this.lean = isLeanSpec(spec, router !== undefined);
  }

  /**
   * Installs what a static graph's loop hands a Command or a list to, which a node returns after all (an
   * untyped function, a cast): the lean loop's code, so that the run goes on as on the lean loop. "@graphc/runtime"
   * calls it (features.ts `leanWrites`).
   * @internal
   */
  static leanWrites(): void {
    features.leanWrites = { settle: takeReturn, prepare: LeanLoop.prototype.prepare };
  }

  /** @internal */
  override makeRun(c: CompiledNodes, cfg: RunConfig): LeanLoop {
    return new LeanLoop(c, cfg, this.options.store, this.router);
  }
}

export function compileLeanGraph<I = Values, O = Values, S = Values, N extends string = string, U = Values>(
  spec: GraphSpec,
  options: CompileOptions = {},
): LeanGraph<I, O, S, N, U> {
  return new LeanGraph<I, O, S, N, U>(spec, options, NO_DEFAULTS, runBranches);
}
