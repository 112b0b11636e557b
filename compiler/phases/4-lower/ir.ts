/**
 * The graph IR: what lowering (phases/4-lower) builds from the checked program model, and the single input
 * of every emitter — TypeScript (phases/5-emit), Mermaid and DOT (the CLI's `graph` command) — so a diagram
 * can never disagree with the code.
 *
 * Plain data, JSON-serialisable, deterministic (declaration order everywhere). Names are DSL names; `END`
 * appears as the string "END" in target lists (emitters translate it to the runtime's constant). Every
 * element keeps the span of the declaration it comes from (for the source map and for diagnostics from
 * TypeScript mapped back to the `.graph` file).
 */
import type { Span } from "../../../grammar/span.ts";
import type { BuiltinReducerName } from "../reducers.ts";

export interface ProgramIR {
  /** one entry per loaded `.graph` file, in load order (entry files first) */
  readonly files: FileIR[];
}

export interface FileIR {
  /** the `.graph` file (normalised path, as in the program model) */
  readonly file: string;
  /** TS imports (values and types) and imports of other `.graph` files, in source order */
  readonly imports: ImportIR[];
  /** local `type` aliases, in source order */
  readonly types: TypeAliasIR[];
  /** `interface` declarations, in source order (each becomes a brand, emit/bind.ts) */
  readonly interfaces: InterfaceIR[];
  /**
   * Every graph of the file, inline subgraphs included, ordered so that a graph comes after every graph of
   * this file it uses as a subgraph (declaration order otherwise).
   */
  readonly graphs: GraphIR[];
}

/**
 * `interface Q { … }`: its name and its shape, lowered like a graph of schema blocks only (fields, input,
 * output; no nodes). Emitted as a brand (emit/bind.ts); the manifest lists its contract.
 */
export interface InterfaceIR {
  readonly name: string;
  readonly span: Span;
  readonly shape: GraphIR;
}

/** `import { a, b as c } from "m"`; for a `.graph` import, the names are graphs. */
export interface ImportIR {
  readonly kind: "value" | "type" | "graph";
  readonly module: string;
  /** `type`: for a `.graph` import, the name is a `type` alias of that file (not a graph) */
  readonly names: { readonly exported: string; readonly local: string; readonly type?: boolean }[];
  readonly span: Span;
  /** for graph imports: the imported file's normalised path */
  readonly resolvedFile?: string | undefined;
}

export interface TypeAliasIR {
  readonly name: string;
  readonly type: TypeIR;
  readonly span: Span;
}

/** A TypeScript-printable type. Aliases and imported types are kept by name (readable output). */
export type TypeIR =
  | { readonly k: "prim"; readonly name: "string" | "number" | "boolean" | "null" | "undefined" | "unknown" }
  | { readonly k: "lit"; readonly value: string | number | boolean }
  | { readonly k: "array"; readonly element: TypeIR }
  | { readonly k: "union"; readonly members: readonly TypeIR[] }
  | { readonly k: "object"; readonly members: readonly { name: string; optional: boolean; type: TypeIR }[] }
  | { readonly k: "record"; readonly value: TypeIR }
  /** a local alias or an imported TS type (`args` for generic imported types) */
  | { readonly k: "ref"; readonly name: string; readonly args: readonly TypeIR[]; readonly imported: boolean };

/** A reference to an imported TS function (node function, router, reducer, transform). */
export interface FnRefIR {
  /** the local name in the generated file (the import's local name) */
  readonly local: string;
  readonly module: string;
  readonly exported: string;
  readonly span: Span;
  /** known to return a plain value (never a Promise): the emitter skips the `await` */
  readonly sync: boolean;
  /** a node function known to return no Command (TypeScript pass; absent: not known): lean.ts `staticEligible` */
  readonly noCommand?: boolean;
  /** the fields a node function's updates may carry, when its type tells (TypeScript pass): G3097 */
  readonly fields?: readonly string[] | undefined;
}

// ---------------------------------------------------------------- graphs

