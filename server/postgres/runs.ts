/**
 * Runs in Postgres: every decision about a thread's runs is one transaction holding the thread's row lock
 * (create with a multitask strategy, a worker's claim, the end of a run, a requeue), so API processes and
 * workers never race; the partial unique index `graphc_runs_one_running` makes a second running run per
 * thread impossible whatever the code does.
 *
 * A thread's runs start in `seq` order. A claimed job whose run cannot start yet (another run of the thread
 * is running, or an older one is pending) is *parked*: its job is completed and the run waits; the
 * transaction that ends the thread's current run queues a new job for the next parked run.
 */
import { randomUUID } from "node:crypto";
import type pg from "pg";
import { inTransaction } from "@graphc/checkpoint-postgres";
import type { Names } from "./schema.ts";
import type { RunQueue } from "./queue.ts";

export type MultitaskStrategy = "reject" | "enqueue" | "interrupt" | "rollback";
export type RunStatus = "pending" | "running" | "success" | "error" | "timeout" | "interrupted";
export type ThreadStatus = "idle" | "busy" | "interrupted" | "error";
export type CancelAction = "interrupt" | "rollback";

export interface RunRow {
  run_id: string;
  thread_id: string;
  assistant_id: string;
  status: RunStatus;
  multitask_strategy: MultitaskStrategy;
  kwargs: Record<string, unknown>;
  metadata: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
  attempt: number;
  worker_id: string | null;
  cancel: CancelAction | null;
}

const RUN_COLUMNS =
  "run_id, thread_id, assistant_id, status, multitask_strategy, kwargs, metadata, created_at, updated_at, attempt, worker_id, cancel";

/** A second run on a busy thread with multitask `reject` (HTTP 409, as LangGraph Server answers). */
export class ThreadBusyConflict extends Error {
  readonly status = 409;
  constructor(readonly threadId: string) {
    super(`Thread ${threadId} is already running a task. Wait for it to finish or choose a different multitask strategy.`);
    this.name = "ThreadBusyConflict";
  }
}

export class ThreadNotFound extends Error {
  readonly status = 404;
  constructor(readonly threadId: string) {
    super(`Thread ${threadId} not found`);
    this.name = "ThreadNotFound";
  }
}

export interface NewRun {
  thread_id: string;
  assistant_id: string;
  kwargs: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  multitask_strategy?: MultitaskStrategy;
  /** "create" makes the thread when missing (LangGraph's `if_not_exists`); default "reject": 404 */
  if_not_exists?: "create" | "reject";
  run_id?: string;
}

/** A run a worker now holds: `resume` says to continue from the thread's last checkpoint, not the input. */
export interface ClaimedRun {
  run: RunRow;
  resume: boolean;
  /** seq of the next stream event (events of an earlier attempt are kept) */
  nextEvent: number;
}

export interface RunEnd {
  status: Exclude<RunStatus, "pending" | "running">;
  thread_status: ThreadStatus;
  error?: unknown;
}

type Tx = pg.PoolClient;

export class PostgresRuns {
  constructor(
    private readonly pool: pg.Pool,
    private readonly n: Names,
    private readonly queue: RunQueue,
  ) {}

  /** Inserts the run and its job in one transaction; applies the multitask strategy to the thread's runs. */
  async create(spec: NewRun): Promise<RunRow> {
    const strategy = spec.multitask_strategy ?? "reject";
    return inTransaction(this.pool, async (tx) => {
      if (spec.if_not_exists === "create") {
        await tx.query(`INSERT INTO ${this.n.threads} (thread_id) VALUES ($1) ON CONFLICT DO NOTHING`, [spec.thread_id]);
      }
      await this.lockThread(tx, spec.thread_id);
      const inflight = (
        await tx.query<{ run_id: string; status: RunStatus }>(
          `SELECT run_id, status FROM ${this.n.runs} WHERE thread_id = $1 AND status IN ('pending', 'running') ORDER BY seq`,
          [spec.thread_id],
        )
      ).rows;
      if (inflight.length > 0 && strategy === "reject") throw new ThreadBusyConflict(spec.thread_id);
      if (strategy === "interrupt" || strategy === "rollback") {
        for (const r of inflight) await this.cancelIn(tx, r.run_id, r.status, strategy);
      }
      const inserted = await tx.query<RunRow>(
        `INSERT INTO ${this.n.runs} (run_id, thread_id, assistant_id, status, multitask_strategy, kwargs, metadata)
         VALUES ($1, $2, $3, 'pending', $4, $5, $6) RETURNING ${RUN_COLUMNS}`,
        [spec.run_id ?? randomUUID(), spec.thread_id, spec.assistant_id, strategy, spec.kwargs, spec.metadata ?? {}],
      );
      const row = inserted.rows[0]!;
      await tx.query(`UPDATE ${this.n.threads} SET status = 'busy', updated_at = now() WHERE thread_id = $1`, [spec.thread_id]);
      await this.queue.enqueue(tx, row.run_id);
      await this.notifyWorkers(tx, "job");
      return row;
    });
  }

