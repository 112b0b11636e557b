/**
 * The storage and queue behind the server: what the HTTP API (api.ts) and the run worker (worker.ts) need,
 * and nothing about how it is kept. Two implementations: `SqliteBackend` (sqlite-backend.ts; the embedded
 * default: one process, a SQLite file, an in-process worker pool) and the Postgres one (pg-boss queue, API
 * processes and `graphc worker` processes; branch scaleout).
 *
 * Rules every implementation keeps (the API and the worker rely on them):
 * - **One active run per thread.** A run is `pending` until a worker claims it and `running` until it
 *   ends. `claimRun` never hands out a run of a thread that has a `running` run, and it hands out a
 *   thread's runs in the order `createRun` stored them, so "enqueue" runs execute in order.
 * - **Multitask strategy at creation.** `createRun` decides, atomically with the insert, what happens when
 *   the thread already has a pending or running run: `reject` → `ThreadBusy` thrown and nothing stored;
 *   `enqueue` → stored behind them; `interrupt` / `rollback` → stored, and every earlier pending/running
 *   run of the thread gets a cancel request with that action (pending ones are cancelled at once, running
 *   ones are signalled through `onCancel`).
 * - **Restart safety.** A run claimed by a worker that stops (process exit, crash, graceful shutdown) goes
 *   back to `pending` (`requeue`, or the implementation's own lease/heartbeat expiry) with its `attempt`
 *   kept; the next claim increments `attempt`. The worker then resumes it from its last checkpoint (it
 *   compares the thread's newest checkpoint with `RunRow.checkpoint_before`), so no finished superstep runs
 *   twice.
 * - **Owners.** Every thread and run has an `owner` (the identity the auth hook returned, `null` without
 *   auth). The backend stores and filters by it; the API decides who may see what (`owner` filters are
 *   exact matches, `undefined` = no filter).
 * - Times are ISO strings; ids are UUIDs chosen by the caller; every method may be called from any process
 *   sharing the storage (Postgres) — the SQLite backend serves one process.
 *
 * `createApi` (api.ts) and `WorkerPool` (worker.ts) work on any implementation; test/server/backend-contract.ts
 * holds these rules as tests an implementation runs (`backendContract(name, make, { reopen })`).
 */
import type { CheckpointSaver, Store } from "@graphc/runtime";

export type RunStatus = "pending" | "running" | "error" | "success" | "timeout" | "interrupted";
export type ThreadStatus = "idle" | "busy" | "interrupted" | "error";
export type MultitaskStrategy = "reject" | "interrupt" | "rollback" | "enqueue";
export type CancelAction = "interrupt" | "rollback";

/** JSON object as stored (metadata, values, kwargs) */
export type Json = Record<string, unknown>;

export interface ThreadRow {
  thread_id: string;
  owner: string | null;
  created_at: string;
  updated_at: string;
  metadata: Json;
  status: ThreadStatus;
  /** the thread's values after its last run or state update (a copy of the newest root checkpoint, for get/search) */
  values: Json | null;
  /** pending interrupts by task id, as the SDK's `Thread.interrupts` */
  interrupts: Record<string, unknown[]>;
}

/** What a run was asked to do: the parts of the SDK's run payload the worker needs. */
export interface RunKwargs {
  /** input of a fresh run; `null` with `command` or to continue from the thread's state */
  input: unknown;
  /** `{ resume?, update?, goto? }` (the SDK's `command`) */
  command: Json | null;
  /** the run's `config` (`configurable`, `recursion_limit`, `tags`); `configurable` values other than the ids become graph vars */
  config: Json;
  /** stream modes as the SDK names them (`values`, `updates`, `messages-tuple`, `custom`, `debug`, `tasks`, `checkpoints`) */
  stream_mode: string[];
  stream_subgraphs: boolean;
  interrupt_before: string[] | "*" | null;
  interrupt_after: string[] | "*" | null;
  /** replay/fork from this checkpoint of the thread */
  checkpoint_id: string | null;
}

export interface RunRow {
  run_id: string;
  thread_id: string;
  /** the assistant = the graph's name (one assistant per graph) */
  assistant_id: string;
  owner: string | null;
  created_at: string;
  updated_at: string;
  status: RunStatus;
  metadata: Json;
  multitask_strategy: MultitaskStrategy;
  kwargs: RunKwargs;
  /** how many times a worker claimed it (0 while never claimed) */
  attempt: number;
  /**
   * the thread's newest root checkpoint id when the run first started (null: none), set by `markStarted`;
   * `undefined` until then. Tells a resumed attempt whether the run already wrote checkpoints.
   */
  checkpoint_before?: string | null;
  /** set by a cancel request; the worker reads it when the run's signal fires */
  cancel_action?: CancelAction;
  /** the final values (success, interrupted) or `{ error, message }` (error), set by `finishRun` */
  result?: Json;
}

export interface ThreadSearch {
  owner?: string | null;
  /** every key must match exactly (JSON equality) */
  metadata?: Json;
  ids?: string[];
  status?: ThreadStatus;
  limit: number;
  offset: number;
  sort_by?: "thread_id" | "status" | "created_at" | "updated_at";
  sort_order?: "asc" | "desc";
}

