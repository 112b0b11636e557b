/**
 * In-memory checkpoint saver (tests, demos, single-process use). Stores encoded text only, so a read gives
 * fresh objects and callers can never change stored state; the layout is delta.ts's, so a long messages
 * thread stays O(N) in memory too.
 */
import type { BlobRow } from "./delta.ts";
import {
  type CheckpointRow,
  type CheckpointStore,
  type PageCursor,
  type RowQuery,
  type WriteRow,
  StoredSaver,
} from "./stored-saver.ts";

interface Namespace {
  rows: Map<string, CheckpointRow>;
  /** checkpoint ids, ascending */
  ids: string[];
  /** "checkpointId\0channel" → blob */
  blobs: Map<string, BlobRow>;
  /** checkpointId → its writes (a handful per checkpoint: a list is cheaper than a keyed map) */
  writes: Map<string, WriteRow[]>;
}

export class MemoryStore implements CheckpointStore {
  private readonly threads = new Map<string, Map<string, Namespace>>();

  async insert(row: CheckpointRow, blobs: readonly BlobRow[]): Promise<void> {
    const ns = this.namespace(row.thread_id, row.checkpoint_ns, true);
    if (!ns.rows.has(row.checkpoint_id)) insertSorted(ns.ids, row.checkpoint_id);
    ns.rows.set(row.checkpoint_id, row);
    for (const blob of blobs) ns.blobs.set(row.checkpoint_id + "\0" + blob.channel, blob);
  }

  async get(threadId: string, nsName: string, checkpointId: string | undefined): Promise<CheckpointRow | undefined> {
    const ns = this.namespace(threadId, nsName, false);
    const id = checkpointId ?? ns?.ids[ns.ids.length - 1];
    return id === undefined ? undefined : ns?.rows.get(id);
  }

  async page(query: RowQuery, cursor: PageCursor | undefined, limit: number): Promise<CheckpointRow[]> {
    if (query.thread_id !== undefined && query.checkpoint_ns !== undefined && query.checkpoint_id === undefined) {
      return this.pageOne(query.thread_id, query.checkpoint_ns, query.before, cursor?.[0], limit);
    }
    const found: CheckpointRow[] = [];
    const threadIds = query.thread_id === undefined ? [...this.threads.keys()] : [query.thread_id];
    for (const threadId of threadIds) {
      for (const [name, ns] of this.threads.get(threadId) ?? []) {
        if (query.checkpoint_ns !== undefined && name !== query.checkpoint_ns) continue;
        for (const row of ns.rows.values()) {
          if (query.checkpoint_id !== undefined && row.checkpoint_id !== query.checkpoint_id) continue;
          if (query.before !== undefined && compareCodePoints(row.checkpoint_id, query.before) >= 0) continue;
          if (cursor !== undefined && compareRows(row, cursor) >= 0) continue;
          found.push(row);
        }
      }
    }
    return found.sort((a, b) => -compareRows(a, [b.checkpoint_id, b.thread_id, b.checkpoint_ns])).slice(0, limit);
  }

  /** One thread/namespace (the usual history query): walks its sorted ids from the newest down. */
  private pageOne(threadId: string, nsName: string, before: string | undefined, after: string | undefined, limit: number) {
    const ns = this.namespace(threadId, nsName, false);
    if (ns === undefined) return [];
    const bound = [before, after].filter((x): x is string => x !== undefined).sort(compareCodePoints)[0];
    let i = bound === undefined ? ns.ids.length : lowerBound(ns.ids, bound);
    const out: CheckpointRow[] = [];
    while (i > 0 && out.length < limit) out.push(ns.rows.get(ns.ids[--i]!)!);
    return out;
  }

