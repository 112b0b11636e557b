/**
 * `StaticGraph`: the public API of `CompiledGraph` (../graph.ts) for a graph the static loop (loop.ts) can
 * run — a lean-eligible graph without routers whose nodes declare no `goto`, so that each node's function type
 * returns an update or nothing, never a Command. Generated code makes one for every such graph
 * (compiler/phases/4-lower/lean.ts `staticEligible`); it checks the spec again, so any spec is safe here:
 * one the static loop cannot run goes to the full graph. Which runs go there as well: ../lean-base.ts.
 */
import type { CompileOptions, RunConfig, StreamOptions } from "../config.ts";
import { mergeConfig } from "../config.ts";
import { isLeanSpec, LeanBase, NO_DEFAULTS } from "../lean-base.ts";
import type { GraphSpec, Values } from "../spec.ts";
import { StaticLoop } from "./loop.ts";

/** The spec is lean without routers, no node declares goto targets, and it applies a lone update bare. */
function isStaticSpec(spec: GraphSpec): boolean {
  return isLeanSpec(spec, false) && spec.applyOne !== undefined && spec.nodes.every((n) => n.ends === undefined);
}

/** A compiled graph run by the static loop; typed as `CompiledGraph` (`I` input, `O` output, `S` state, `N` nodes, `U` updates). */
export class StaticGraph<I = Values, O = Values, S = Values, N extends string = string, U = Values> extends LeanBase<I, O, S, N, U> {
  constructor(spec: GraphSpec, options: CompileOptions = {}, defaults: StreamOptions = NO_DEFAULTS) {
    super(spec, options, defaults, isStaticSpec(spec));
  }

  /** A copy of this graph whose runs use `config` as defaults (per-call config wins). */
  withConfig(config: StreamOptions): StaticGraph<I, O, S, N, U> {
    return new StaticGraph<I, O, S, N, U>(this.spec, this.options, mergeConfig(this.defaults, config));
  }

  /** @internal */
  makeRun(cfg: RunConfig): StaticLoop {
    return new StaticLoop(this.spec, cfg, this.options.store);
  }
}
