/**
 * The checkpointer contract, shaped after LangGraph's BaseCheckpointSaver so that the loop's observable
 * behaviour (ids, metadata, pending writes, history order) matches LangGraph.
 *
 * Values handed to a saver are JSON data plus `undefined` (see serde.ts); savers must give back exactly
 * what they were given. How a saver stores them (deltas for appended lists, snapshots) is its own business,
 * as long as a thread of N steps costs O(N) bytes for append-only fields.
 */

/** The config a saver gets and returns: the thread, namespace and checkpoint it names. */
export interface RunnableConfig {
  configurable?: {
    thread_id?: string;
    /** "" for the root graph; `node:taskId|child:taskId` for subgraphs */
    checkpoint_ns?: string;
    checkpoint_id?: string;
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

export interface Checkpoint {
  // graphc writes 4 (Sends live in the `__pregel_tasks` channel, no `pending_sends`)
  /** The checkpoint format's version (LangGraph's numbering); savers store and return it unchanged. */
  v: number;
  /** time-ordered unique id (sorts lexicographically by creation) */
  id: string;
  /** ISO timestamp */
  ts: string;
  // The loop's channels: `branch:to:<node>` (triggers), `join:<a>+<b>:<c>` (barrier: string[] of sources
  // seen), `__pregel_tasks` (pending Send packets: {node, arg}[]).
  /** Data fields by name, plus the loop's own channels with LangGraph's names. */
  channel_values: Record<string, unknown>;
  channel_versions: Record<string, number>;
  versions_seen: Record<string, Record<string, number>>;
}

export type CheckpointSource = "input" | "loop" | "update" | "fork";

export interface CheckpointMetadata {
  source: CheckpointSource;
  step: number;
  /** checkpoint ids of the enclosing graphs by namespace ("" = root) */
  parents: Record<string, string>;
  [key: string]: unknown;
}

/** [taskId, channel, value] — a task's write saved before the superstep completes */
export type PendingWrite = [taskId: string, channel: string, value: unknown];

export interface CheckpointTuple {
  config: RunnableConfig;
  checkpoint: Checkpoint;
  metadata: CheckpointMetadata;
  parentConfig?: RunnableConfig;
  pendingWrites: PendingWrite[];
}

export interface ListOptions {
  limit?: number;
  /** only checkpoints older than this one */
  before?: RunnableConfig;
  /** metadata keys that must match exactly */
  filter?: Record<string, unknown>;
}

export interface CheckpointSaver {
  /** The checkpoint named by `checkpoint_id`, or the newest of the thread/namespace. */
  getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined>;
  /** Newest first. */
  list(config: RunnableConfig, options?: ListOptions): AsyncIterable<CheckpointTuple>;
  /** Stores a checkpoint; returns the config that names it. `newVersions` = channels changed since the parent. */
  put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: Record<string, number>,
  ): Promise<RunnableConfig>;
  /** Stores writes of one task against the checkpoint named by `config`. */
  putWrites(config: RunnableConfig, writes: [channel: string, value: unknown][], taskId: string): Promise<void>;
  deleteThread(threadId: string): Promise<void>;
  // Held by the runtime for the whole of one run or updateState (docs/durability.md, "One run per thread").
  // With `wait` it resolves once the thread is free (or rejects when `signal` aborts). A process that dies
  // must release its locks. A saver without this method gets the runtime's in-process lock only: runs of
  // other processes are not excluded.
  /**
   * Optional: a lock on the thread that every process sharing this saver's storage respects; `undefined`
   * when the thread is busy and `wait` is false.
   */
  lockThread?(threadId: string, options: LockThreadOptions): Promise<ThreadLock | undefined>;
}

/**
 * @internal An optional fast path of a saver (graphc's StoredSaver has it): `put`/`putWrites` that return
 * `undefined` instead of a settled promise when the call completed synchronously (MemorySaver), so the
 * runtime's save queue has nothing to await and no promise or config is made per call. Errors still come back
 * as rejected promises, never as throws. The runtime uses these when present and `put`/`putWrites` otherwise.
 * Internal (not in the published declarations): the runtime's contract with its own savers.
 */
export interface SaverNow {
  putNow(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: Record<string, number>,
  ): Promise<unknown> | undefined;
  putWritesNow(
    config: RunnableConfig,
    writes: [channel: string, value: unknown][],
    taskId: string,
  ): Promise<unknown> | undefined;
}

export interface LockThreadOptions {
  /** true: wait until the thread is free (multitask "enqueue"); false: `undefined` at once if busy ("reject") */
  wait: boolean;
  signal?: AbortSignal | undefined;
}

/** A held thread lock (see `CheckpointSaver.lockThread`). */
export interface ThreadLock {
  /** Gives the thread up; called exactly once. */
  release(): Promise<void>;
}
