/**
 * The Postgres backend (docs/server.md, "Scale-out on Postgres"): any number of API processes
 * (`graphc serve --postgres URL`) and worker processes (`graphc worker --postgres URL`) share one
 * database. Threads and runs are tables (threads.ts, runs.ts), runs are queued with pg-boss in the same
 * transaction as their row (queue.ts), stream events are a table tailed through LISTEN/NOTIFY
 * (events.ts), workers prove they live with a lock and a heartbeat and the runs of dead ones are requeued
 * (heartbeat.ts); checkpoints are a PostgresSaver's, in the same schema.
 *
 *   const backend = await PostgresBackend.open(url, { schema: "graphc" });
 *
 * A process becomes a worker the first time it calls `claimRun`; one that never does (an API process)
 * holds two connections beyond its pool's: none for the queue, one to listen for events once it streams.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import { PostgresSaver, PostgresStore } from "@graphc/checkpoint-postgres";
import { inTransaction } from "@graphc/checkpoint-postgres";
import type {
  Backend,
  CancelAction,
  Json,
  RunRow,
  RunStatus,
  StreamEvent,
  ThreadPatch,
  ThreadRow,
  ThreadSearch,
} from "../backend.ts";
import { EventTail, EventWriter } from "./events.ts";
import { WorkerPresence, type HeartbeatOptions } from "./heartbeat.ts";
import { RunQueue } from "./queue.ts";
import { PostgresRuns } from "./runs.ts";
import { createTables, names, type Names } from "./schema.ts";
import { PostgresThreads } from "./threads.ts";

export interface PostgresBackendOptions {
  /** schema of every table (the queue's is `<schema>_queue`); default "graphc" */
  schema?: string;
  /** connections of this process's pool; default 10 */
  poolSize?: number;
  heartbeat?: HeartbeatOptions;
  /** how long a worker waits for a job before it looks again without a notification; default 2000 ms */
  pollMs?: number;
}

export class PostgresBackend implements Backend {
  readonly saver: PostgresSaver;
  readonly store: PostgresStore;
  readonly workerId = randomUUID();
  private readonly threads: PostgresThreads;
  private readonly runs: PostgresRuns;
  private readonly tail: EventTail;
  private readonly writers = new Map<string, EventWriter>();
  private readonly cancelListeners = new Map<string, Set<(action: CancelAction) => void>>();
  /** cancel requests already delivered, so a NOTIFY and a heartbeat do not deliver one twice */
  private readonly cancelled = new Map<string, CancelAction>();
  /** runs whose `end` finishRun wrote; the worker's own `end` for them is not written twice */
  private readonly ended = new Set<string>();
  private presence: Promise<WorkerPresence> | undefined;
  private tailing: Promise<void> | undefined;
  private wakeClaims = new Set<() => void>();
  private readonly pollMs: number;

  private constructor(
    readonly pool: pg.Pool,
    readonly n: Names,
    private readonly queue: RunQueue,
    private readonly options: PostgresBackendOptions,
  ) {
    this.saver = new PostgresSaver(pool, { schema: n.schema });
    this.store = new PostgresStore(pool, { schema: n.schema });
    this.threads = new PostgresThreads(pool, n);
    this.runs = new PostgresRuns(pool, n, queue);
    this.tail = new EventTail(pool, n);
    this.pollMs = options.pollMs ?? 2000;
  }

