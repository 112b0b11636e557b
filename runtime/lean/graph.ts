/**
 * `compileLeanGraph(spec)` → a `LeanGraph`: the public API of `CompiledGraph` (../graph.ts) for a graph that
 * the lean loop (loop.ts) can run. Generated code uses it for every graph the compiler finds lean-eligible
 * (compiler/phases/4-lower/lean.ts) and not static; it checks the spec again, so any spec is safe here. It is
 * a `StaticGraph` (../static/graph.ts: which runs go to the full compiled graph) whose runs use the lean loop.
 */
import type { CompiledNodes } from "../compiled.ts";
import type { CompileOptions, RunConfig, StreamOptions } from "../config.ts";
import type { GraphSpec, Values } from "../spec.ts";
import { isLeanSpec, NO_DEFAULTS, StaticGraph } from "../static/graph.ts";
import { runBranches } from "../writes.ts";
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
