/**
 * The CheckpointSaver behaviour shared by every saver (memory, SQLite, Postgres): config checks, LangGraph's
 * pending-write rules, list filtering, and the delta layout of delta.ts. A saver only supplies a
 * `CheckpointStore`: rows in, rows out.
 */
import type {
  Checkpoint,
  CheckpointMetadata,
  CheckpointSaver,
  CheckpointTuple,
  ListOptions,
  PendingWrite,
  RunnableConfig,
} from "./types.ts";
import { CheckpointError, missingThreadId } from "./errors.ts";
import { installCheckpointing } from "../install.ts";
import { encode, roundTrip, sameValue, tryEncode } from "./serde.ts";
import { CorruptCheckpointError, decodeStored, typeName } from "./corrupt.ts";
import { type ConfigIdKey, configId, saverConfigError } from "./config-ids.ts";
import {
  type BlobRow,
  type EncodedCheckpoint,
  type Head,
  blobRefs,
  encodeCheckpoint,
  parseHeader,
  readChannels,
} from "./delta.ts";
import { defineField } from "../objects.ts";

export interface CheckpointRow {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string;
  parent_id: string | null;
  /** delta.ts header (JSON) */
  header: string;
  /** serde-encoded CheckpointMetadata */
  metadata: string;
}

export interface WriteRow {
  task_id: string;
  /** position in the task's write list, or the fixed negative index of a special channel */
  idx: number;
  channel: string;
  /** serde-encoded value */
  value: string;
}

export interface RowQuery {
  /** undefined: every thread */
  thread_id?: string | undefined;
  /** undefined: every namespace */
  checkpoint_ns?: string | undefined;
  checkpoint_id?: string | undefined;
  /** only ids strictly lower */
  before?: string | undefined;
}

/** Keyset position for paging through `page` (exclusive). */
export type PageCursor = [checkpoint_id: string, thread_id: string, checkpoint_ns: string];

// The row objects and arrays handed to `insert` and `putWrites` are made by StoredSaver for that call
// only: a store may keep them as they are (MemoryStore does), and must not change them.
/** Storage primitives, each atomic on its own. */
export interface CheckpointStore {
  /** Inserts (or replaces) a checkpoint row with the blobs it owns (a synchronous store returns nothing). */
  insert(row: CheckpointRow, blobs: readonly BlobRow[]): Promise<void> | void;
  /**
   * @internal A store whose `loopSteps` is true (MemoryStore) is given a root loop checkpoint's metadata as
   * its step (see loopStep), and `row.metadata` is then "".
   */
  insert(row: CheckpointRow, blobs: readonly BlobRow[], step: number | undefined): Promise<void> | void;
  /** @internal */
  readonly loopSteps?: boolean;
  /** The named checkpoint, or the one with the greatest id in the thread/namespace. */
  get(threadId: string, ns: string, checkpointId: string | undefined): Promise<CheckpointRow | undefined>;
  /** Up to `limit` rows ordered by (checkpoint_id, thread_id, checkpoint_ns) descending, after `cursor`. */
  page(query: RowQuery, cursor: PageCursor | undefined, limit: number): Promise<CheckpointRow[]>;
  /** For each [channel, owner]: the chain of rows from its full row to the owner's row. */
  chains(threadId: string, ns: string, refs: readonly [string, string][]): Promise<Map<string, BlobRow[]>>;
  /** Stores writes: rows with idx < 0 replace an existing row with the same (task_id, idx), others do not. */
  putWrites(threadId: string, ns: string, checkpointId: string, rows: readonly WriteRow[]): Promise<void> | void;
  /** Writes of one checkpoint ordered by task_id (code point order), then idx. */
  writes(threadId: string, ns: string, checkpointId: string): Promise<WriteRow[]>;
  deleteThread(threadId: string): Promise<void>;
}

/** LangGraph's WRITES_IDX_MAP: writes to these channels are replaced, not kept once, per task. */
export const SPECIAL_WRITE_INDEX: ReadonlyMap<string, number> = new Map([
  ["__error__", -1],
  ["__scheduled__", -2],
  ["__interrupt__", -3],
  ["__resume__", -4],
]);

const PAGE = 64;
/** Threads whose last checkpoint is remembered to encode the next one without reading it back. */
const HEAD_CACHE_SIZE = 1024;

// (and SaverNow, the runtime's internal fast path: putNow, putWritesNow)
export class StoredSaver implements CheckpointSaver {
  /** "thread\0ns" → the last checkpoint put or read there (LRU by insertion order) */
  private readonly heads = new Map<string, Head>();