  /** Connects, creates the tables and the queue when missing (safe from many processes at once). */
  static async open(url: string, options: PostgresBackendOptions = {}): Promise<PostgresBackend> {
    const n = names(options.schema ?? "graphc");
    const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10 });
    // an idle client's error (the server restarted) must not kill the process: the next query reconnects
    pool.on("error", () => undefined);
    try {
      await createTables(pool, n);
      const queue = new RunQueue(pool, n, true);
      await queue.start();
      const backend = new PostgresBackend(pool, n, queue, options);
      await backend.saver.setup();
      return backend;
    } catch (e) {
      await pool.end();
      throw e;
    }
  }

  // ---- threads ----

  createThread(row: ThreadRow): Promise<{ row: ThreadRow; created: boolean }> {
    return this.threads.create(row);
  }

  getThread(threadId: string): Promise<ThreadRow | undefined> {
    return this.threads.get(threadId);
  }

  searchThreads(query: ThreadSearch): Promise<ThreadRow[]> {
    return this.threads.search(query);
  }

  updateThread(threadId: string, patch: ThreadPatch): Promise<ThreadRow | undefined> {
    return this.threads.update(threadId, patch);
  }

  async deleteThread(threadId: string): Promise<boolean> {
    const deleted = await inTransaction(this.pool, async (tx) => {
      await this.runs.cancelThread(tx, threadId);
      return this.threads.delete(tx, threadId);
    });
    if (deleted) await this.saver.deleteThread(threadId);
    return deleted;
  }

  // ---- runs ----

  createRun(row: RunRow): Promise<RunRow> {
    return this.runs.create(row);
  }

  getRun(threadId: string, runId: string): Promise<RunRow | undefined> {
    return this.runs.get(threadId, runId);
  }

  listRuns(threadId: string, query: { limit: number; offset: number; status?: RunStatus }): Promise<RunRow[]> {
    return this.runs.list(threadId, query);
  }

  deleteRun(threadId: string, runId: string): Promise<boolean> {
    return this.runs.delete(threadId, runId);
  }

  cancelRun(threadId: string, runId: string, action: CancelAction): Promise<boolean> {
    return this.runs.cancel(threadId, runId, action);
  }

  async waitForRun(threadId: string, runId: string, signal?: AbortSignal): Promise<RunRow | undefined> {
    await this.startTail();
    await this.tail.done(runId, signal);
    return this.runs.get(threadId, runId);
  }

  // ---- the queue (worker side) ----

  async claimRun(signal: AbortSignal): Promise<RunRow | undefined> {
    await this.startWorker();
    while (!signal.aborted) {
      const run = await this.runs.claimNext(this.workerId);
      if (run !== "empty") {
        // there may be more: let one more idle slot of this process look (one per job, not all of them)
        this.wakeOne();
        if (run !== undefined) return run;
        continue; // parked or stale: the next job
      }
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          signal.removeEventListener("abort", wake);
          this.wakeClaims.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, this.pollMs);
        signal.addEventListener("abort", wake);
        this.wakeClaims.add(wake);
      });
    }
    return undefined;
  }

  /** Wakes one idle claimer: a queued job wakes one slot per process, not every slot (a herd of empty fetches). */
  private wakeOne(): void {
    const [first] = this.wakeClaims;
    first?.();
  }

  markStarted(runId: string, checkpointBefore: string | null): Promise<void> {
    return this.runs.markStarted(runId, checkpointBefore);
  }

  /** Nothing per run: the worker process's presence (heartbeat.ts) stands for all the runs it holds. */
  async heartbeat(_runId: string): Promise<void> {}

  /**
   * Writes the run's `end` event in the same transaction as its final status, so a subscriber never sees
   * one without the other; the worker's own `end`, published next, is then dropped (`ended`).
   */
  async finishRun(runId: string, status: RunStatus, result: Json | undefined, thread: ThreadPatch): Promise<void> {
    const writer = this.writers.get(runId) ?? new EventWriter(this.pool, this.n, runId);
    this.writers.delete(runId);
    const endAlready = writer.ended;
    // false, writing nothing, when this worker no longer holds the run: requeued elsewhere, or deleted
    await this.runs.finish(runId, this.workerId, status, result, thread, (tx) => writer.close(tx, { event: "end", data: null }));
    // the worker's own `end` comes next and is dropped either way: written above, or the run is another
    // worker's now, whose stream it must not cut
    if (!endAlready) this.ended.add(runId);
    this.cancelled.delete(runId);
  }

  async requeue(runId: string): Promise<void> {
    const writer = this.writers.get(runId);
    this.writers.delete(runId);
    await writer?.drain().catch(() => undefined); // events lost with a broken connection are only stream chunks
    await this.runs.requeue(runId, this.workerId);
    this.cancelled.delete(runId);
  }

  onCancel(runId: string, listener: (action: CancelAction) => void): () => void {
    let set = this.cancelListeners.get(runId);
    if (set === undefined) this.cancelListeners.set(runId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.cancelListeners.delete(runId);
    };
  }

  // ---- stream events ----

  publish(runId: string, event: Omit<StreamEvent, "seq">): Promise<void> {
    if (event.event === "end" && this.ended.delete(runId)) return Promise.resolve();
    let writer = this.writers.get(runId);
    if (writer === undefined) this.writers.set(runId, (writer = new EventWriter(this.pool, this.n, runId)));
    return writer.emit(event.event, event.data);
  }

  async *subscribe(runId: string, after: number, signal: AbortSignal): AsyncIterable<StreamEvent> {
    await this.startTail();
    let last = after;
    let ended = false;
    for await (const e of this.tail.follow(runId, after, signal, () => (ended = true))) {
      last = e.seq;
      yield { seq: e.seq, event: e.event, data: JSON.parse(e.data) as unknown };
      if (e.event === "end") return;
    }
    // the run ended without an `end` of its own (cancelled while pending, deleted): its subscribers still get one
    if (ended) yield { seq: last + 1, event: "end", data: null };
  }

  async close(): Promise<void> {
    const presence = this.presence;
    this.presence = undefined;
    if (presence !== undefined) await (await presence).stop();
    for (const wake of [...this.wakeClaims]) wake();
    await this.tail.stop();
    await this.queue.stop();
    await this.pool.end();
  }

  /** Reaps dead workers now (tests and `graphc worker` at start; workers also do it on every heartbeat). */
  async reap(): Promise<string[]> {
    return (await this.startWorker()).reap();
  }

  private startTail(): Promise<void> {
    this.tailing ??= this.tail.start();
    return this.tailing;
  }

  private startWorker(): Promise<WorkerPresence> {
    this.presence ??= (async () => {
      const presence = new WorkerPresence(this.pool, this.n, this.runs, this.workerId, this.options.heartbeat ?? {}, {
        notified: (payload) => this.onWorkerNotice(payload),
        beat: (alive, cancels) => {
          for (const c of cancels) this.deliverCancel(c.run_id, c.cancel_action);
          // taken for dead (a stall longer than the heartbeat ttl): our runs were requeued; stop them
          if (!alive) for (const runId of this.cancelListeners.keys()) this.deliverCancel(runId, "interrupt");
        },
      });
      await presence.start();
      return presence;
    })();
    return this.presence;
  }

  private onWorkerNotice(payload: string): void {
    if (payload === "job") {
      this.wakeOne();
    } else if (payload.startsWith("cancel:")) {
      const runId = payload.slice("cancel:".length);
      if (!this.cancelListeners.has(runId)) return;
      void this.pool
        .query<{ cancel_action: CancelAction | null }>(`SELECT cancel_action FROM ${this.n.runs} WHERE run_id = $1`, [runId])
        .then((r) => {
          const action = r.rows[0]?.cancel_action ?? "interrupt"; // no row: the thread was deleted
          this.deliverCancel(runId, action);
        })
        .catch(() => undefined); // the heartbeat's look at cancel requests delivers it
    }
  }

  private deliverCancel(runId: string, action: CancelAction): void {
    if (this.cancelled.get(runId) === action) return;
    this.cancelled.set(runId, action);
    for (const listener of this.cancelListeners.get(runId) ?? []) listener(action);
  }
}