  async chains(threadId: string, nsName: string, refs: readonly [string, string][]): Promise<Map<string, BlobRow[]>> {
    const ns = this.namespace(threadId, nsName, false);
    const out = new Map<string, BlobRow[]>();
    for (const [channel, owner] of refs) {
      const chain: BlobRow[] = [];
      let blob = ns?.blobs.get(owner + "\0" + channel);
      while (blob !== undefined) {
        chain.push(blob);
        blob = blob.kind === 1 && blob.base !== null ? ns?.blobs.get(blob.base + "\0" + channel) : undefined;
      }
      out.set(channel, chain.reverse());
    }
    return out;
  }

  async putWrites(threadId: string, nsName: string, checkpointId: string, rows: readonly WriteRow[]): Promise<void> {
    const ns = this.namespace(threadId, nsName, true);
    let writes = ns.writes.get(checkpointId);
    if (writes === undefined) ns.writes.set(checkpointId, (writes = []));
    for (const row of rows) {
      const at = writes.findIndex((w) => w.idx === row.idx && w.task_id === row.task_id);
      if (at < 0) writes.push(row);
      else if (row.idx < 0) writes[at] = row;
    }
  }

  async writes(threadId: string, nsName: string, checkpointId: string): Promise<WriteRow[]> {
    const writes = this.namespace(threadId, nsName, false)?.writes.get(checkpointId);
    if (writes === undefined) return [];
    return writes.slice().sort((a, b) => compareCodePoints(a.task_id, b.task_id) || a.idx - b.idx);
  }

  async deleteThread(threadId: string): Promise<void> {
    this.threads.delete(threadId);
  }

  /** Characters stored (headers, metadata, blobs, writes): what the storage benchmark compares. */
  storedChars(): number {
    let total = 0;
    for (const namespaces of this.threads.values()) {
      for (const ns of namespaces.values()) {
        for (const row of ns.rows.values()) total += row.header.length + row.metadata.length;
        for (const blob of ns.blobs.values()) total += blob.data.length;
        for (const writes of ns.writes.values()) for (const w of writes) total += w.value.length;
      }
    }
    return total;
  }

  private namespace(threadId: string, name: string, create: true): Namespace;
  private namespace(threadId: string, name: string, create: false): Namespace | undefined;
  private namespace(threadId: string, name: string, create: boolean): Namespace | undefined {
    let thread = this.threads.get(threadId);
    if (thread === undefined) {
      if (!create) return undefined;
      this.threads.set(threadId, (thread = new Map()));
    }
    let ns = thread.get(name);
    if (ns === undefined && create) {
      ns = { rows: new Map(), ids: [], blobs: new Map(), writes: new Map() };
      thread.set(name, ns);
    }
    return ns;
  }
}

/** The in-memory CheckpointSaver. */
export class MemorySaver extends StoredSaver {
  constructor() {
    super(new MemoryStore());
  }

  /** Characters currently stored (for benchmarks and tests of the linear-growth guarantee). */
  storedChars(): number {
    return (this.store as MemoryStore).storedChars();
  }
}

function insertSorted(ids: string[], id: string): void {
  // ids are usually created in order: appending is the common case
  let i = ids.length;
  while (i > 0 && compareCodePoints(ids[i - 1]!, id) > 0) i--;
  ids.splice(i, 0, id);
}

/** Index of the first id not lower than `id` in ascending `ids`. */
function lowerBound(ids: readonly string[], id: string): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareCodePoints(ids[mid]!, id) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function compareRows(row: CheckpointRow, key: PageCursor): number {
  return (
    compareCodePoints(row.checkpoint_id, key[0]) ||
    compareCodePoints(row.thread_id, key[1]) ||
    compareCodePoints(row.checkpoint_ns, key[2])
  );
}

const SURROGATE = /[\ud800-\udfff]/;

/** Unicode code point order (what SQLite's BINARY and Postgres' "C" collations give for UTF-8). */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  // UTF-16 code unit order (the native one) differs from code point order only around surrogates
  if (!SURROGATE.test(a) && !SURROGATE.test(b)) return a < b ? -1 : 1;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}
