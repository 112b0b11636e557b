/**
 * The bound program model: what `bind()` builds from the ASTs of every loaded `.graph` file, what the
 * checker (phases/3-check) validates and what the lowering phase (phases/4-lower) reads.
 *
 * Principles
 * - Names are resolved here: every reference to a field, node, graph, type or import is looked up once, and
 *   the model stores the result (or `undefined` / an `unknown`-kind type when it does not resolve, in which
 *   case the checker reports it). Later phases never look names up in the AST again.
 * - The AST stays reachable (`decl`) and every model element keeps the spans the checker needs.
 * - The model is valid to lower only when `check()` reported no error. Lowering may assume: every
 *   reference resolved, no duplicates, reducers fit their fields, options normalised.
 * - Iteration order is declaration order everywhere (Maps keep insertion order), so output is
 *   deterministic.
 */
import type {
  Expr,
  FieldDecl,
  GraphDecl,
  GraphFile,
  ImportDecl,
  InterfaceDecl,
  NodeDecl,
  OptionEntry,
  SubgraphDecl,
  TypeAlias,
  TypeExpr,
  EdgeStmt,
  ConditionCase,
  RouteCase,
} from "../../../grammar/ast.ts";
import type { Span } from "../../../grammar/span.ts";
import type { GraphMeta } from "./meta.ts";

// ---------------------------------------------------------------- program and files

/** Every file and graph loaded from the entry files (imports and `subgraph … from "file"` followed). */
export interface Program {
  /** entry file paths, as given to bind() (normalised with posix separators) */
  readonly entryFiles: readonly string[];
  /** every loaded file, keyed by its normalised path, in load order (entry files first) */
  readonly files: Map<string, BoundFile>;
  /** every graph of every file, inline subgraphs included, in load order */
  readonly graphs: BoundGraph[];
}

export interface BoundFile {
  /** normalised path (posix separators, `./` and `..` resolved, relative paths kept relative) */
  readonly path: string;
  readonly text: string;
  readonly ast: GraphFile;
  readonly imports: BoundImport[];
  /** local `type` aliases by name (first declaration wins; duplicates are reported) */
  readonly types: Map<string, BoundTypeAlias>;
  /** top-level graphs by name (inline subgraphs are not here; they hang off their subgraph node) */
  readonly graphs: Map<string, BoundGraph>;
  /** `interface` declarations by name (first declaration wins; duplicates are reported) */
  readonly interfaces: Map<string, BoundInterface>;
}

/**
 * `interface Q { input {…} output {…} }`: bound like a graph with schema blocks only, so `shape` has the
 * fields (types, reducers), input and output of a graph that would declare exactly those blocks. The shape
 * is not one of the program's graphs (it is never lowered or emitted).
 */
export interface BoundInterface {
  readonly name: string;
  readonly file: string;
  readonly decl: InterfaceDecl;
  readonly shape: BoundGraph;
}

/** One name of `graph X implements A, B`; `target` undefined when it names no interface (3-check reports it). */
export interface ImplementsRef {
  readonly name: string;
  readonly span: Span;
  readonly target?: BoundInterface | undefined;
}

/**
 * One imported name. `kind`:
 * - `value`: a TS value (node function, router, custom reducer, send fn, mapping fn);
 * - `type`:  a TS type (from `import type`), opaque to graphc's checker;
 * - `graph`: a graph of another `.graph` file (`import { Critique } from "./c.graph"`).
 */
export interface BoundImport {
  readonly kind: "value" | "type" | "graph";
  /** the name used in this file (alias ?? exported) */
  readonly local: string;
  /** the name exported by the module */
  readonly exported: string;
  /** the module specifier exactly as written (the emitter rewrites it relative to the output file) */
  readonly module: string;
  readonly span: Span;
  readonly decl: ImportDecl;
  /** for `graph` imports: the loaded file's normalised path, undefined when it could not be loaded */
  readonly resolvedFile?: string | undefined;
}

/** A reference to an imported TS value, as the emitter needs it: `import { exported as local } from module`. */
export interface ImportRef {
  readonly local: string;
  readonly exported: string;
  readonly module: string;
  /** where it is used (the identifier at the use site) */
  readonly span: Span;
}

export interface BoundTypeAlias {
  readonly name: string;
  readonly decl: TypeAlias;
  /** resolved lazily by bind; recursive aliases resolve to `unknown` at the recursion point */
  type: DslType;
}

