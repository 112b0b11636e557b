/**
 * In-memory checkpoint saver (tests, demos, single-process use). Stores encoded text only, so a read gives
 * fresh objects and callers can never change stored state; the layout is delta.ts's, so a long messages
 * thread stays O(N) in memory too.
 */
import { type BlobRow, MAX_DEPTH } from "./delta.ts";
import {
  type CheckpointRow,
  type CheckpointStore,
  type PageCursor,
  type RowQuery,
  type WriteRow,
  StoredSaver,
} from "./stored-saver.ts";

/**
 * A namespace's checkpoints and writes as UTF-8 records in one growing byte array. A thread of N steps keeps
 * N checkpoints, and the garbage collector copies every object kept while it is young: a record per step
 * made of JS strings and objects (~21 objects, ~1 KB per W1 step) was most of W6's (bench) time. Bytes in
 * a typed array are not on the JS heap; per checkpoint only its id string and two map entries are.
 *
 * A record is lines of JSON text ending in a 0 byte: JSON.stringify output holds no raw control character, and
 * every stored text is such output (serde.ts, delta.ts) or JSON-encoded here (ids, channels), so "\n" and 0
 * never occur inside a field. Records are never changed: a replaced checkpoint or a new write is a new record.
 */
class Log {
  bytes = new Uint8Array(4096);
  end = 0;

  add(text: string): number {
    const at = this.end;
    // UTF-8 takes at most 3 bytes per UTF-16 code unit, plus the 0 byte that ends the record
    const need = at + text.length * 3 + 1;
    if (need > this.bytes.length) {
      const grown = new Uint8Array(Math.max(need, this.bytes.length * 2));
      grown.set(this.bytes.subarray(0, at));
      this.bytes = grown;
    }
    encoder.encodeInto(text, this.bytes.subarray(at));
    // bytes past `end` were never written, and a record holds no 0: the first 0 ends it
    this.end = this.bytes.indexOf(0, at) + 1;
    return at;
  }