export interface GraphIR {
  /** DSL name (`Research`; an inline subgraph's name is synthesised by the parser) */
  readonly name: string;
  /** unique program-wide id (`file#Name`) */
  readonly id: string;
  readonly file: string;
  readonly span: Span;
  readonly inline: boolean;
  /** for an inline graph: the subgraph node that declares it (generated names are based on it) */
  readonly inlineNode?: string | undefined;
  /** every channel: state fields, then input/output-only fields, then private fields */
  readonly fields: FieldIR[];
  /** field names accepted by `invoke` */
  readonly input: string[];
  /**
   * the graph declares an `input { … }` block: then its fields without a default (whose type does not admit
   * `undefined`) are required at run time; without one the input is the whole state, all optional (LangGraph)
   */
  readonly inputDeclared: boolean;
  /** field names returned by `invoke` */
  readonly output: string[];
  readonly vars: VarIR[];
  /** `limits { recursion: N }` */
  readonly recursionLimit?: number | undefined;
  /** `implements A, B`: each interface and the `.graph` file that declares it; undefined when none */
  readonly implements?: readonly { readonly name: string; readonly file: string }[] | undefined;
  /** `meta { owner, version, description }` (valid entries only); undefined when the graph declares none */
  readonly meta?: { readonly owner?: string; readonly version?: string; readonly description?: string } | undefined;
  readonly interruptBefore: string[];
  readonly interruptAfter: string[];
  /** function and subgraph nodes in declaration order */
  readonly nodes: NodeIR[];
  /** edges out of START */
  readonly start: EdgesIR;
  /** waiting edges; the index is the barrier id used in `EdgesIR.joins` */
  readonly joins: JoinIR[];
}

/** A field's reducer: none (LangGraph's LastValue), a built-in one (compiler/phases/reducers.ts) or a TS function. */
export type ReducerIR =
  | { readonly kind: "replace" }
  | { readonly kind: "builtin"; readonly name: Exclude<BuiltinReducerName, "replace"> }
  | { readonly kind: "custom"; readonly fn: FnRefIR };

export interface FieldIR {
  readonly name: string;
  readonly span: Span;
  readonly type: TypeIR;
  /** how the type is tested at run time (input checks); normalised, aliases expanded */
  readonly check: CheckIR;
  readonly reducer: ReducerIR;
  /**
   * The initial value: the declared default, else the built-in reducer's empty value (`[]`, `0`, `{}`);
   * undefined means the field is absent until first written.
   */
  readonly init?: ExprIR | undefined;
  readonly ephemeral: boolean;
  /**
   * The field always holds a value (an initial value, and not `ephemeral`): projections read it directly
   * and its fold needs no "is it set?" test. Computed here once for every emitter.
   */
  readonly alwaysSet: boolean;
  readonly origin: "state" | "input" | "output" | "private";
}

/** The run-time test of an input value against a field's type (a subset of the type: opaque parts pass). */
export type CheckIR =
  | { readonly k: "any" }
  | { readonly k: "typeof"; readonly type: "string" | "number" | "boolean" | "undefined" }
  | { readonly k: "null" }
  | { readonly k: "lit"; readonly value: string | number | boolean }
  | { readonly k: "array"; readonly element: CheckIR }
  | { readonly k: "object"; readonly members: readonly { name: string; optional: boolean; check: CheckIR }[] }
  | { readonly k: "record"; readonly value: CheckIR }
  | { readonly k: "union"; readonly members: readonly CheckIR[] };

export interface VarIR {
  readonly name: string;
  readonly span: Span;
  readonly type: TypeIR;
  readonly check: CheckIR;
  /** the declared default; `template` when it is a string with `${ENV}` parts (resolved at run time) */
  readonly default?: { readonly kind: "expr"; readonly expr: ExprIR } | { readonly kind: "template"; readonly parts: TemplatePartIR[] } | undefined;
}

export type TemplatePartIR =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "env"; readonly name: string; readonly fallback?: string | undefined };

// ---------------------------------------------------------------- nodes and edges

export interface EdgesIR {
  /** static successors (node names; "END" included, emitters may drop it) */
  readonly static: { readonly to: string; readonly span: Span }[];
  /** barrier ids (indices into GraphIR.joins) this node writes its name to */
  readonly joins: number[];
  /** conditional edges in declaration order */
  readonly branches: BranchIR[];
}

export interface JoinIR {
  readonly sources: string[];
  readonly target: string;
  readonly span: Span;
}

export interface NodeOptionsIR {
  readonly retry?: {
    readonly maxAttempts?: number;
    readonly initialIntervalMs?: number;
    readonly backoffFactor?: number;
    readonly maxIntervalMs?: number;
    readonly jitter?: boolean;
  } | undefined;
  readonly timeoutMs?: number | undefined;
  readonly idleTimeoutMs?: number | undefined;
  readonly cache?: { readonly ttlMs?: number; readonly key?: readonly string[] } | undefined;
  readonly defer?: boolean | undefined;
  readonly onError?: string | undefined;
}

