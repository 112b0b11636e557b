/**
 * The .graph AST. Produced by grammar/to-ast.ts, consumed by every compiler phase and by the formatter.
 * Every node has `kind` (a discriminant) and `span`. Nodes are plain data (JSON-serialisable), so parse
 * goldens can print them directly.
 *
 * Recovery: when the parser recovers from a syntax error, the partial construct is still returned with the
 * parts it could read; missing identifiers are `Ident` with `name: ""` and `missing: true`.
 */
import type { Span } from "./span.ts";

export interface AstNode {
  kind: string;
  span: Span;
}

export interface Ident extends AstNode {
  kind: "Ident";
  name: string;
  /** true when the parser inserted it during error recovery */
  missing?: boolean;
}

export interface StringLit extends AstNode {
  kind: "String";
  /** the decoded value (escapes resolved) */
  value: string;
  /** the raw source text including quotes */
  raw: string;
}

export interface Comment extends AstNode {
  kind: "Comment";
  style: "line" | "block";
  /** full text including `//` or `/* *\/` */
  text: string;
}

// ---------------------------------------------------------------- file

export interface GraphFile extends AstNode {
  kind: "File";
  /** path as given to parse() */
  file: string;
  /** top-level items in source order */
  items: TopItem[];
  /** every comment, in source order (the formatter re-attaches them by position) */
  comments: Comment[];
}

export type TopItem = ImportDecl | TypeAlias | GraphDecl | InterfaceDecl;

/**
 * `import { a, b as c } from "./x"`        TS values (node functions, routers, reducers, transforms)
 * `import type { T } from "./x"`           TS types usable in schemas
 * `import { Critique } from "./c.graph"`   graphs from another .graph file (isGraph = path ends in .graph)
 */
export interface ImportDecl extends AstNode {
  kind: "Import";
  typeOnly: boolean;
  isGraph: boolean;
  names: ImportName[];
  from: StringLit;
}

export interface ImportName extends AstNode {
  kind: "ImportName";
  /** the exported name */
  name: Ident;
  /** `as` alias; the local name is alias ?? name */
  alias?: Ident;
}

export interface TypeAlias extends AstNode {
  kind: "TypeAlias";
  name: Ident;
  type: TypeExpr;
}

// ---------------------------------------------------------------- types

export type TypeExpr = NamedType | LiteralType | ArrayType | UnionType | ObjectType | OptionalType;

/** `string`, `number`, `boolean`, `null`, `unknown`, an alias, an imported TS type, or `Record<K, V>` (args). */
export interface NamedType extends AstNode {
  kind: "NamedType";
  name: Ident;
  args: TypeExpr[];
}

export interface LiteralType extends AstNode {
  kind: "LiteralType";
  value: string | number | boolean;
  raw: string;
}

export interface ArrayType extends AstNode {
  kind: "ArrayType";
  element: TypeExpr;
}

export interface UnionType extends AstNode {
  kind: "UnionType";
  members: TypeExpr[];
}

export interface ObjectType extends AstNode {
  kind: "ObjectType";
  members: ObjectTypeMember[];
}

export interface ObjectTypeMember extends AstNode {
  kind: "ObjectTypeMember";
  name: Ident;
  optional: boolean;
  type: TypeExpr;
}

/** `T?` — the same as `T | undefined` */
export interface OptionalType extends AstNode {
  kind: "OptionalType";
  inner: TypeExpr;
}

// ---------------------------------------------------------------- graphs

export interface GraphDecl extends AstNode {
  kind: "Graph";
  /** for an inline `graph { }` subgraph the parser synthesises the name from the subgraph node */
  name: Ident;
  inline: boolean;
  members: GraphMember[];
  /** `graph X implements A, B { … }`: the interfaces it declares to satisfy (absent when none) */
  implements?: Ident[];
}

/**
 * `interface QueryService { input { intent: Intent } output { query_result: QueryResult } }`: the contract
 * of a graph without its nodes (docs/contracts.md). `state` declares typed fields (with reducers) that bare
 * names in `input` / `output` refer to, as in a graph.
 */
export interface InterfaceDecl extends AstNode {
  kind: "Interface";
  name: Ident;
  members: (StateBlock | SchemaBlock)[];
}

export type GraphMember =
  | StateBlock
  | SchemaBlock
  | PrivateBlock
  | VarsBlock
  | LimitsBlock
  | MetaBlock
  | InterruptDecl
  | NodeDecl
  | SubgraphDecl
  | EdgeStmt;

/**
 * One field: `name: Type [= default] [reduce R] [ephemeral]`.
 * In `input { a, b }` / `output { c }` the type is omitted (the field refers to state).
 * In `vars { n: number = 500 }` it is a variable.
 */