  /**
   * A worker's claim of the run a job names: the run becomes `running` on `workerId`, or, when the thread
   * is busy or an older run of it waits, it is parked. The job is completed either way.
   */
  async claim(jobId: string, runId: string, workerId: string): Promise<ClaimedRun | undefined> {
    return inTransaction(this.pool, async (tx) => {
      await this.queue.complete(tx, jobId);
      const thread = (await tx.query<{ thread_id: string }>(`SELECT thread_id FROM ${this.n.runs} WHERE run_id = $1`, [runId])).rows[0];
      if (thread === undefined) return undefined; // deleted (rollback, thread deleted)
      await this.lockThread(tx, thread.thread_id);
      const run = (
        await tx.query<RunRow & { seq: string; before_checkpoint: string | null; started: boolean }>(
          `SELECT ${RUN_COLUMNS}, seq, before_checkpoint, started FROM ${this.n.runs} WHERE run_id = $1`,
          [runId],
        )
      ).rows[0];
      if (run === undefined || run.status !== "pending") return undefined; // cancelled, or a stale job
      const ahead = await tx.query(
        `SELECT 1 FROM ${this.n.runs} WHERE thread_id = $1 AND (status = 'running' OR (status = 'pending' AND seq < $2)) LIMIT 1`,
        [run.thread_id, run.seq],
      );
      if (ahead.rowCount !== 0) {
        await tx.query(`UPDATE ${this.n.runs} SET parked = true WHERE run_id = $1`, [runId]);
        return undefined;
      }
      const latest = await this.latestCheckpoint(tx, run.thread_id);
      // resume only when an earlier attempt saved something past the checkpoint the run started from
      const resume = run.started && latest !== run.before_checkpoint;
      const updated = await tx.query<RunRow>(
        `UPDATE ${this.n.runs} SET status = 'running', worker_id = $2, attempt = attempt + 1, parked = false,
           started = true, before_checkpoint = CASE WHEN started THEN before_checkpoint ELSE $3 END, updated_at = now()
         WHERE run_id = $1 RETURNING ${RUN_COLUMNS}`,
        [runId, workerId, latest],
      );
      await tx.query(`UPDATE ${this.n.threads} SET status = 'busy', updated_at = now() WHERE thread_id = $1`, [run.thread_id]);
      const next = await tx.query<{ n: number }>(`SELECT COALESCE(MAX(seq) + 1, 0)::int AS n FROM ${this.n.events} WHERE run_id = $1`, [runId]);
      return { run: updated.rows[0]!, resume, nextEvent: next.rows[0]!.n };
    });
  }

  /**
   * Ends a run its worker still holds (false when it does not: requeued after a missed heartbeat, or
   * deleted), writing its last events in the same transaction, and queues the thread's next parked run.
   * A run cancelled with `rollback` is deleted, with the checkpoints it wrote.
   */
  async finish(runId: string, workerId: string, end: RunEnd, lastEvents: (tx: Tx) => Promise<void>): Promise<boolean> {
    return inTransaction(this.pool, async (tx) => {
      const run = await this.held(tx, runId, workerId);
      if (run === undefined) return false;
      await lastEvents(tx);
      if (run.cancel === "rollback") {
        await this.rollback(tx, run);
      } else {
        await tx.query(
          `UPDATE ${this.n.runs} SET status = $2, error = $3, worker_id = NULL, cancel = NULL, updated_at = now() WHERE run_id = $1`,
          [runId, end.status, end.error === undefined ? null : JSON.stringify(end.error)],
        );
      }
      await this.afterRun(tx, run.thread_id, end.thread_status);
      return true;
    });
  }