  constructor(protected readonly store: CheckpointStore) {
    // checkpointing comes with a saver: a program that never makes one does not bundle it (install.ts)
    installCheckpointing();
  }

  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const threadId = threadIdOf(config);
    if (threadId === undefined) return undefined;
    const ns = nsOf(config) ?? "";
    const row = await this.store.get(threadId, ns, checkpointIdOf(config));
    // remembered: the next put is usually a child of the checkpoint just read (resume, another worker)
    return row === undefined ? undefined : this.assemble(row, decodeMetadata(row), true);
  }

  async *list(config: RunnableConfig, options: ListOptions = {}): AsyncIterable<CheckpointTuple> {
    const { filter } = options;
    let remaining = options.limit ?? Infinity;
    const query: RowQuery = {
      thread_id: threadIdOf(config),
      checkpoint_ns: nsOf(config),
      checkpoint_id: checkpointIdOf(config),
      before: options.before === undefined ? undefined : checkpointIdOf(options.before),
    };
    let cursor: PageCursor | undefined;
    while (remaining > 0) {
      const rows = await this.store.page(query, cursor, PAGE);
      for (const row of rows) {
        const metadata = decodeMetadata(row);
        if (filter !== undefined && !matches(metadata, filter)) continue;
        yield await this.assemble(row, metadata, false);
        if (--remaining <= 0) return;
      }
      const last = rows[rows.length - 1];
      if (rows.length < PAGE || last === undefined) return;
      cursor = [last.checkpoint_id, last.thread_id, last.checkpoint_ns];
    }
  }

  put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: Record<string, number>,
  ): Promise<RunnableConfig> {
    const pending = this.putCheckpoint(config, checkpoint, metadata, newVersions);
    // stored synchronously: the config is made here only (the runtime's putNow path never needs it)
    return pending ?? Promise.resolve(namedConfig(threadIdOf(config)!, nsOf(config) ?? "", checkpoint.id));
  }

  /** @internal SaverNow (the runtime's path): `put` without a promise when the store is synchronous. */
  putNow(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: Record<string, number>,
  ): Promise<RunnableConfig> | undefined {
    // a subclass that overrides put() (to wrap or observe it) is still called through it
    if (this.put !== StoredSaver.prototype.put) return this.put(config, checkpoint, metadata, newVersions);
    return this.putCheckpoint(config, checkpoint, metadata, newVersions);
  }

  /**
   * `undefined` once a synchronous store (MemoryStore) has the checkpoint, else the promise of the store's
   * insert. Not `async`: it runs once per superstep, so no chain of `async` frames. Errors are rejections,
   * never synchronous throws.
   */
  private putCheckpoint(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: Record<string, number>,
  ): Promise<RunnableConfig> | undefined {
    try {
      const threadId = threadIdOf(config);
      if (threadId === undefined) throw missingThreadId("put checkpoint");
      const ns = nsOf(config) ?? "";
      if (typeof checkpoint.id !== "string" || checkpoint.id === "") {
        throw new CheckpointError("INVALID_CONFIG", "Failed to put checkpoint: checkpoint.id must be a non-empty string.", "id");
      }
      const id = flatText(checkpoint.id);
      const key = headKey(threadId, ns);
      const cached = this.heads.get(key);
      // the parent's id as already kept (the cached head's), else a flat copy
      const configId = checkpointIdOf(config);
      const parentId = configId !== undefined && cached?.id === configId ? cached.id : flatText(configId);
      if (parentId !== undefined && cached?.id !== parentId) {
        return this.putUncached(threadId, ns, parentId, id, checkpoint, metadata, newVersions);
      }
      // encoded before anything is awaited: the caller may change its objects as soon as put() returns
      const encoded = encodeCheckpoint(checkpoint, newVersions, parentId === undefined ? undefined : cached, id);
      return this.store_(threadId, ns, key, id, parentId, encoded, metadata, checkpoint.id);
    } catch (e) {
      return Promise.reject(e);
    }
  }

  /** A put whose parent is not the remembered head: it is read back first (another worker wrote it, or a fork). */
  private async putUncached(
    threadId: string,
    ns: string,
    parentId: string,
    id: string,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: Record<string, number>,
  ): Promise<RunnableConfig> {
    // copied before the first await: the caller may change its objects as soon as put() returns
    const copy = roundTrip(checkpoint, "checkpoint");
    const metaCopy = roundTrip(metadata, "checkpoint metadata");
    const encoded = encodeCheckpoint(copy, newVersions, await this.head(threadId, ns, parentId), id);
    const stored = await this.store_(threadId, ns, headKey(threadId, ns), id, parentId, encoded, metaCopy, checkpoint.id);
    return stored ?? namedConfig(threadId, ns, checkpoint.id);
  }

  private store_(
    threadId: string,
    ns: string,
    key: string,
    id: string,
    parentId: string | undefined,
    encoded: EncodedCheckpoint,
    metadata: CheckpointMetadata,
    givenId: string,
  ): Promise<RunnableConfig> | undefined {
    // (after the channels: the same error first as when delta.ts encoded the metadata)
    const step = this.store.loopSteps === true ? loopStep(metadata) : undefined;
    const text = step === undefined ? encode(metadata, "checkpoint metadata") : "";
    // remembered at once, so a child put before this insert resolves is still encoded against it
    const head = encoded.head;
    this.remember(key, head);
    let inserted: Promise<void> | void;
    try {
      inserted = this.store.insert(
        { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: id, parent_id: parentId ?? null, header: encoded.header, metadata: text },
        encoded.blobs,
        step,
      );
    } catch (e) {
      this.forget(key, head);
      return Promise.reject(e);
    }
    if (inserted === undefined) return undefined;
    return inserted.then(
      () => namedConfig(threadId, ns, givenId),
      (e: unknown) => {
        this.forget(key, head);
        throw e;
      },
    );
  }

  /** A failed insert: its head must not be the parent of the next put. */
  private forget(key: string, head: Head): void {
    if (this.heads.get(key) === head) this.heads.delete(key);
  }

  putWrites(config: RunnableConfig, writes: [channel: string, value: unknown][], taskId: string): Promise<void> {
    return this.storeWrites(config, writes, taskId) ?? Promise.resolve();
  }

  /** @internal SaverNow (the runtime's path): `putWrites` without a promise when the store is synchronous. */
  putWritesNow(
    config: RunnableConfig,
    writes: [channel: string, value: unknown][],
    taskId: string,
  ): Promise<void> | undefined {
    if (this.putWrites !== StoredSaver.prototype.putWrites) return this.putWrites(config, writes, taskId);
    return this.storeWrites(config, writes, taskId);
  }

  /** `undefined` once a synchronous store has the writes, else the store's promise; errors are rejections. */
  private storeWrites(
    config: RunnableConfig,
    writes: [channel: string, value: unknown][],
    taskId: string,
  ): Promise<void> | undefined {
    try {
      const threadId = threadIdOf(config);
      if (threadId === undefined) throw missingThreadId("put writes");
      const checkpointId = checkpointIdOf(config);
      if (checkpointId === undefined) {
        throw new CheckpointError(
          "MISSING_CHECKPOINT_ID",
          'Failed to put writes. The passed RunnableConfig is missing a required "checkpoint_id" field in its "configurable" property.',
          "checkpoint_id",
        );
      }
      const task_id = flatText(taskId);
      const rows = writes.map(([channel, value], i): WriteRow => ({
        task_id,
        idx: SPECIAL_WRITE_INDEX.get(channel) ?? i,
        channel,
        value: tryEncode(value) ?? encode(value, `write to "${channel}" by task ${taskId}`),
      }));
      return this.store.putWrites(threadId, nsOf(config) ?? "", checkpointId, rows) ?? undefined;
    } catch (e) {
      return Promise.reject(e);
    }
  }

  async deleteThread(id: string): Promise<void> {
    // typed as a string, but called from JavaScript too: the same rule as config.configurable.thread_id
    const threadId = threadIdOf({ configurable: { thread_id: id } });
    if (threadId === undefined) return;
    await this.store.deleteThread(threadId);
    const prefix = threadId + "\0";
    for (const key of [...this.heads.keys()]) if (key.startsWith(prefix)) this.heads.delete(key);
  }

  private async assemble(row: CheckpointRow, metadata: CheckpointMetadata, remember: boolean): Promise<CheckpointTuple> {
    const header = parseHeader(row.header, row);
    const { thread_id, checkpoint_ns, checkpoint_id } = row;
    const cached = this.heads.get(headKey(thread_id, checkpoint_ns));
    const head =
      cached?.id === checkpoint_id
        ? cached
        : readChannels(row, header, await this.store.chains(thread_id, checkpoint_ns, blobRefs(checkpoint_id, header)));
    const channel_values: Record<string, unknown> = {};
    for (const [channel, ch] of head.channels) {
      // defineProperty: a channel named "__proto__" must stay a key
      const value = decodeStored(ch.json, row, channel, "the stored value");
      defineField(channel_values, channel, value);
    }
    const checkpoint: Checkpoint = {
      v: header.cpv ?? 4,
      id: checkpoint_id,
      ts: header.ts,
      channel_values,
      channel_versions: header.cv,
      versions_seen: header.vs,
    };
    const pendingWrites = (await this.store.writes(thread_id, checkpoint_ns, checkpoint_id)).map(
      (w): PendingWrite => [w.task_id, w.channel, decodeStored(w.value, row, w.channel, `the pending write of task ${w.task_id}`)],
    );
    const tuple: CheckpointTuple = {
      config: namedConfig(thread_id, checkpoint_ns, checkpoint_id),
      checkpoint,
      metadata,
      pendingWrites,
    };
    if (row.parent_id !== null) {
      tuple.parentConfig = namedConfig(thread_id, checkpoint_ns, row.parent_id);
    }
    if (remember && cached?.id !== checkpoint_id) this.remember(headKey(thread_id, checkpoint_ns), head);
    return tuple;
  }

  /** A stored checkpoint read back as the encoder of its children needs it. */
  private async head(threadId: string, ns: string, id: string): Promise<Head | undefined> {
    const row = await this.store.get(threadId, ns, id);
    if (row === undefined) return undefined;
    const header = parseHeader(row.header, row);
    return readChannels(row, header, await this.store.chains(threadId, ns, blobRefs(id, header)));
  }

  private remember(key: string, head: Head): void {
    this.heads.delete(key);
    this.heads.set(key, head);
    if (this.heads.size > HEAD_CACHE_SIZE) {
      const oldest = this.heads.keys().next();
      if (oldest.done !== true) this.heads.delete(oldest.value);
    }
  }
}

