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
  flatText,
} from "./stored-saver.ts";

/**
 * One stored checkpoint. A thread of N steps keeps N of these, so they are compact: the GC copies every
 * retained object while the thread lives, and the objects kept per step are what W6 (bench) pays for. The
 * row (thread, namespace, id) is rebuilt on read; blobs and pending writes hang off the record.
 */
interface Stored {
  readonly id: string;
  readonly parent: string | null;
  readonly header: string;
  /** the metadata's text, or the step of a root loop checkpoint's (StoredSaver's loopStep: no text kept) */
  readonly metadata: string | number;
  /** the blobs this checkpoint owns: usually one, or none */
  readonly blobs: BlobRow | readonly BlobRow[] | null;
  /** pending writes as flat quads [task_id, idx, channel, value, …]: one array instead of a row object each */
  writes: Writes | null;
}

type Quads = (string | number)[];
/**
 * A checkpoint's writes: one array while one task wrote them (a step of a chain), a map of one array per task
 * once another task writes (a fan-out of T tasks costs O(T) in all, where a scan of one array per task's
 * writes cost O(T²): 330 µs per task at 4,000 tasks).
 */
type Writes = Quads | Map<string, Quads>;

interface Namespace {
  rows: Map<string, Stored>;
  /** checkpoint ids, ascending */
  ids: string[];
  /** writes put against a checkpoint id that is not stored (yet): kept until it is */
  orphanWrites: Map<string, Writes>;
}

export class MemoryStore implements CheckpointStore {
  private readonly threads = new Map<string, Map<string, Namespace>>();
  readonly loopSteps = true;

  // insert and putWrites are synchronous: the saver then settles its promise at once (see StoredSaver.put)
  insert(row: CheckpointRow, blobs: readonly BlobRow[], step?: number): void {
    const ns = this.spaceOf(row.thread_id, row.checkpoint_ns, true);
    const id = row.checkpoint_id;
    const old = ns.rows.get(id);
    let writes: Writes | null = null;
    if (old !== undefined) writes = old.writes;
    else {
      insertSorted(ns.ids, id);
      if (ns.orphanWrites.size > 0) {
        writes = ns.orphanWrites.get(id) ?? null;
        ns.orphanWrites.delete(id);
      }
    }
    // the parent's own id string when it is stored here: one copy of each id per thread
    const parent = row.parent_id === null ? null : (ns.rows.get(row.parent_id)?.id ?? row.parent_id);
    // a blob's text may be a concatenation (delta.ts ChannelHead.open): kept flat
    for (const b of blobs) flatText(b.data);
    // the saver hands over arrays it no longer uses (see CheckpointStore): kept as given, exactly sized
    let owned: BlobRow | readonly BlobRow[] | null = blobs.length === 0 ? null : blobs.length === 1 ? blobs[0]! : blobs;
    if (old !== undefined && old.blobs !== null) {
      // a replaced checkpoint keeps its blobs of channels the new one does not own (as the SQL stores do)
      const kept = ownedBlobs(old).filter((b) => !blobs.some((n) => n.channel === b.channel));
      if (kept.length > 0) owned = [...kept, ...blobs];
    }
    // (an object literal of one shape: as compact as a class instance, in fewer bytes of runtime)
    // flat copies of the saver's texts: kept as long as the thread (see flatText)
    ns.rows.set(id, { id, parent, header: flatText(row.header), metadata: step ?? flatText(row.metadata), blobs: owned, writes });
  }

