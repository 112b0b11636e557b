/**
 * A Store over rows: the one implementation of the Store rules (rules.ts) that InMemoryStore, the SQLite
 * and the Postgres stores share. A backend only keeps rows and vectors; filtering, paging and (unless the
 * backend ranks in SQL) similarity happen here.
 */
import { decode } from "../checkpoint/serde.ts";
import {
  checkFilter,
  checkKey,
  checkNamespace,
  checkPutNamespace,
  cosine,
  embedQuery,
  embedTexts,
  encodeValue,
  expiry,
  listNamespaces,
  matches,
  positive,
  SEP,
  textsOf,
} from "./rules.ts";
import type { IndexConfig, Item, ListNamespacesOptions, Namespace, PutOptions, SearchItem, SearchOptions, Store } from "./types.ts";

export interface StoreRow {
  /** the namespace's labels joined by "." */
  ns: string;
  key: string;
  /** the value as checkpoint-serde text */
  value: string;
  created: number;
  updated: number;
  /** ms since the epoch, or null: never */
  expires: number | null;
}

export interface VectorRow {
  ns: string;
  key: string;
  field: string;
  vector: number[];
}

export interface StoreRows {
  get(ns: string, key: string, now: number): Promise<StoreRow | undefined>;
  /** inserts or replaces the row and replaces its vectors (none when `vectors` is empty) */
  upsert(row: StoreRow, vectors: VectorRow[]): Promise<void>;
  remove(ns: string, key: string): Promise<void>;
  /** live rows whose namespace is `prefix` or below it ("" = all), in (ns, key) order */
  scan(prefix: string, now: number): Promise<StoreRow[]>;
  /** distinct namespaces of live rows */
  namespaces(now: number): Promise<string[]>;
  /** vectors of live rows under `prefix` */
  vectors(prefix: string, now: number): Promise<VectorRow[]>;
  /** best score per (ns, key) under `prefix`, when the backend computes similarity itself */
  similarity?(prefix: string, query: number[], now: number): Promise<Map<string, number>>;
}

const rowId = (ns: string, key: string) => `${ns}\u0000${key}`;

export class RowStore implements Store {
  constructor(
    protected readonly rows: StoreRows,
    protected readonly index?: IndexConfig,
  ) {}

  async get(namespace: Namespace, key: string): Promise<Item | null> {
    const ns = checkNamespace(namespace);
    checkKey(key);
    const row = await this.rows.get(ns, key, Date.now());
    return row ? toItem(row) : null;
  }

  async put(namespace: Namespace, key: string, value: Record<string, unknown>, index?: false | readonly string[], options: PutOptions = {}): Promise<void> {
    const ns = checkPutNamespace(namespace);
    checkKey(key);
    const text = encodeValue(value);
    const now = Date.now();
    const old = await this.rows.get(ns, key, now);
    const row: StoreRow = { ns, key, value: text, created: old?.created ?? now, updated: now, expires: expiry(options.ttl, now) };
    await this.rows.upsert(row, await this.vectorsOf(ns, key, value, index));
  }

  async delete(namespace: Namespace, key: string): Promise<void> {
    const ns = checkNamespace(namespace);
    checkKey(key);
    await this.rows.remove(ns, key);
  }

  async search(namespacePrefix: Namespace, options: SearchOptions = {}): Promise<SearchItem[]> {
    const prefix = checkNamespace(namespacePrefix, "namespacePrefix");
    checkFilter(options.filter);
    const limit = positive(options.limit, "limit", 10);
    const offset = positive(options.offset, "offset", 0);
    const now = Date.now();
    const hits: SearchItem[] = [];
    for (const row of await this.rows.scan(prefix, now)) {
      const item = toItem(row);
      if (matches(item.value, options.filter)) hits.push(item);
    }
    if (options.query !== undefined && this.index) {
      const scores = await this.scores(prefix, await embedQuery(this.index.embed, options.query), now);
      for (const h of hits) {
        const s = scores.get(rowId(h.namespace.join(SEP), h.key));
        if (s !== undefined) h.score = s;
      }
      // unindexed items come last, in (namespace, key) order as without a query
      hits.sort((a, b) => (b.score ?? -Infinity) - (a.score ?? -Infinity));
    }
    return hits.slice(offset, offset + limit);
  }

  async listNamespaces(options: ListNamespacesOptions = {}): Promise<string[][]> {
    return listNamespaces(await this.rows.namespaces(Date.now()), options);
  }

  private async vectorsOf(ns: string, key: string, value: Record<string, unknown>, index: false | readonly string[] | undefined): Promise<VectorRow[]> {
    if (!this.index || index === false) return [];
    const texts = textsOf(value, index ?? this.index.fields ?? ["$"]);
    const vectors = await embedTexts(this.index.embed, texts.map((t) => t.text));
    return texts.map((t, i) => ({ ns, key, field: t.path, vector: vectors[i]! }));
  }

  private async scores(prefix: string, query: number[], now: number): Promise<Map<string, number>> {
    if (this.rows.similarity) return this.rows.similarity(prefix, query, now);
    const best = new Map<string, number>();
    for (const v of await this.rows.vectors(prefix, now)) {
      const id = rowId(v.ns, v.key);
      const s = cosine(query, v.vector);
      if (!(best.get(id)! >= s)) best.set(id, s);
    }
    return best;
  }
}

function toItem(row: StoreRow): Item {
  return {
    namespace: row.ns.split(SEP),
    key: row.key,
    value: decode(row.value) as Record<string, unknown>,
    createdAt: new Date(row.created),
    updatedAt: new Date(row.updated),
  };
}
