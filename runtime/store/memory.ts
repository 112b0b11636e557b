/**
 * InMemoryStore: the long-term store in one process's memory (LangGraph's InMemoryStore), for tests,
 * browsers and single-process apps. Values are kept as encoded text, so a read never hands out an object
 * that a node could change behind the store's back.
 *
 *   const store = new InMemoryStore();                        // or { index: { embed, fields } }
 *   const graph = compileGraph(Spec, { store });
 */
import { RowStore, type StoreRow, type StoreRows, type VectorRow } from "./row-store.ts";
import { under } from "./rules.ts";
import type { IndexConfig } from "./types.ts";

const live = (r: StoreRow, now: number) => r.expires === null || r.expires > now;
const id = (ns: string, key: string) => `${ns}\u0000${key}`;

class MemoryRows implements StoreRows {
  private readonly data = new Map<string, { row: StoreRow; vectors: VectorRow[] }>();

  async get(ns: string, key: string, now: number): Promise<StoreRow | undefined> {
    const e = this.data.get(id(ns, key));
    if (e && !live(e.row, now)) this.data.delete(id(ns, key));
    return e && live(e.row, now) ? e.row : undefined;
  }
  async upsert(row: StoreRow, vectors: VectorRow[]): Promise<void> {
    this.data.set(id(row.ns, row.key), { row, vectors });
  }
  async remove(ns: string, key: string): Promise<void> {
    this.data.delete(id(ns, key));
  }
  async scan(prefix: string, now: number): Promise<StoreRow[]> {
    return this.entries(prefix, now)
      .map((e) => e.row)
      .sort((a, b) => (a.ns === b.ns ? cmp(a.key, b.key) : cmp(a.ns, b.ns)));
  }
  async namespaces(now: number): Promise<string[]> {
    return [...new Set(this.entries("", now).map((e) => e.row.ns))];
  }
  async vectors(prefix: string, now: number): Promise<VectorRow[]> {
    return this.entries(prefix, now).flatMap((e) => e.vectors);
  }
  private entries(prefix: string, now: number) {
    const out: { row: StoreRow; vectors: VectorRow[] }[] = [];
    for (const [k, e] of this.data) {
      if (!live(e.row, now)) this.data.delete(k);
      else if (under(e.row.ns, prefix)) out.push(e);
    }
    return out;
  }
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export class InMemoryStore extends RowStore {
  constructor(options: { index?: IndexConfig } = {}) {
    super(new MemoryRows(), options.index);
  }
}