  read(at: number): string[] {
    return decoder.decode(this.bytes.subarray(at, this.bytes.indexOf(0, at))).split("\n");
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A checkpoint read back: parent id, header, metadata, the blobs it owns. */
type Record_ = [parent: string | null, header: string, metadata: string, blobs: BlobRow[]];

interface Namespace {
  log: Log;
  /** checkpoint id → offset of its record: [JSON [parent, then per blob: channel, kind, base, depth, chain, snap]], header, metadata, blob data… */
  rows: Map<string, number>;
  /** checkpoint ids, ascending */
  ids: string[];
  /**
   * checkpoint id (stored or not yet) → offset of its newest writes record: [offset of the one before or -1],
   * [JSON task_id, idx, channel per row], values…
   */
  writes: Map<string, number>;
}

export class MemoryStore implements CheckpointStore {
  private readonly threads = new Map<string, Map<string, Namespace>>();

  // insert and putWrites are synchronous: the saver then settles its promise at once (see StoredSaver.put)
  insert(row: CheckpointRow, blobs: readonly BlobRow[]): void {
    const ns = this.namespace(row.thread_id, row.checkpoint_ns, true);
    const id = row.checkpoint_id;
    const old = ns.rows.get(id);
    if (old === undefined) insertSorted(ns.ids, id);
    else {
      // a replaced checkpoint keeps its blobs of channels the new one does not own (as the SQL stores do)
      const kept = readRecord(ns, old)[3].filter((b) => !blobs.some((n) => n.channel === b.channel));
      if (kept.length > 0) blobs = [...kept, ...blobs];
    }
    const meta: unknown[] = [row.parent_id];
    let data = "";
    for (const b of blobs) {
      meta.push(b.channel, b.kind, b.base, b.depth, b.chain, b.snap);
      data += "\n" + b.data;
    }
    ns.rows.set(id, ns.log.add(JSON.stringify(meta) + "\n" + row.header + "\n" + row.metadata + data));
  }

  async get(threadId: string, nsName: string, checkpointId: string | undefined): Promise<CheckpointRow | undefined> {
    const ns = this.namespace(threadId, nsName, false);
    const id = checkpointId ?? ns?.ids[ns.ids.length - 1];
    return id === undefined || !ns?.rows.has(id) ? undefined : rowOf(threadId, nsName, ns, id);
  }

  async page(query: RowQuery, cursor: PageCursor | undefined, limit: number): Promise<CheckpointRow[]> {
    // keys first, records decoded for the page only
    const found: [...PageCursor, Namespace][] = [];
    const threadIds = query.thread_id === undefined ? [...this.threads.keys()] : [query.thread_id];
    for (const threadId of threadIds) {
      for (const [name, ns] of this.threads.get(threadId) ?? []) {
        if (query.checkpoint_ns !== undefined && name !== query.checkpoint_ns) continue;
        for (const id of ns.ids) {
          const key: [...PageCursor, Namespace] = [id, threadId, name, ns];
          if (query.checkpoint_id !== undefined && id !== query.checkpoint_id) continue;
          if (query.before !== undefined && compareCodePoints(id, query.before) >= 0) continue;
          if (cursor === undefined || compareKeys(key, cursor) < 0) found.push(key);
        }
      }
    }
    return found
      .sort((a, b) => compareKeys(b, a))
      .slice(0, limit)
      .map(([id, threadId, name, ns]) => rowOf(threadId, name, ns, id));
  }

  async chains(threadId: string, nsName: string, refs: readonly [string, string][]): Promise<Map<string, BlobRow[]>> {
    const ns = this.namespace(threadId, nsName, false);
    const out = new Map<string, BlobRow[]>();
    for (const [channel, owner] of refs) {
      const chain: BlobRow[] = [];
      let blob = ns === undefined ? undefined : blobOf(ns, owner, channel);
      // bounded as the SQL stores' walks are: one row past the longest chain, so a loop ends (delta.ts checks)
      while (blob !== undefined && chain.length <= MAX_DEPTH + 1) {
        chain.push(blob);
        blob = blob.kind === 1 && blob.base !== null ? blobOf(ns!, blob.base, channel) : undefined;
      }
      out.set(channel, chain.reverse());
    }
    return out;
  }

  putWrites(threadId: string, nsName: string, checkpointId: string, rows: readonly WriteRow[]): void {
    const ns = this.namespace(threadId, nsName, true);
    // the id as the checkpoint keeps it when it is stored (usually the newest): one copy of each id per thread
    const last = ns.ids[ns.ids.length - 1];
    const id = last === checkpointId ? last : checkpointId;
    const keys: unknown[] = [];
    let values = "";
    for (const row of rows) {
      keys.push(row.task_id, row.idx, row.channel);
      values += "\n" + row.value;
    }
    ns.writes.set(id, ns.log.add((ns.writes.get(id) ?? -1) + "\n" + JSON.stringify(keys) + values));
  }

  async writes(threadId: string, nsName: string, checkpointId: string): Promise<WriteRow[]> {
    const ns = this.namespace(threadId, nsName, false);
    return ns === undefined ? [] : liveWrites(ns, checkpointId);
  }

  async deleteThread(threadId: string): Promise<void> {
    this.threads.delete(threadId);
  }

  /** Characters stored (headers, metadata, blobs, writes): what the storage benchmark compares. */
  storedChars(): number {
    let total = 0;
    for (const namespaces of this.threads.values()) {
      for (const ns of namespaces.values()) {
        for (const at of ns.rows.values()) {
          const [, header, metadata, blobs] = readRecord(ns, at);
          total += header.length + metadata.length;
          for (const blob of blobs) total += blob.data.length;
        }
        for (const id of ns.writes.keys()) for (const w of liveWrites(ns, id)) total += w.value.length;
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
      ns = { log: new Log(), rows: new Map(), ids: [], writes: new Map() };
      thread.set(name, ns);
    }
    return ns;
  }
}

/** The members of a JSON array line written by this store (their types are the ones it wrote). */
function field(json: string): (i: number) => never {
  const members = JSON.parse(json) as unknown[];
  return (i) => members[i] as never;
}

function readRecord(ns: Namespace, at: number): Record_ {
  const [meta, header, metadata, ...data] = ns.log.read(at);
  const m = field(meta!);
  const blobs = data.map(
    (d, i): BlobRow => ({ channel: m(6 * i + 1), kind: m(6 * i + 2), base: m(6 * i + 3), data: d, depth: m(6 * i + 4), chain: m(6 * i + 5), snap: m(6 * i + 6) }),
  );
  return [m(0), header!, metadata!, blobs];
}

/**
 * The writes of one checkpoint, oldest record first, by LangGraph's rules: a row with idx < 0 replaces the row
 * with the same (task_id, idx), others are kept once; ordered by task_id (code point order), then idx.
 */
function liveWrites(ns: Namespace, checkpointId: string): WriteRow[] {
  const records: string[][] = [];
  for (let at = ns.writes.get(checkpointId) ?? -1; at >= 0; ) {
    const lines = ns.log.read(at);
    records.push(lines);
    at = Number(lines[0]);
  }
  const byKey = new Map<string, WriteRow>();
  for (let r = records.length - 1; r >= 0; r--) {
    const [, keys, ...values] = records[r]!;
    const k = field(keys!);
    values.forEach((value, i) => {
      const row: WriteRow = { task_id: k(3 * i), idx: k(3 * i + 1), channel: k(3 * i + 2), value };
      // (an idx has no 0 character: the key splits only one way)
      const key = row.task_id + "\0" + row.idx;
      if (row.idx < 0 || !byKey.has(key)) byKey.set(key, row);
    });
  }
  return [...byKey.values()].sort((a, b) => compareCodePoints(a.task_id, b.task_id) || a.idx - b.idx);
}

function rowOf(threadId: string, nsName: string, ns: Namespace, id: string): CheckpointRow {
  const [parent_id, header, metadata] = readRecord(ns, ns.rows.get(id)!);
  return { thread_id: threadId, checkpoint_ns: nsName, checkpoint_id: id, parent_id, header, metadata };
}

/** The in-memory CheckpointSaver. */
export class MemorySaver extends StoredSaver {
  constructor() {
    super(new MemoryStore());
  }

  // for benchmarks and tests of the linear-growth guarantee
  /** Characters currently stored. */
  storedChars(): number {
    return (this.store as MemoryStore).storedChars();
  }
}

function blobOf(ns: Namespace, owner: string, channel: string): BlobRow | undefined {
  const at = ns.rows.get(owner);
  return at === undefined ? undefined : readRecord(ns, at)[3].find((b) => b.channel === channel);
}

function insertSorted(ids: string[], id: string): void {
  // ids are usually created in order: appending is the common case
  let i = ids.length;
  while (i > 0 && compareCodePoints(ids[i - 1]!, id) > 0) i--;
  ids.splice(i, 0, id);
}

/** (checkpoint_id, thread_id, checkpoint_ns) order */
function compareKeys(a: readonly [string, string, string, ...unknown[]], b: readonly [string, string, string, ...unknown[]]): number {
  return compareCodePoints(a[0], b[0]) || compareCodePoints(a[1], b[1]) || compareCodePoints(a[2], b[2]);
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