export interface FieldDecl extends AstNode {
  kind: "Field";
  name: Ident;
  type?: TypeExpr;
  default?: Expr;
  /** built-in reducer name (append, messages, sum, merge, union, replace) or an imported TS function */
  reducer?: Ident;
  ephemeral: boolean;
}

export interface StateBlock extends AstNode {
  kind: "State";
  fields: FieldDecl[];
}

export interface SchemaBlock extends AstNode {
  kind: "Input" | "Output";
  fields: FieldDecl[];
}

/** `private P { greeting: string }` */
export interface PrivateBlock extends AstNode {
  kind: "Private";
  name: Ident;
  fields: FieldDecl[];
}

export interface VarsBlock extends AstNode {
  kind: "Vars";
  vars: FieldDecl[];
}

/** `limits { recursion: 15 }` */
export interface LimitsBlock extends AstNode {
  kind: "Limits";
  entries: OptionEntry[];
}

/**
 * `meta { owner: "search-team", version: "1.2.0", description: "…" }`: who owns the graph and its contract
 * version (docs/contracts.md). Entries as in `limits`; keys and values are checked by the compiler.
 */
export interface MetaBlock extends AstNode {
  kind: "Meta";
  entries: OptionEntry[];
}

/** `interrupt before execution, review` / `interrupt after x` */
export interface InterruptDecl extends AstNode {
  kind: "Interrupt";
  when: "before" | "after";
  nodes: Ident[];
}

// ---------------------------------------------------------------- nodes

/** What a node reads or writes: a schema name (`State`, `Input`, `Output`, a private block) or `{ a, b }`. */
export type SchemaRef = SchemaNameRef | FieldListRef;

export interface SchemaNameRef extends AstNode {
  kind: "SchemaName";
  name: Ident;
}

export interface FieldListRef extends AstNode {
  kind: "FieldList";
  fields: Ident[];
}

/**
 * `node name(reads) -> writes [goto [a, b, END]] = impl { options }`
 * `reads` may be empty `()`; `-> writes` may be omitted (the node writes nothing).
 */
export interface NodeDecl extends AstNode {
  kind: "Node";
  name: Ident;
  reads?: SchemaRef;
  writes?: SchemaRef;
  goto?: Ident[];
  impl: Ident;
  options: OptionEntry[];
}

/**
 * A generic `name value` / `name: value` option: `retry { attempts: 3 }`, `timeout 10s`, `defer`,
 * `cache { ttl: 5m, key: (intent, entities) }`, `recursion: 15`. The checker validates names and values.
 */
export interface OptionEntry extends AstNode {
  kind: "Option";
  name: Ident;
  /** absent for a bare flag such as `defer` */
  value?: OptionValue;
}

export type OptionValue = Expr | DurationLit | OptionBlock | TupleValue;

export interface DurationLit extends AstNode {
  kind: "Duration";
  /** milliseconds */
  ms: number;
  raw: string;
}

export interface OptionBlock extends AstNode {
  kind: "OptionBlock";
  entries: OptionEntry[];
}

/** `(intent, entities)` */
export interface TupleValue extends AstNode {
  kind: "Tuple";
  items: Ident[];
}

// ---------------------------------------------------------------- subgraphs

/**
 * `subgraph name = Target [goto [a, END]] [{ in {..} out {..} options }]`
 * `subgraph name = graph { ... }`                        inline
 * `subgraph name from "./file.graph" [as Graph] [{ ... }]`  by file (graph defaults to the file's only graph)
 * `goto` lists where a child's `Command.PARENT` may route in this graph (LangGraph's `ends`).
 */
export interface SubgraphDecl extends AstNode {
  kind: "Subgraph";
  name: Ident;
  target: SubgraphTarget;
  /** `goto [a, END]` targets in the enclosing graph; absent when none are declared */
  goto?: Ident[];
  in?: Mapping;
  out?: Mapping;
  options: OptionEntry[];
}

export type SubgraphTarget = GraphRefTarget | InlineGraphTarget | FileTarget | SlotTarget;

/**
 * `subgraph query: QueryService [= OrdersQuery]`: a slot typed by an interface, bound when the graph is
 * constructed (`Parent.bind({ query: … })`); `default` is the graph it runs when not bound.
 */
export interface SlotTarget extends AstNode {
  kind: "Slot";
  interface: Ident;
  default?: Ident;
}

export interface GraphRefTarget extends AstNode {
  kind: "GraphRef";
  name: Ident;
}

export interface InlineGraphTarget extends AstNode {
  kind: "InlineGraph";
  graph: GraphDecl;
}