interface NodeBaseIR extends EdgesIR {
  readonly name: string;
  readonly span: Span;
  /** fields the node receives, in order (for a subgraph node: the parent fields its input mapping reads) */
  readonly reads: string[];
  /** fields the node may write */
  readonly writes: string[];
  /** declared `goto` targets (node names or "END"); undefined when none are declared */
  readonly goto?: string[] | undefined;
  readonly options: NodeOptionsIR;
}

export interface FunctionNodeIR extends NodeBaseIR {
  readonly kind: "function";
  readonly fn: FnRefIR;
  /** `uses: Child`: the graph the function runs itself with `ctx.run` */
  readonly uses?: GraphRefIR | undefined;
}

export interface SubgraphNodeIR extends NodeBaseIR {
  readonly kind: "subgraph";
  /** the child graph */
  readonly child: GraphRefIR;
  readonly in: SubgraphInIR;
  readonly out: SubgraphOutIR;
  /**
   * `stateful`: the child runs under the namespace `<node>` (no task id), so its state persists across calls
   * on one thread (LangGraph `checkpointer: true`). Absent for the default, stateless subgraph.
   */
  readonly stateful?: true | undefined;
  /**
   * `subgraph q: Iface [= Default]`: a slot, bound when the parent is constructed (emit/bind.ts). `child` is
   * the default; a slot without one has no child (`hasDefault` false, `child` then names the interface).
   */
  readonly slot?: SlotIR | undefined;
}

export interface SlotIR {
  /** the interface and the `.graph` file that declares it */
  readonly interface: { readonly name: string; readonly file: string };
  readonly hasDefault: boolean;
}

export type NodeIR = FunctionNodeIR | SubgraphNodeIR;

/** A graph used as a subgraph: where its generated spec lives. */
export interface GraphRefIR {
  readonly id: string;
  readonly name: string;
  /** the `.graph` file that declares it */
  readonly file: string;
}

/** Child input: fields computed from parent expressions, or a TS transform of the parent state. */
export type SubgraphInIR =
  | { readonly kind: "fields"; readonly items: { readonly child: string; readonly expr: ExprIR; readonly span: Span }[] }
  | { readonly kind: "fn"; readonly fn: FnRefIR };

/** Child output back into the parent: field renames, or a TS transform of the child output. */
export type SubgraphOutIR =
  | { readonly kind: "fields"; readonly items: { readonly child: string; readonly parent: string; readonly span: Span }[] }
  | { readonly kind: "fn"; readonly fn: FnRefIR };

export type BranchIR = RouteBranchIR | ConditionBranchIR | SendBranchIR;

/** `route(fn) { key: targets }`; without cases, the function returns node names (or END, or Sends). */
export interface RouteBranchIR {
  readonly kind: "route";
  readonly span: Span;
  readonly fn: FnRefIR;
  readonly cases?: { readonly key: string; readonly targets: string[]; readonly span: Span }[] | undefined;
}

/** Inline conditions: the first case whose condition holds wins; `cond` undefined is `_`. */
export interface ConditionBranchIR {
  readonly kind: "conditions";
  readonly span: Span;
  readonly cases: { readonly cond?: ExprIR | undefined; readonly targets: string[]; readonly span: Span }[];
}

/** `send(fn)`: fn returns Send packets for any node of the graph. */
export interface SendBranchIR {
  readonly kind: "send";
  readonly span: Span;
  readonly fn: FnRefIR;
}

// ---------------------------------------------------------------- expressions

/** Defaults, inline conditions and subgraph input expressions. */
export type ExprIR =
  | { readonly k: "lit"; readonly value: string | number | boolean | null }
  | { readonly k: "array"; readonly items: readonly ExprIR[] }
  | { readonly k: "object"; readonly entries: readonly { key: string; value: ExprIR }[] }
  /** a state field of the graph the expression belongs to */
  | { readonly k: "field"; readonly name: string }
  | { readonly k: "member"; readonly object: ExprIR; readonly name: string }
  /** `x[i]`; a constant negative index counts from the end */
  | { readonly k: "index"; readonly object: ExprIR; readonly index: ExprIR }
  | { readonly k: "len"; readonly arg: ExprIR }
  | { readonly k: "not"; readonly arg: ExprIR }
  | { readonly k: "neg"; readonly arg: ExprIR }
  | { readonly k: "binary"; readonly op: "==" | "!=" | "<" | "<=" | ">" | ">=" | "&&" | "||"; readonly left: ExprIR; readonly right: ExprIR }
  /** `x in [a, b]` (a literal list) or `x in field` (any array) */
  | { readonly k: "in"; readonly value: ExprIR; readonly list: ExprIR };
