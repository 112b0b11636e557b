/**
 * What the per-graph emitters share within one file: the name scope (runtime imports included), the trace
 * (source-map markers), and access to the specs and types of child graphs.
 */
import type { Span } from "../../../grammar/span.ts";
import type { GraphIR, GraphRefIR } from "../4-lower/ir.ts";
import type { InterfaceNames } from "./bind.ts";
import type { Scope } from "./names.ts";

/** The generated names of a graph used as a subgraph (local bindings in the file being emitted). */
export interface ChildNames {
  readonly spec: string;
  readonly input: string;
  readonly output: string;
}

export interface EmitContext {
  readonly scope: Scope;
  /**
   * `text` wrapped in marker lines: the generated lines between them map to `span`. Regions nest: after an
   * inner region the outer one's span applies again.
   */
  traced(span: Span, text: string): string;
  child(ref: GraphRefIR): ChildNames;
  /**
   * The name generated code uses for an imported TS value: its local name, unless that name would be
   * shadowed by a parameter or variable of generated functions (`input`, `state`, `key`…), then an alias.
   */
  fn(local: string): string;
  /** the IR of any graph of the program, by id */
  graph(id: string): GraphIR | undefined;
  /**
   * Records what a generated `const fn: <type> = <userFn>;` binding checks (key: `<type> = <userFn>`), so
   * a TypeScript error on that line becomes the right graphc diagnostic (ts-check.ts).
   */
  binding(key: string, role: FnBinding): void;
  /** interface brands and types (bind.ts) */
  readonly interfaces: InterfaceNames;
  /** graphc version written into specs and the header */
  readonly version: string;
}

/** The marker comment text; format.ts removes these lines after prettier and records their spans. */
export const MARK_PREFIX = "//@graphc:";

/** A user function bound to its generated type: a node function, a router, a send function, a transform. */
export interface FnBinding {
  readonly role: "node" | "router" | "send" | "in" | "out";
  /** the node (or, for a branch, the source node) it belongs to */
  readonly node: string;
  readonly fn: string;
}