export interface ThreadPatch {
  metadata?: Json;
  status?: ThreadStatus;
  values?: Json | null;
  interrupts?: Record<string, unknown[]>;
}

/** one SSE event of a run: `event` is `metadata`, a stream mode (`updates`, `updates|ns`, …), `error` or `end` */
export interface StreamEvent {
  /** position in the run's stream, 1-based, increasing; the SSE `id` (resume with Last-Event-ID) */
  seq: number;
  event: string;
  data: unknown;
}

/** Thrown by `createRun` with strategy `reject` (HTTP 409). */
export class ThreadBusy extends Error {
  constructor(readonly threadId: string) {
    super(`Thread ${threadId} is already running a task. Wait for it to finish or choose a different multitask strategy.`);
    this.name = "ThreadBusy";
  }
}

export interface Backend {
  /** the checkpointer every graph of the server runs with (one for all threads) */
  readonly saver: CheckpointSaver;
  /** the long-term store handed to the graphs (`ctx.store`) */
  readonly store?: Store | undefined;

  // ---- threads ----
  /** Inserts a thread; resolves to the existing row instead when the id is taken (the API applies `if_exists`). */
  createThread(row: ThreadRow): Promise<{ row: ThreadRow; created: boolean }>;
  getThread(threadId: string): Promise<ThreadRow | undefined>;
  searchThreads(query: ThreadSearch): Promise<ThreadRow[]>;
  /** Applies the patch (metadata is merged key by key, other fields replaced) and bumps `updated_at`. */
  updateThread(threadId: string, patch: ThreadPatch): Promise<ThreadRow | undefined>;
  /** Deletes the thread, its runs, its stream events and its checkpoints (`saver.deleteThread`); cancels its active runs. */
  deleteThread(threadId: string): Promise<boolean>;

  // ---- runs ----
  /**
   * Stores a `pending` run and queues it, applying `row.multitask_strategy` against the thread's active
   * runs (see the rules above; `reject` throws `ThreadBusy`). Also sets the thread `busy`. Resolves to the
   * stored row.
   */
  createRun(row: RunRow): Promise<RunRow>;
  getRun(threadId: string, runId: string): Promise<RunRow | undefined>;
  /** newest first */
  listRuns(threadId: string, query: { limit: number; offset: number; status?: RunStatus }): Promise<RunRow[]>;
  /** Deletes a run that is not active (the API answers 409 for an active one). */
  deleteRun(threadId: string, runId: string): Promise<boolean>;
  /**
   * Asks for a run to stop: a pending run is marked `interrupted` at once (and, with `rollback`,
   * deleted); a running one gets `cancel_action` set and its worker's `onCancel` callbacks fire, in any
   * process. Resolves false when the run does not exist or has already ended.
   */
  cancelRun(threadId: string, runId: string, action: CancelAction): Promise<boolean>;
  /** Resolves once the run is no longer pending or running (or is gone); to its last row, or undefined if deleted. */
  waitForRun(threadId: string, runId: string, signal?: AbortSignal): Promise<RunRow | undefined>;

  // ---- the queue (worker side) ----
  /**
   * Claims the next runnable run (pending, oldest first, of a thread with no running run): marks it
   * `running`, increments `attempt`, and resolves to it. Waits until there is one or `signal` aborts
   * (then resolves undefined).
   */
  claimRun(signal: AbortSignal): Promise<RunRow | undefined>;
  /** Records the thread's newest root checkpoint id before the run's first superstep (first attempt only). */
  markStarted(runId: string, checkpointBefore: string | null): Promise<void>;
  /** Proof of life of a claimed run (the Postgres backend requeues runs whose heartbeat stops). */
  heartbeat(runId: string): Promise<void>;
  /**
   * Ends a claimed run: stores status and result, sets the thread's status/values/interrupts from `thread`
   * and lets the thread's next run be claimed. With status `interrupted` and `cancel_action: "rollback"`
   * the run row is deleted instead (the worker has already restored the thread's checkpoint).
   */
  finishRun(runId: string, status: RunStatus, result: Json | undefined, thread: ThreadPatch): Promise<void>;
  /** Gives a claimed run back (graceful shutdown): `pending` again, claimable by any worker. */
  requeue(runId: string): Promise<void>;
  /** Calls `listener(action)` when a cancel is requested for this run (from any process); returns the unsubscribe. */
  onCancel(runId: string, listener: (action: CancelAction) => void): () => void;

  // ---- stream events ----
  /** Appends an event to the run's stream (assigning `seq`) and delivers it to the subscribers. */
  publish(runId: string, event: Omit<StreamEvent, "seq">): Promise<void>;
  /**
   * Delivers the run's events with `seq > after` (0 = from the start): those already published, then new
   * ones as they come, until the `end` event (delivered too) or `signal` aborts. Events are kept at least
   * until the run has ended and no subscriber is left; a subscriber that comes later than that gets only
   * `end`.
   */
  subscribe(runId: string, after: number, signal: AbortSignal): AsyncIterable<StreamEvent>;

  /** Stops the backend (workers must have stopped or requeued first). */
  close(): Promise<void>;
}