// ---------------------------------------------------------------- DSL types

/**
 * Normalised types for graphc's own checker: aliases expanded, `T?` turned into `T | undefined`, unions
 * flattened and de-duplicated, `Record<string, T>` into `record`. Imported TS types are `opaque` (TypeScript
 * checks them in the generated code). `unknown` is both the `unknown` keyword and the type given to anything
 * that did not resolve (so one mistake gives one diagnostic, not a cascade).
 */
export type DslType =
  | { readonly kind: "string" }
  | { readonly kind: "number" }
  | { readonly kind: "boolean" }
  | { readonly kind: "null" }
  | { readonly kind: "undefined" }
  | { readonly kind: "unknown" }
  | { readonly kind: "literal"; readonly value: string | number | boolean }
  | { readonly kind: "array"; readonly element: DslType }
  | { readonly kind: "object"; readonly members: readonly ObjectMember[] }
  | { readonly kind: "record"; readonly value: DslType }
  | { readonly kind: "union"; readonly members: readonly DslType[] }
  | { readonly kind: "opaque"; readonly name: string; readonly module: string; readonly args: readonly DslType[] };

export interface ObjectMember {
  readonly name: string;
  readonly optional: boolean;
  readonly type: DslType;
}

// ---------------------------------------------------------------- graphs

export interface BoundGraph {
  readonly name: string;
  /** `file#Name` (inline: `file#Parent.node`), unique in the program; used in cycle messages */
  readonly id: string;
  readonly file: string;
  readonly decl: GraphDecl;
  /** set for an inline `subgraph x = graph { }`: the graph and node that hold it */
  readonly inlineIn?: { readonly graph: BoundGraph; readonly node: string } | undefined;

  /**
   * Every channel of the graph, keyed by name: state fields, then fields declared only in `input`/`output`
   * (with a type), then private fields. Like LangGraph's `_addSchema`, the union of all schemas.
   */
  readonly fields: Map<string, BoundField>;
  /** field names of the `state` block, in order */
  readonly state: string[];
  /** input field names; the whole state when there is no `input` block */
  readonly input: string[];
  readonly output: string[];
  readonly inputDeclared: boolean;
  readonly outputDeclared: boolean;
  readonly privates: Map<string, PrivateSchema>;

  readonly vars: Map<string, BoundVar>;
  readonly limits: GraphLimits;
  /** `implements A, B`, resolved by bind() once every file's interfaces are bound */
  readonly implements: ImplementsRef[];
  /** `meta { … }` (every block of the graph): the valid entries, and all entries for the checker */
  readonly meta: GraphMeta & { readonly entries: OptionEntry[] };
  readonly interrupts: { readonly before: NameRef[]; readonly after: NameRef[] };

  /** function nodes and subgraph nodes, in declaration order */
  readonly nodes: Map<string, BoundNode>;
  readonly edges: BoundEdges;
}

/** Where a field (or one declaration of it) comes from. */
export type FieldOrigin =
  | { readonly kind: "state" }
  | { readonly kind: "input" }
  | { readonly kind: "output" }
  | { readonly kind: "private"; readonly schema: string };

export type ReducerKind =
  /** no `reduce`: LangGraph's LastValue (two writes in one superstep are an error) */
  | { readonly kind: "replace"; readonly explicit: false }
  | { readonly kind: "builtin"; readonly name: BuiltinReducerName; readonly span: Span }
  | { readonly kind: "custom"; readonly fn: ImportRef };

// the built-in reducers are the registry's (compiler/phases/reducers.ts); re-exported under their old names
export { BUILTIN_REDUCER_NAMES as BUILTIN_REDUCERS } from "../reducers.ts";
export type { BuiltinReducerName as BuiltinReducer } from "../reducers.ts";
import type { BuiltinReducerName } from "../reducers.ts";

export interface BoundField {
  readonly name: string;
  /** the identifier of the defining declaration */
  readonly span: Span;
  /** the defining declaration: the first one with a type, in the order state, input, output, private */
  readonly decl: FieldDecl;
  readonly origin: FieldOrigin;
  /** the type as written (undefined when never given one: then `type` is unknown) */
  readonly typeExpr?: TypeExpr | undefined;
  readonly type: DslType;
  readonly default?: Expr | undefined;
  readonly reducer: ReducerKind;
  readonly ephemeral: boolean;
  /** every declaration of this name across state/input/output/private blocks (the defining one first) */
  readonly declarations: FieldSite[];
}

