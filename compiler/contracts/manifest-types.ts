/**
 * The manifest `graphc manifest` writes (docs/contracts.md; its JSON Schema is
 * docs/schema/manifest.schema.json, and a test keeps the two in step). Plain JSON, no positions, no
 * absolute paths, no timestamps: the same sources always give the same bytes.
 */
import type { JsonSchema, JsonValue } from "../schema/json-schema.ts";

export const MANIFEST_FORMAT = "graphc-manifest/1";

export interface Manifest {
  readonly format: typeof MANIFEST_FORMAT;
  /** every named graph the files define or load, sorted by file then name (inline graphs are listed as subgraphs) */
  readonly graphs: readonly GraphEntry[];
  /** every interface the files declare or load, sorted by file then name (absent in manifests before slots) */
  readonly interfaces?: readonly InterfaceEntry[];
}

/** `interface Q { … }`: the contract a slot typed by it relies on (its input, output and their fields). */
export interface InterfaceEntry {
  readonly name: string;
  readonly file: string;
  readonly input: JsonSchema;
  readonly output: JsonSchema;
  /** the fields of input and output, by name */
  readonly fields: { readonly [name: string]: FieldEntry };
}

/** `subgraph q: Q [= Default]`: a node whose graph is bound when the parent is constructed. */
export interface SlotEntry {
  readonly node: string;
  readonly interface: string;
  /** the `.graph` file that declares the interface */
  readonly source: string;
  /** the graph it runs unless bound otherwise; absent when it must be bound */
  readonly default?: { readonly graph: string; readonly source: string };
}

export interface GraphEntry {
  readonly name: string;
  /** the `.graph` file, relative to where graphc ran (posix separators) */
  readonly file: string;
  readonly meta: { readonly owner?: string; readonly version?: string; readonly description?: string };
  /** JSON Schema of what `invoke` accepts / returns, and of every channel (compiler/schema/json-schema.ts) */
  readonly input: JsonSchema;
  readonly output: JsonSchema;
  readonly state: JsonSchema;
  /** every channel by name */
  readonly fields: { readonly [name: string]: FieldEntry };
  /** sorted by name */
  readonly nodes: readonly NodeEntry[];
  /** graphs this one runs: subgraph nodes and `uses:` function nodes, sorted by node */
  readonly subgraphs: readonly SubgraphEntry[];
  readonly vars: { readonly [name: string]: VarEntry };
  /** its slots, sorted by node (absent in manifests before slots) */
  readonly slots?: readonly SlotEntry[];
  /** the interfaces it implements (`graph X implements Q`), sorted by name */
  readonly implements: readonly { readonly name: string; readonly source: string }[];
  /** node names, sorted */
  readonly interrupts: { readonly before: readonly string[]; readonly after: readonly string[] };
}

export interface FieldEntry {
  /** the type as TypeScript */
  readonly type: string;
  /** a built-in reducer's name (`replace` when none is declared) or `module#export` for an imported one */
  readonly reducer: string;
  /** the initial value: the declared default, else a built-in reducer's empty value; absent when none */
  readonly default?: JsonValue;
  readonly ephemeral: boolean;
  /** the block that defines it */
  readonly origin: "state" | "input" | "output" | "private";
}

export interface NodeEntry {
  readonly name: string;
  readonly kind: "function" | "subgraph";
  /** for a function node: `module#export` of its function */
  readonly fn?: string;
  readonly reads: readonly string[];
  readonly writes: readonly string[];
}

export interface SubgraphEntry {
  /** the node that runs it */
  readonly node: string;
  readonly graph: string;
  /** the `.graph` file that declares it, or `inline` for `subgraph x = graph { … }` */
  readonly source: string;
  /** `subgraph` node, or a function node's `uses:` */
  readonly via: "subgraph" | "uses";
}

export interface VarEntry {
  readonly type: string;
  readonly schema: JsonSchema;
  /** a constant default, or the `${ENV:-fallback}` text of a template default */
  readonly default?: JsonValue;
  readonly template?: string;
  /** no default: every run (or a parent graph) must give it */
  readonly required: boolean;
}