export interface FileTarget extends AstNode {
  kind: "FileRef";
  path: StringLit;
  graph?: Ident;
}

export type Mapping = MapBlock | MapFn;

/** `in { topic <- userQuery, last <- messages[-1], notes }` / `out { result -> queryResult, article }` */
export interface MapBlock extends AstNode {
  kind: "MapBlock";
  direction: "in" | "out";
  entries: MapEntry[];
}

/** `in = toQueryInput` / `out = fromQueryOutput` (imported TS functions) */
export interface MapFn extends AstNode {
  kind: "MapFn";
  direction: "in" | "out";
  fn: Ident;
}

export type MapEntry = SameNameMap | InMapEntry | OutMapEntry;

/** a field of the same name on both sides */
export interface SameNameMap extends AstNode {
  kind: "SameName";
  name: Ident;
}

/** `childField <- parentExpr` */
export interface InMapEntry extends AstNode {
  kind: "InMap";
  child: Ident;
  expr: Expr;
}

/** `childField -> parentField` */
export interface OutMapEntry extends AstNode {
  kind: "OutMap";
  child: Ident;
  parent: Ident;
}

// ---------------------------------------------------------------- edges

/**
 * `START -> a -> [b, c]`, `[b, c] -> d`, `a -> route(fn) { k: x }`, `a -> { cond => x  _ => y }`,
 * `a -> send(fn)`. `steps` has at least one element; a branch, when present, follows the last step.
 */
export interface EdgeStmt extends AstNode {
  kind: "Edge";
  steps: Endpoints[];
  branch?: Branch;
}

/** one endpoint `a` (bracketed=false) or a list `[a, b]` (bracketed=true). START and END are Idents. */
export interface Endpoints extends AstNode {
  kind: "Endpoints";
  names: Ident[];
  bracketed: boolean;
}

export type Branch = RouteBranch | ConditionBranch | SendBranch;

/** `route(fn) { key: target, "other key": [a, b] }`; without cases the function returns node names. */
export interface RouteBranch extends AstNode {
  kind: "Route";
  fn: Ident;
  cases?: RouteCase[];
}

export interface RouteCase extends AstNode {
  kind: "RouteCase";
  key: Ident | StringLit;
  targets: Endpoints;
}

export interface ConditionBranch extends AstNode {
  kind: "Conditions";
  cases: ConditionCase[];
}

/** `cond => target`; `_ => target` has `cond` undefined (the default branch) */
export interface ConditionCase extends AstNode {
  kind: "ConditionCase";
  cond?: Expr;
  targets: Endpoints;
}

export interface SendBranch extends AstNode {
  kind: "Send";
  fn: Ident;
}

// ---------------------------------------------------------------- expressions
// Used by defaults, inline conditions and `in` mappings.

export type Expr =
  | LiteralExpr
  | ArrayExpr
  | ObjectExpr
  | NameExpr
  | MemberExpr
  | IndexExpr
  | CallExpr
  | UnaryExpr
  | BinaryExpr;

export interface LiteralExpr extends AstNode {
  kind: "Literal";
  value: string | number | boolean | null;
  /** raw source text (strings keep quotes; used by the formatter and for `${VAR}` checks) */
  raw: string;
}

export interface ArrayExpr extends AstNode {
  kind: "Array";
  items: Expr[];
}

export interface ObjectExpr extends AstNode {
  kind: "Object";
  entries: ObjectEntry[];
}

export interface ObjectEntry extends AstNode {
  kind: "ObjectEntry";
  key: Ident | StringLit;
  value: Expr;
}

export interface NameExpr extends AstNode {
  kind: "Name";
  name: Ident;
}

export interface MemberExpr extends AstNode {
  kind: "Member";
  object: Expr;
  property: Ident;
}

/** `x[0]`, `x[-1]` (negative counts from the end) */
export interface IndexExpr extends AstNode {
  kind: "Index";
  object: Expr;
  index: Expr;
}

/** built-in functions only: `len(x)` */
export interface CallExpr extends AstNode {
  kind: "Call";
  callee: Ident;
  args: Expr[];
}

export interface UnaryExpr extends AstNode {
  kind: "Unary";
  op: "!" | "-";
  operand: Expr;
}

export type BinaryOp = "==" | "!=" | "<" | "<=" | ">" | ">=" | "&&" | "||" | "in";

export interface BinaryExpr extends AstNode {
  kind: "Binary";
  op: BinaryOp;
  left: Expr;
  right: Expr;
}

/** Names with a fixed meaning in edges. */
export const START = "START";
export const END = "END";