  /** Puts a held run back in the queue (worker shutting down): another worker continues it. */
  async requeue(runId: string, workerId: string): Promise<boolean> {
    return inTransaction(this.pool, async (tx) => {
      const run = await this.held(tx, runId, workerId);
      if (run === undefined) return false;
      await this.requeueIn(tx, runId);
      return true;
    });
  }

  /** Requeues every run of dead workers (heartbeat.ts found them), inside the caller's transaction. */
  async requeueOf(tx: Tx, workerIds: readonly string[]): Promise<string[]> {
    const runs = await tx.query<{ run_id: string; thread_id: string }>(
      `SELECT run_id, thread_id FROM ${this.n.runs} WHERE worker_id = ANY($1) AND status = 'running' ORDER BY thread_id`,
      [workerIds],
    );
    for (const r of runs.rows) {
      await this.lockThread(tx, r.thread_id);
      await this.requeueIn(tx, r.run_id);
    }
    return runs.rows.map((r) => r.run_id);
  }

  /**
   * Cancels a run from any process: a pending one at once; a running one is marked, and its worker,
   * woken by NOTIFY (or at its next heartbeat), aborts it and ends it as interrupted (or deletes it).
   */
  async cancel(runId: string, action: CancelAction): Promise<RunRow | undefined> {
    return inTransaction(this.pool, async (tx) => {
      const thread = (await tx.query<{ thread_id: string }>(`SELECT thread_id FROM ${this.n.runs} WHERE run_id = $1`, [runId])).rows[0];
      if (thread === undefined) return undefined;
      await this.lockThread(tx, thread.thread_id);
      const run = await this.getIn(tx, runId);
      if (run === undefined) return undefined;
      if (run.status === "pending" || run.status === "running") await this.cancelIn(tx, runId, run.status, action);
      return (await this.getIn(tx, runId)) ?? run;
    });
  }

  async get(runId: string): Promise<RunRow | undefined> {
    return this.getIn(this.pool, runId);
  }

  async list(threadId: string, options: { limit?: number; offset?: number; status?: RunStatus } = {}): Promise<RunRow[]> {
    const args: unknown[] = [threadId, options.limit ?? 10, options.offset ?? 0];
    const status = options.status === undefined ? "" : ` AND status = $${args.push(options.status)}`;
    const rows = await this.pool.query<RunRow>(
      `SELECT ${RUN_COLUMNS} FROM ${this.n.runs} WHERE thread_id = $1${status} ORDER BY seq DESC LIMIT $2 OFFSET $3`,
      args,
    );
    return rows.rows;
  }

  /** Cancel requests for runs `workerId` holds (its heartbeat's fallback for a missed NOTIFY). */
  async cancelsFor(workerId: string): Promise<{ run_id: string; cancel: CancelAction }[]> {
    const rows = await this.pool.query<{ run_id: string; cancel: CancelAction }>(
      `SELECT run_id, cancel FROM ${this.n.runs} WHERE worker_id = $1 AND status = 'running' AND cancel IS NOT NULL`,
      [workerId],
    );
    return rows.rows;
  }