/**
 * The step of a root graph's loop checkpoint metadata, exactly `{ source: "loop", step, parents: {} }` with a
 * 32-bit integer step (all but the first checkpoint of a root run), whose stored text is
 * `{"source":"loop","step":<step>,"parents":{}}`; undefined for any other metadata. A store keeping the number
 * instead of that text (MemoryStore) neither encodes nor keeps a text per checkpoint; it rebuilds the same text
 * when read. Anything else (another key or key order, -0, a class instance serde would refuse, an array) is
 * encoded as before. (A non-enumerable own "$g", which serde wraps, decodes to the same object.)
 */
function loopStep(m: CheckpointMetadata): number | undefined {
  const step = m?.step;
  return m?.source === "loop" && Object.is(step, step | 0) && plainWith(m, LOOP_KEYS) && plainWith(m.parents, NO_KEYS)
    ? step
    : undefined;
}

const LOOP_KEYS = ["source", "step", "parents"];
const NO_KEYS: readonly string[] = [];

/**
 * Whether `o` is a plain object whose enumerable keys are exactly `keys`, in JSON's order. `for…in` walks
 * V8's cached key list without allocating (`Object.keys(m) + ""` cost ~5% of W6); it also lists enumerable
 * keys inherited from Object.prototype, and such metadata is then encoded as any other.
 */
