/**
 * The long-term memory store (LangGraph's BaseStore): JSON-like documents under hierarchical namespaces,
 * shared by every thread of a graph and by its subgraphs. Nodes reach it as `ctx.store`; a store is passed
 * with `compileGraph(spec, { store })` (or per run, `invoke(input, { store })`).
 *
 * Namespaces are tuples of labels (`["users", "ada", "orders"]`): non-empty strings without ".", whose
 * first label is not "langgraph" (LangGraph's rules). Values are plain objects that graphc's checkpoint
 * serde can store exactly.
 */
import { GraphError } from "../errors.ts";

export type Namespace = readonly string[];

export interface Item {
  namespace: string[];
  key: string;
  value: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
}

export interface SearchItem extends Item {
  /** cosine similarity to the query (search with `query` on a store with an `index`) */
  score?: number;
}

/**
 * A filter on a value's top-level fields: `{ status: "open" }` matches equal values (deep equality),
 * `{ total: { $gt: 10 } }` compares (`$eq`, `$ne`, `$gt`, `$gte`, `$lt`, `$lte`).
 */
export type StoreFilter = Record<string, unknown>;

export interface SearchOptions {
  filter?: StoreFilter;
  /** default 10 */
  limit?: number;
  offset?: number;
  /** natural-language query: ranks by similarity (needs the store's `index`); without one, ignored */
  query?: string;
}

export interface ListNamespacesOptions {
  prefix?: Namespace;
  suffix?: Namespace;
  /** namespaces longer than this are cut to their first `maxDepth` labels (then deduplicated) */
  maxDepth?: number;
  /** default 100 */
  limit?: number;
  offset?: number;
}

export interface PutOptions {
  /** seconds until the item expires (it is then neither read, listed nor searched); default: never */
  ttl?: number;
}

/** Turns texts into vectors: a function, or a LangChain `Embeddings` object. */
export type Embedder =
  | ((texts: string[]) => Promise<number[][]> | number[][])
  | { embedDocuments(texts: string[]): Promise<number[][]>; embedQuery(text: string): Promise<number[]> };

export interface IndexConfig {
  embed: Embedder;
  /** value paths embedded per item (`"text"`, `"profile.bio"`; `"$"` is the whole value); default `["$"]` */
  fields?: readonly string[];
}

export interface Store {
  get(namespace: Namespace, key: string): Promise<Item | null>;
  search(namespacePrefix: Namespace, options?: SearchOptions): Promise<SearchItem[]>;
  /** `index`: the fields to embed for this item (`false`: none), overriding the store's `fields` */
  put(namespace: Namespace, key: string, value: Record<string, unknown>, index?: false | readonly string[], options?: PutOptions): Promise<void>;
  delete(namespace: Namespace, key: string): Promise<void>;
  listNamespaces(options?: ListNamespacesOptions): Promise<string[][]>;
}

export type StoreErrorCode = "INVALID_NAMESPACE" | "INVALID_STORE_VALUE" | "INVALID_STORE_OPTION" | "STORE_INDEX_MISSING";

export class StoreError extends GraphError {
  declare readonly code: StoreErrorCode;
  constructor(code: StoreErrorCode, message: string, field?: string) {
    super(message, code, field === undefined ? {} : { field });
  }
}