export interface FieldSite {
  readonly origin: FieldOrigin;
  readonly decl: FieldDecl;
}

export interface PrivateSchema {
  readonly name: string;
  readonly span: Span;
  /** field names (each is a key of BoundGraph.fields) */
  readonly fields: string[];
}

export interface BoundVar {
  readonly name: string;
  readonly span: Span;
  readonly decl: FieldDecl;
  readonly type: DslType;
  readonly default?: Expr | undefined;
  /**
   * When the default is a string literal containing `${NAME}` / `${NAME:-fallback}`: the parsed parts, for
   * run-time interpolation (never resolved at compile time). Undefined for any other default.
   */
  readonly template?: TemplatePart[] | undefined;
}

export type TemplatePart =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "env"; readonly name: string; readonly fallback?: string | undefined };

export interface GraphLimits {
  /** `limits { recursion: N }` when valid */
  readonly recursion?: number | undefined;
  readonly entries: OptionEntry[];
}

/** A name used at a site (node in an edge, interrupt, goto target). `name` may be START or END. */
export interface NameRef {
  readonly name: string;
  readonly span: Span;
}

// ---------------------------------------------------------------- nodes

export type BoundNode = FunctionNode | SubgraphNode;

interface NodeBase {
  readonly name: string;
  readonly span: Span;
  /** fields the node receives (its projection), in order; every name resolved in `graph.fields` or not */
  readonly reads: NameRef[];
  /** fields the node may write */
  readonly writes: NameRef[];
  /** the schema name used for reads/writes (`State`, `Input`, `Output`, a private schema), if any */
  readonly readsSchema?: NameRef | undefined;
  readonly writesSchema?: NameRef | undefined;
  /**
   * `goto [a, END]` targets (node names or END); undefined when the node declares none. For a subgraph node:
   * where a child's `Command.PARENT` may route in this graph.
   */
  readonly goto?: NameRef[] | undefined;
  readonly options: NodeOptions;
  readonly optionEntries: OptionEntry[];
}

export interface FunctionNode extends NodeBase {
  readonly kind: "node";
  readonly decl: NodeDecl;
  /** the imported TS function; undefined when `impl` names no imported value (reported) */
  readonly impl?: ImportRef | undefined;
  readonly implName: NameRef;
  /** the graph named by `uses` (resolved once every file is bound; undefined when unknown, reported) */
  usesTarget?: BoundGraph | undefined;
}

export interface SubgraphNode extends NodeBase {
  readonly kind: "subgraph";
  readonly decl: SubgraphDecl;
  /** the child graph; undefined when it could not be resolved (reported) */
  readonly target?: BoundGraph | undefined;
  /** how the child was named: `Name`, inline, or `from "file"` (with the file that was loaded) */
  readonly targetKind: "ref" | "inline" | "file" | "slot";
  /** `subgraph q: Iface [= Default]`: the slot's interface and default (`target` is the default) */
  readonly slot?: SlotBinding | undefined;
  /** child input: per-field mapping or a TS transform */
  readonly in: SubgraphMapping<InMapItem>;
  /** child output back into the parent */
  readonly out: SubgraphMapping<OutMapItem>;
}

/**
 * A slot: a subgraph node typed by an interface (docs/language.md, "Slots"). Its mappings are checked
 * against the interface's shape; the graph it runs is chosen when the parent is constructed.
 */
export interface SlotBinding {
  readonly interfaceRef: NameRef;
  /** undefined when the name is no interface (3-check reports G2042) */
  readonly interface?: BoundInterface | undefined;
  /** `= Default`, as written; the graph itself is the node's `target` */
  readonly defaultRef?: NameRef | undefined;
}

/**
 * `shared`: no block given; items are the same-name fields (child input ∩ parent fields / child output ∩
 * parent fields), computed by bind. `block`: the `in { }` / `out { }` entries. `fn`: a TS transform
 * (reads: the whole parent state; writes: any parent field the transform returns, checked by TypeScript).
 */
export type SubgraphMapping<Item> =
  | { readonly kind: "shared"; readonly items: Item[] }
  | { readonly kind: "block"; readonly items: Item[]; readonly span: Span }
  | { readonly kind: "fn"; readonly fn?: ImportRef | undefined; readonly fnName: NameRef; readonly span: Span };

