/**
 * The graph description the differential test generates. One description is turned into both a `.graph`
 * program for graphc (graph-text.ts) and a `StateGraph` built with @langchain/langgraph (langgraph.ts), so the
 * two sides can never disagree about what the graph is; only the runtimes can.
 *
 * Field types are fixed by the reducer (replace: string, append: string[], sum: number) so that node
 * behaviour can be derived from the description alone.
 */

export type Reducer = "replace" | "append" | "sum";

export interface FieldDesc {
  readonly name: string;
  readonly reducer: Reducer;
}

/** A plain node: a deterministic function of the fields it reads (behaviour.ts). */
export interface FnNode {
  readonly kind: "fn";
  readonly name: string;
  readonly reads: readonly string[];
  readonly writes: readonly string[];
  /** varies the written values between nodes with the same reads */
  readonly salt: number;
}

/** A node that returns `Command({ update, goto })`, goto chosen from `gotos` by a hash of its input. */
export interface CommandNode {
  readonly kind: "command";
  readonly name: string;
  readonly reads: readonly string[];
  readonly writes: readonly string[];
  /** node names or END */
  readonly gotos: readonly string[];
  readonly salt: number;
}

/** A subgraph node: `subgraph name = Child` (same-name fields pass both ways). */
export interface SubgraphNode {
  readonly kind: "subgraph";
  readonly name: string;
  /** index into `Program.graphs` */
  readonly graph: number;
}

export type NodeDesc = FnNode | CommandNode | SubgraphNode;

/** `a -> b`, `a -> [b, c]` (fan-out) or `[a, b] -> c` (waiting join). `from` may be START. */
export interface EdgeDesc {
  readonly from: readonly string[];
  readonly to: readonly string[];
  readonly join: boolean;
}

/** Left side of a comparison: a sum field's value or the length of an append field. */
export interface Operand {
  readonly field: string;
  readonly len: boolean;
}

export type CmpOp = "==" | "!=" | "<" | "<=" | ">" | ">=";

export type Cond =
  | { readonly kind: "cmp"; readonly lhs: Operand; readonly op: CmpOp; readonly rhs: number }
  | { readonly kind: "and" | "or"; readonly a: Cond; readonly b: Cond }
  | { readonly kind: "not"; readonly a: Cond };

/** One case of a branch; `targets` are node names or END. */
export interface RouteCase {
  readonly key: string;
  readonly targets: readonly string[];
}

export interface CondCase {
  /** undefined = the `_` default case */
  readonly cond?: Cond;
  readonly targets: readonly string[];
}

export type BranchDesc =
  /** `from -> route(fn) { key: targets }`: fn picks a key by hashing `field` */
  | {
      readonly kind: "route";
      readonly from: string;
      readonly field: string;
      readonly salt: number;
      readonly cases: readonly RouteCase[];
    }
  /** `from -> { cond => targets, _ => targets }` */
  | { readonly kind: "cond"; readonly from: string; readonly cases: readonly CondCase[] }
  /** `from -> send(fn)`: fn returns 0..max Send packets to `target`, args built from `field` */
  | {
      readonly kind: "send";
      readonly from: string;
      readonly target: string;
      readonly field: string;
      readonly max: number;
      readonly salt: number;
    };

export interface GraphDesc {
  readonly name: string;
  readonly fields: readonly FieldDesc[];
  /** output schema (field names); absent = the whole state */
  readonly output?: readonly string[];
  readonly nodes: readonly NodeDesc[];
  readonly edges: readonly EdgeDesc[];
  /** at most one branch per source node (LangGraph names every function router "condition") */
  readonly branches: readonly BranchDesc[];
}

export interface Program {
  readonly id: string;
  readonly seed: number;
  /** children before parents; the root is the last graph */
  readonly graphs: readonly GraphDesc[];
  /** the root graph's input */
  readonly input: Readonly<Record<string, unknown>>;
  /** per-call recursion limit */
  readonly recursionLimit: number;
}

export const END = "END";
export const START = "START";

export function rootOf(p: Program): GraphDesc {
  const g = p.graphs[p.graphs.length - 1];
  if (!g) throw new Error(`program ${p.id} has no graphs`);
  return g;
}

export function fieldOf(g: GraphDesc, name: string): FieldDesc {
  const f = g.fields.find((x) => x.name === name);
  if (!f) throw new Error(`graph ${g.name} has no field ${name}`);
  return f;
}