function plainWith(o: unknown, keys: readonly string[]): boolean {
  if (o == null || Object.getPrototypeOf(o) !== Object.prototype) return false;
  let i = 0;
  for (const k in o as object) if (k !== keys[i++]) return false;
  return i === keys.length;
}

/**
 * The same text as one flat string. A string built by concatenation is a tree of pieces: JSON.stringify's
 * output (of its 32, 64, 128… character buffers: every header and metadata text), an id made by code other
 * than the runtime's (runtime/ids.ts makes flat ones). A store keeps these for as long as the thread lives,
 * and the garbage collector copies every piece. Reading a character of such a tree makes V8 flatten it in
 * place: its root then points at one flat copy, which the collector keeps in the root's stead. The value is
 * always the given one. (`split` on an absent separator, used before, did the same with an array more:
 * ~140 ns per header.)
 * @internal
 */
export function flatText<T extends string | undefined>(text: T): T {
  text?.charCodeAt(0);
  return text;
}

/** The config naming a stored checkpoint (what put resolves to). */
function namedConfig(threadId: string, ns: string, checkpointId: string): RunnableConfig {
  return { configurable: { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: checkpointId } };
}

function headKey(threadId: string, ns: string): string {
  return threadId + "\0" + ns;
}

function decodeMetadata(row: CheckpointRow): CheckpointMetadata {
  const metadata = decodeStored(row.metadata, row, undefined, "the metadata");
  if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata)) {
    throw new CorruptCheckpointError(row, `the metadata is ${typeName(metadata)}, not an object`);
  }
  return metadata as CheckpointMetadata;
}

function matches(metadata: CheckpointMetadata, filter: Record<string, unknown>): boolean {
  for (const key of Object.keys(filter)) {
    if (!sameValue(metadata[key], filter[key])) return false;
  }
  return true;
}

function configString(config: RunnableConfig, field: ConfigIdKey): string | undefined {
  return configId(config.configurable, field, saverConfigError);
}

function threadIdOf(config: RunnableConfig): string | undefined {
  const id = configString(config, "thread_id");
  return id === "" ? undefined : id;
}

function nsOf(config: RunnableConfig): string | undefined {
  return configString(config, "checkpoint_ns");
}

function checkpointIdOf(config: RunnableConfig): string | undefined {
  const id = configString(config, "checkpoint_id");
  return id === "" ? undefined : id;
}