  private async getIn(on: pg.Pool | Tx, runId: string): Promise<RunRow | undefined> {
    return (await on.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM ${this.n.runs} WHERE run_id = $1`, [runId])).rows[0];
  }

  /** The run, locked with its thread, when `workerId` still holds it. */
  private async held(tx: Tx, runId: string, workerId: string): Promise<(RunRow & { before_checkpoint: string | null }) | undefined> {
    const thread = (await tx.query<{ thread_id: string }>(`SELECT thread_id FROM ${this.n.runs} WHERE run_id = $1`, [runId])).rows[0];
    if (thread === undefined) return undefined;
    await this.lockThread(tx, thread.thread_id);
    const run = (
      await tx.query<RunRow & { before_checkpoint: string | null }>(
        `SELECT ${RUN_COLUMNS}, before_checkpoint FROM ${this.n.runs} WHERE run_id = $1 AND status = 'running' AND worker_id = $2`,
        [runId, workerId],
      )
    ).rows[0];
    return run;
  }

  private async lockThread(tx: Tx, threadId: string): Promise<void> {
    const found = await tx.query(`SELECT 1 FROM ${this.n.threads} WHERE thread_id = $1 FOR UPDATE`, [threadId]);
    if (found.rowCount === 0) throw new ThreadNotFound(threadId);
  }

  private async cancelIn(tx: Tx, runId: string, status: RunStatus, action: CancelAction): Promise<void> {
    if (status === "running") {
      await tx.query(`UPDATE ${this.n.runs} SET cancel = $2, updated_at = now() WHERE run_id = $1`, [runId, action]);
      await this.notifyWorkers(tx, `cancel:${runId}`);
      return;
    }
    const gone = await tx.query<{ thread_id: string }>(
      action === "rollback"
        ? `DELETE FROM ${this.n.runs} WHERE run_id = $1 RETURNING thread_id`
        : `UPDATE ${this.n.runs} SET status = 'interrupted', updated_at = now() WHERE run_id = $1 RETURNING thread_id`,
      [runId],
    );
    await this.notifyEvents(tx, runId);
    await this.afterRun(tx, gone.rows[0]!.thread_id, "idle");
  }

  private async requeueIn(tx: Tx, runId: string): Promise<void> {
    await tx.query(
      `UPDATE ${this.n.runs} SET status = 'pending', worker_id = NULL, parked = false, updated_at = now() WHERE run_id = $1`,
      [runId],
    );
    await this.queue.enqueue(tx, runId);
    await this.notifyWorkers(tx, "job");
  }

  /** The thread's status after a run left it (`status` unless others wait), and a job for its next parked run. */
  private async afterRun(tx: Tx, threadId: string, status: ThreadStatus): Promise<void> {
    const next = (
      await tx.query<{ run_id: string; status: RunStatus; parked: boolean }>(
        `SELECT run_id, status, parked FROM ${this.n.runs} WHERE thread_id = $1 AND status IN ('pending', 'running')
         ORDER BY status = 'running' DESC, seq LIMIT 1`,
        [threadId],
      )
    ).rows[0];
    await tx.query(`UPDATE ${this.n.threads} SET status = $2, updated_at = now() WHERE thread_id = $1`, [
      threadId,
      next === undefined ? status : "busy",
    ]);
    if (next?.status === "pending" && next.parked) {
      await tx.query(`UPDATE ${this.n.runs} SET parked = false WHERE run_id = $1`, [next.run_id]);
      await this.queue.enqueue(tx, next.run_id);
      await this.notifyWorkers(tx, "job");
    }
  }

  /** Deletes the run and the checkpoints saved after the one it started from (LangGraph's `rollback`). */
  private async rollback(tx: Tx, run: { run_id: string; thread_id: string; before_checkpoint: string | null }): Promise<void> {
    const after = run.before_checkpoint ?? "";
    for (const table of this.n.checkpointTables) {
      await tx.query(`DELETE FROM ${table} WHERE thread_id = $1 AND checkpoint_id > $2`, [run.thread_id, after]);
    }
    await tx.query(`DELETE FROM ${this.n.runs} WHERE run_id = $1`, [run.run_id]);
    await this.notifyEvents(tx, run.run_id);
  }

  private async latestCheckpoint(tx: Tx, threadId: string): Promise<string | null> {
    const row = await tx.query<{ checkpoint_id: string }>(
      `SELECT checkpoint_id FROM ${this.n.checkpoints} WHERE thread_id = $1 AND checkpoint_ns = '' ORDER BY checkpoint_id DESC LIMIT 1`,
      [threadId],
    );
    return row.rows[0]?.checkpoint_id ?? null;
  }

  private async notifyWorkers(tx: Tx, payload: string): Promise<void> {
    await tx.query("SELECT pg_notify($1, $2)", [this.n.workerChannel, payload]);
  }

  private async notifyEvents(tx: Tx, runId: string): Promise<void> {
    await tx.query("SELECT pg_notify($1, $2)", [this.n.eventChannel, runId]);
  }
}