/** child field `child` <- parent expression `expr` (a same-name entry has `expr` = Name(child)). */
export interface InMapItem {
  readonly child: NameRef;
  readonly expr: Expr;
  /** parent fields the expression reads (vars it names are not listed) */
  readonly parentFields: NameRef[];
  readonly sameName: boolean;
}

/** child field `child` -> parent field `parent`. */
export interface OutMapItem {
  readonly child: NameRef;
  readonly parent: NameRef;
  readonly sameName: boolean;
}

/** Normalised node options (valid values only; invalid ones are reported by 3-check/options.ts). */
export interface NodeOptions {
  readonly retry?: {
    /** all attempts, the first included */
    readonly maxAttempts?: number;
    readonly initialIntervalMs?: number;
    readonly backoffFactor?: number;
    readonly maxIntervalMs?: number;
    readonly jitter?: boolean;
  };
  readonly timeoutMs?: number;
  readonly idleTimeoutMs?: number;
  readonly cache?: { readonly ttlMs?: number; readonly key?: readonly string[] };
  readonly defer?: boolean;
  /** node to route to after the last failed attempt */
  readonly onError?: string;
  /** subgraph nodes only: the child keeps its state across calls on one thread (LangGraph `checkpointer: true`) */
  readonly stateful?: boolean;
  /** function nodes only: the graph the node's function runs with `ctx.run` (`uses: Child`) */
  readonly uses?: { readonly name: string; readonly span: Span };
}

// ---------------------------------------------------------------- edges

/**
 * Edge statements normalised. A chain `a -> b -> c` gives one static edge per step pair. A pair whose left
 * side is a bracketed list of two or more names (`[a, b] -> c`) is a waiting join (one per target). A
 * branch (`route`, conditions, `send`) hangs off every name of the last step.
 */
export interface BoundEdges {
  readonly static: StaticEdge[];
  readonly joins: JoinEdge[];
  readonly branches: BranchEdge[];
}

export interface StaticEdge {
  /** a node name or START */
  readonly from: NameRef;
  /** a node name or END */
  readonly to: NameRef;
  readonly stmt: EdgeStmt;
}

export interface JoinEdge {
  readonly sources: NameRef[];
  readonly target: NameRef;
  readonly span: Span;
  readonly stmt: EdgeStmt;
}

export type BranchEdge = RouteEdge | ConditionEdge | SendEdge;

interface BranchBase {
  readonly from: NameRef;
  readonly span: Span;
  readonly stmt: EdgeStmt;
}

/** `from -> route(fn) { key: targets }`; without cases the function returns node names directly. */
export interface RouteEdge extends BranchBase {
  readonly kind: "route";
  readonly fn?: ImportRef | undefined;
  readonly fnName: NameRef;
  readonly cases?: RouteCaseModel[] | undefined;
}

export interface RouteCaseModel {
  readonly key: string;
  readonly keySpan: Span;
  readonly targets: NameRef[];
  readonly decl: RouteCase;
}

/** `from -> { cond => targets … _ => targets }`; first true condition wins. */
export interface ConditionEdge extends BranchBase {
  readonly kind: "conditions";
  readonly cases: ConditionCaseModel[];
  /** index of the `_` case, if any */
  readonly defaultIndex?: number | undefined;
}

export interface ConditionCaseModel {
  /** undefined for `_` */
  readonly cond?: Expr | undefined;
  readonly targets: NameRef[];
  readonly decl: ConditionCase;
}

/** `from -> send(fn)`: fn returns Send packets; targets are dynamic (any node of the graph). */
export interface SendEdge extends BranchBase {
  readonly kind: "send";
  readonly fn?: ImportRef | undefined;
  readonly fnName: NameRef;
}

// ---------------------------------------------------------------- lookups

const importIndexes = new WeakMap<BoundFile, Map<string, BoundImport>>();

/** The import bound to local name `name` in `file` (indexed once per file, so lookups stay O(1)). */
export function findImport(file: BoundFile, name: string): BoundImport | undefined {
  let index = importIndexes.get(file);
  if (!index) {
    index = new Map();
    for (const i of file.imports) if (!index.has(i.local)) index.set(i.local, i);
    importIndexes.set(file, index);
  }
  return index.get(name);
}
