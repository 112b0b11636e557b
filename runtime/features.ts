/**
 * The optional parts of the runtime. The loop core (loop.ts, graph.ts) never imports them: it reaches them
 * through this table, which install.ts fills ("@graphc/runtime" installs everything on import), so a bundle
 * of a graph that is only invoked through "@graphc/runtime/core" holds none of their code.
 */
import { GraphValueError } from "./errors.ts";

export interface Features {
  /** checkpoints, pending writes, interrupts/resume, durable subgraphs (durable.ts) */
  durable?: typeof import("./durable.ts");
  /** getState, getStateHistory, updateState (state.ts) */
  state?: typeof import("./state.ts");
  /** stream() (streaming.ts) */
  stream?: typeof import("./streaming.ts");
  /** retry, timeout and cache policies of nodes (policy.ts) */
  policy?: typeof import("./policy.ts");
}

export const features: Features = {};

/** The installed feature, or a `GraphValueError` saying which import provides it. */
export function need<T>(feature: T | undefined, what: string, graph: string, node?: string): T {
  if (feature !== undefined) return feature;
  throw new GraphValueError(
    `${what} needs a part of the runtime that is not loaded: import "@graphc/runtime" once (or call its install function from "@graphc/runtime/install")`,
    node === undefined ? { graph } : { graph, node },
  );
}