  async get(threadId: string, nsName: string, checkpointId: string | undefined): Promise<CheckpointRow | undefined> {
    const ns = this.spaceOf(threadId, nsName, false);
    const id = checkpointId ?? ns?.ids[ns.ids.length - 1];
    const stored = id === undefined ? undefined : ns?.rows.get(id);
    return stored === undefined ? undefined : rowOf(threadId, nsName, stored);
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
        for (const stored of ns.rows.values()) {
          const row = rowOf(threadId, name, stored);
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
    const ns = this.spaceOf(threadId, nsName, false);
    if (ns === undefined) return [];
    const bound = [before, after].filter((x): x is string => x !== undefined).sort(compareCodePoints)[0];
    let i = bound === undefined ? ns.ids.length : lowerBound(ns.ids, bound);
    const out: CheckpointRow[] = [];
    while (i > 0 && out.length < limit) out.push(rowOf(threadId, nsName, ns.rows.get(ns.ids[--i]!)!));
    return out;
  }

  async chains(threadId: string, nsName: string, refs: readonly [string, string][]): Promise<Map<string, BlobRow[]>> {
    const ns = this.spaceOf(threadId, nsName, false);
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
    const ns = this.spaceOf(threadId, nsName, true);
    const stored = ns.rows.get(checkpointId);
    let writes = (stored === undefined ? ns.orphanWrites.get(checkpointId) : stored.writes) ?? [];
    // StoredSaver's rows are one task's, numbered 0, 1, 2, … (negative for special channels): a row whose idx
    // is above those before it in this call can only repeat one of the task's earlier calls, so only those are
    // searched (a fan-out's one call with N Sends is O(N), not O(N²))
    let prev: Quads | undefined;
    let start = 0;
    let top = -1;
    for (const { task_id: task, idx, channel, value } of rows) {
      // (a task's quads start with its id)
      if (Array.isArray(writes) && (writes[0] ?? task) !== task) writes = new Map([[writes[0] as string, writes]]);
      let quads = Array.isArray(writes) ? writes : writes.get(task);
      if (!quads) (writes as Map<string, Quads>).set(task, (quads = []));
      if (quads !== prev) {
        prev = quads;
        start = quads.length;
        top = -1;
      }
      // (idx is the only number in a task's quads)
      const at = idx <= top ? quads.indexOf(idx) : start ? quads.lastIndexOf(idx, start - 1) : -1;
      if (idx > top) top = idx;
      if (at < 0) quads.push(task, idx, channel, value);
      else if (idx < 0) quads.splice(at + 1, 2, channel, value);
    }
    // a single task's writes as an exactly sized copy: push leaves growth slack, which would be kept as long
    // as the thread
    if (Array.isArray(writes)) writes = writes.slice();
    if (stored === undefined) ns.orphanWrites.set(checkpointId, writes);
    else stored.writes = writes;
  }

  async writes(threadId: string, nsName: string, checkpointId: string): Promise<WriteRow[]> {
    const ns = this.spaceOf(threadId, nsName, false);
    const quads = taskLists(ns?.rows.get(checkpointId)?.writes ?? ns?.orphanWrites.get(checkpointId)).flat();
    const out: WriteRow[] = [];
    for (let i = 0; i < quads.length; i += 4) {
      out.push({
        task_id: quads[i] as string,
        idx: quads[i + 1] as number,
        channel: quads[i + 2] as string,
        value: quads[i + 3] as string,
      });
    }
    return out.sort((a, b) => compareCodePoints(a.task_id, b.task_id) || a.idx - b.idx);
  }

  async deleteThread(threadId: string): Promise<void> {
    this.threads.delete(threadId);
  }

  /** Characters stored (headers, metadata, blobs, writes): what the storage benchmark compares. */
  storedChars(): number {
    let total = 0;
    const addWrites = (writes: Writes | null) => {
      for (const quads of taskLists(writes)) for (let i = 3; i < quads.length; i += 4) total += (quads[i] as string).length;
    };
    for (const namespaces of this.threads.values()) {
      for (const ns of namespaces.values()) {
        for (const stored of ns.rows.values()) {
          total += stored.header.length + metadataText(stored.metadata).length;
          for (const blob of ownedBlobs(stored)) total += blob.data.length;
          addWrites(stored.writes);
        }
        for (const writes of ns.orphanWrites.values()) addWrites(writes);
      }
    }
    return total;
  }

  /** The record of one thread/namespace (made when `create`). */
  private spaceOf(threadId: string, name: string, create: true): Namespace;
  private spaceOf(threadId: string, name: string, create: false): Namespace | undefined;
  private spaceOf(threadId: string, name: string, create: boolean): Namespace | undefined {
    let thread = this.threads.get(threadId);
    if (thread === undefined) {
      if (!create) return undefined;
      this.threads.set(threadId, (thread = new Map()));
    }
    let ns = thread.get(name);
    if (ns === undefined && create) {
      ns = { rows: new Map(), ids: [], orphanWrites: new Map() };
      thread.set(name, ns);
    }
    return ns;
  }
}

function rowOf(threadId: string, ns: string, stored: Stored): CheckpointRow {
  return {
    thread_id: threadId,
    checkpoint_ns: ns,
    checkpoint_id: stored.id,
    parent_id: stored.parent,
    header: stored.header,
    metadata: metadataText(stored.metadata),
  };
}

/** The text StoredSaver would have stored (a step: its loopStep's metadata). */
function metadataText(m: string | number): string {
  return typeof m === "number" ? '{"source":"loop","step":' + m + ',"parents":{}}' : m;
}

/** A checkpoint's writes as one list of quads per task. */
function taskLists(writes: Writes | null | undefined): Quads[] {
  return writes == null ? [] : Array.isArray(writes) ? [writes] : [...writes.values()];
}

function ownedBlobs(stored: Stored): readonly BlobRow[] {
  const b = stored.blobs;
  // (a blob row has its own "channel"; a list of them does not)
  return b === null ? [] : "channel" in b ? [b] : b;
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
  const stored = ns.rows.get(owner);
  return stored && ownedBlobs(stored).find((b) => b.channel === channel);
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
