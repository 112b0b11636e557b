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

  add(lines: string[]): number {
    const text = lines.join("\n");
    const at = this.end;
    // UTF-8 takes at most 3 bytes per UTF-16 code unit, plus the 0 byte that ends the record
    const need = at + text.length * 3 + 1;
    if (need > this.bytes.length) {
      const grown = new Uint8Array(Math.max(need, this.bytes.length * 2));
      grown.set(this.bytes.subarray(0, at));
      this.bytes = grown;
    }
    // bytes past `end` were never written: the 0 after the text is already there
    this.end = at + encoder.encodeInto(text, this.bytes.subarray(at)).written + 1;
    return at;
  }

  read(at: number): string[] {
    return decoder.decode(this.bytes.subarray(at, this.bytes.indexOf(0, at))).split("\n");
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A stored checkpoint read back: [row fields…, its blobs]. */
interface Record_ {
  parent: string | null;
  header: string;
  metadata: string;
  blobs: BlobRow[];
}

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
    let owned = blobs;
    if (old === undefined) insertSorted(ns.ids, id);
    else {
      // a replaced checkpoint keeps its blobs of channels the new one does not own (as the SQL stores do)
      const kept = readRecord(ns, old).blobs.filter((b) => !blobs.some((n) => n.channel === b.channel));
      if (kept.length > 0) owned = [...kept, ...blobs];
    }
    const meta: (string | number | null)[] = [row.parent_id];
    const lines = ["", row.header, row.metadata];
    for (const b of owned) {
      meta.push(b.channel, b.kind, b.base, b.depth, b.chain, b.snap);
      lines.push(b.data);
    }
    lines[0] = JSON.stringify(meta);
    ns.rows.set(id, ns.log.add(lines));
  }

  async get(threadId: string, nsName: string, checkpointId: string | undefined): Promise<CheckpointRow | undefined> {
    const ns = this.namespace(threadId, nsName, false);
    const id = checkpointId ?? ns?.ids[ns.ids.length - 1];
    return id === undefined || !ns?.rows.has(id) ? undefined : rowOf(threadId, nsName, ns, id);
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
        for (const id of ns.ids) {
          if (query.checkpoint_id !== undefined && id !== query.checkpoint_id) continue;
          if (query.before !== undefined && compareCodePoints(id, query.before) >= 0) continue;
          const row = rowOf(threadId, name, ns, id);
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
    while (i > 0 && out.length < limit) out.push(rowOf(threadId, nsName, ns, ns.ids[--i]!));
    return out;
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
    const keys: (string | number)[] = [];
    const lines = [String(ns.writes.get(id) ?? -1), ""];
    for (const row of rows) {
      keys.push(row.task_id, row.idx, row.channel);
      lines.push(row.value);
    }
    lines[1] = JSON.stringify(keys);
    ns.writes.set(id, ns.log.add(lines));
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
          const r = readRecord(ns, at);
          total += r.header.length + r.metadata.length;
          for (const blob of r.blobs) total += blob.data.length;
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

function readRecord(ns: Namespace, at: number): Record_ {
  const [meta, header, metadata, ...data] = ns.log.read(at);
  const m = JSON.parse(meta!) as [string | null, ...(string | number | null)[]];
  const blobs: BlobRow[] = data.map((d, i) => ({
    channel: m[6 * i + 1] as string,
    kind: m[6 * i + 2] as 0 | 1,
    base: m[6 * i + 3] as string | null,
    data: d,
    depth: m[6 * i + 4] as number,
    chain: m[6 * i + 5] as number,
    snap: m[6 * i + 6] as number,
  }));
  return { parent: m[0], header: header!, metadata: metadata!, blobs };
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
    const k = JSON.parse(keys!) as (string | number)[];
    values.forEach((value, i) => {
      const row: WriteRow = { task_id: k[3 * i] as string, idx: k[3 * i + 1] as number, channel: k[3 * i + 2] as string, value };
      const key = JSON.stringify([row.task_id, row.idx]);
      if (row.idx < 0 || !byKey.has(key)) byKey.set(key, row);
    });
  }
  return [...byKey.values()].sort((a, b) => compareCodePoints(a.task_id, b.task_id) || a.idx - b.idx);
}

function rowOf(threadId: string, nsName: string, ns: Namespace, id: string): CheckpointRow {
  const r = readRecord(ns, ns.rows.get(id)!);
  return { thread_id: threadId, checkpoint_ns: nsName, checkpoint_id: id, parent_id: r.parent, header: r.header, metadata: r.metadata };
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
  return at === undefined ? undefined : readRecord(ns, at).blobs.find((b) => b.channel === channel);
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
