/**
 * Runs in Postgres: every decision about a thread's runs is one transaction holding the thread's row lock
 * (create with a multitask strategy, a worker's claim, the end of a run, a requeue, a cancel), so API
 * processes and workers never race; the partial unique index `graphc_runs_one_running` makes a second
 * running run per thread impossible whatever the code does.
 *
 * A thread's runs start in `seq` (creation) order. A claimed job whose run cannot start yet (another run
 * of the thread is running, or an older one is pending) is *parked*: its job is completed and the run
 * waits; the transaction in which the thread's current run leaves queues a job for the next parked run.
 */
import type pg from "pg";
import { inTransaction } from "@graphc/checkpoint-postgres";
import { ThreadBusy, type CancelAction, type Json, type RunRow, type RunStatus, type ThreadPatch, type ThreadStatus } from "../backend.ts";
import type { Names } from "./schema.ts";
import type { RunQueue } from "./queue.ts";
import { patchThread } from "./threads.ts";

const RUN_COLUMNS =
  "run_id, thread_id, assistant_id, owner, created_at, updated_at, status, metadata, multitask_strategy, kwargs, attempt, " +
  "started, checkpoint_before, cancel_action, result";

interface RunRecord {
  run_id: string;
  thread_id: string;
  assistant_id: string;
  owner: string | null;
  created_at: Date;
  updated_at: Date;
  status: RunStatus;
  metadata: Json;
  multitask_strategy: RunRow["multitask_strategy"];
  kwargs: RunRow["kwargs"];
  attempt: number;
  started: boolean;
  checkpoint_before: string | null;
  cancel_action: CancelAction | null;
  result: Json | null;
}

export function toRun(r: RunRecord): RunRow {
  const row: RunRow = {
    run_id: r.run_id,
    thread_id: r.thread_id,
    assistant_id: r.assistant_id,
    owner: r.owner,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
    status: r.status,
    metadata: r.metadata,
    multitask_strategy: r.multitask_strategy,
    kwargs: r.kwargs,
    attempt: r.attempt,
  };
  if (r.started) row.checkpoint_before = r.checkpoint_before;
  if (r.cancel_action !== null) row.cancel_action = r.cancel_action;
  if (r.result !== null) row.result = r.result;
  return row;
}

type Tx = pg.PoolClient;
const ACTIVE = "status IN ('pending', 'running')";

export class PostgresRuns {
  constructor(
    private readonly pool: pg.Pool,
    private readonly n: Names,
    private readonly queue: RunQueue,
  ) {}

  /**
   * Inserts the run, applying its multitask strategy to the thread's runs, in one transaction with its
   * job — or parked, with no job yet, when other runs of the thread are still active: the end of the last
   * of them queues its job (afterRun), so a busy thread's runs cost no claim until their turn.
   */
  async create(spec: RunRow): Promise<RunRow> {
    return inTransaction(this.pool, async (tx) => {
      const strategy = spec.multitask_strategy;
      let active = await this.lockActive(tx, spec.thread_id);
      if (active.length > 0 && strategy === "reject") throw new ThreadBusy(spec.thread_id);
      if ((strategy === "interrupt" || strategy === "rollback") && active.length > 0) {
        for (const r of active) await this.cancelIn(tx, r.run_id, r.status, strategy);
        active = await this.lockActive(tx, spec.thread_id);
      }
      const parked = active.length > 0;
      const inserted = await tx.query<RunRecord>(
        `WITH run AS (
           INSERT INTO ${this.n.runs} (run_id, thread_id, assistant_id, owner, created_at, updated_at, status, metadata,
             multitask_strategy, kwargs, parked)
           VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7, $8, $9, $10) RETURNING ${RUN_COLUMNS}
         ), thread AS (UPDATE ${this.n.threads} SET status = 'busy', updated_at = now() WHERE thread_id = $2)
         SELECT * FROM run`,
        [spec.run_id, spec.thread_id, spec.assistant_id, spec.owner, spec.created_at, spec.updated_at, spec.metadata, strategy, spec.kwargs, parked],
      );
      if (!parked) await this.enqueueIn(tx, spec.run_id);
      return toRun(inserted.rows[0]!);
    });
  }

  /** Locks the thread; its pending and running runs, oldest first. */
  private async lockActive(tx: Tx, threadId: string): Promise<{ run_id: string; status: RunStatus }[]> {
    const rows = await tx.query<{ run_id: string | null; status: RunStatus | null }>(
      `SELECT r.run_id, r.status FROM ${this.n.threads} t LEFT JOIN ${this.n.runs} r ON r.thread_id = t.thread_id AND r.${ACTIVE}
       WHERE t.thread_id = $1 ORDER BY r.seq FOR UPDATE OF t`,
      [threadId],
    );
    if (rows.rowCount === 0) throw new Error(`graphc server: thread ${threadId} not found`);
    return rows.rows.filter((r): r is { run_id: string; status: RunStatus } => r.run_id !== null);
  }

  /**
   * A worker's claim of the next job's run, in one transaction with the job's fetch: the run becomes
   * `running` on `workerId`, or, when its thread is busy or an older run of it waits, it is parked. The job
   * is completed either way. `"empty"`: no job; undefined: the job's run cannot run (parked, or stale).
   */
  async claimNext(workerId: string): Promise<RunRow | "empty" | undefined> {
    return inTransaction(this.pool, async (tx) => {
      const job = await this.queue.fetchIn(tx);
      if (job === undefined) return "empty";
      await this.queue.complete(tx, job.id);
      const runId = job.data.run_id;
      const run = await this.lockRun(tx, runId);
      if (run === undefined || run.status !== "pending") return undefined; // deleted, cancelled, or a stale job
      if (run.blocked) {
        await tx.query(`UPDATE ${this.n.runs} SET parked = true WHERE run_id = $1`, [runId]);
        return undefined;
      }
      const updated = await tx.query<RunRecord>(
        `WITH thread AS (UPDATE ${this.n.threads} SET status = 'busy', updated_at = now() WHERE thread_id = $3)
         UPDATE ${this.n.runs} SET status = 'running', worker_id = $2, attempt = attempt + 1, parked = false, updated_at = now()
         WHERE run_id = $1 RETURNING ${RUN_COLUMNS}`,
        [runId, workerId, run.thread_id],
      );
      return toRun(updated.rows[0]!);
    });
  }

  /** Records the checkpoint the run started from (its first attempt only). */
  async markStarted(runId: string, checkpointBefore: string | null): Promise<void> {
    await this.pool.query(`UPDATE ${this.n.runs} SET started = true, checkpoint_before = $2 WHERE run_id = $1 AND NOT started`, [
      runId,
      checkpointBefore,
    ]);
  }

  /**
   * Ends a run `workerId` still holds (false when it does not: requeued after its worker was taken for
   * dead, or deleted), running `before` in the same transaction (the run's last stream events), and
   * queues the thread's next parked run. A run interrupted by a `rollback` cancel is deleted.
   */
  async finish(
    runId: string,
    workerId: string,
    status: RunStatus,
    result: Json | undefined,
    thread: ThreadPatch,
    before: (tx: Tx) => Promise<void>,
  ): Promise<boolean> {
    return inTransaction(this.pool, async (tx) => {
      const run = await this.held(tx, runId, workerId);
      if (run === undefined) return false;
      await before(tx);
      const rollback = status === "interrupted" && run.cancel_action === "rollback";
      const next = await tx.query<{ run_id: string; status: RunStatus; parked: boolean }>(
        `WITH run AS (${
          rollback
            ? `DELETE FROM ${this.n.runs} WHERE run_id = $1`
            : `UPDATE ${this.n.runs} SET status = $3, result = $4, worker_id = NULL, updated_at = now() WHERE run_id = $1`
        })
         SELECT run_id, status, parked FROM ${this.n.runs} WHERE thread_id = $2 AND run_id <> $1 AND ${ACTIVE}
         ORDER BY status = 'running' DESC, seq LIMIT 1`,
        rollback ? [runId, run.thread_id] : [runId, run.thread_id, status, result === undefined ? null : JSON.stringify(result)],
      );
      await this.afterRun(tx, run.thread_id, thread, next.rows[0]);
      await this.notifyEvents(tx, runId);
      return true;
    });
  }

  /** Puts a run `workerId` holds back in the queue (its worker is shutting down): another worker continues it. */
  async requeue(runId: string, workerId: string): Promise<boolean> {
    return inTransaction(this.pool, async (tx) => {
      if ((await this.held(tx, runId, workerId)) === undefined) return false;
      await this.requeueIn(tx, runId);
      return true;
    });
  }

  /** Requeues every running run of dead workers (heartbeat.ts found them), inside the caller's transaction. */
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
   * woken by NOTIFY (or at its next heartbeat), stops it. False when the run is gone or has ended.
   */
  async cancel(threadId: string, runId: string, action: CancelAction): Promise<boolean> {
    return inTransaction(this.pool, async (tx) => {
      const run = await this.lockRun(tx, runId);
      if (run === undefined || run.thread_id !== threadId || (run.status !== "pending" && run.status !== "running")) return false;
      await this.cancelIn(tx, runId, run.status, action);
      return true;
    });
  }

  /** Cancel requests (interrupt) for every active run of a thread being deleted. */
  async cancelThread(tx: Tx, threadId: string): Promise<void> {
    const active = await tx.query<{ run_id: string }>(`SELECT run_id FROM ${this.n.runs} WHERE thread_id = $1 AND status = 'running'`, [threadId]);
    for (const r of active.rows) await this.notifyWorkers(tx, `cancel:${r.run_id}`);
  }

  async get(threadId: string, runId: string): Promise<RunRow | undefined> {
    const r = await this.pool.query<RunRecord>(`SELECT ${RUN_COLUMNS} FROM ${this.n.runs} WHERE run_id = $1 AND thread_id = $2`, [runId, threadId]);
    return r.rows[0] && toRun(r.rows[0]);
  }

  async list(threadId: string, query: { limit: number; offset: number; status?: RunStatus }): Promise<RunRow[]> {
    const args: unknown[] = [threadId, query.limit, query.offset];
    const status = query.status === undefined ? "" : ` AND status = $${args.push(query.status)}`;
    const rows = await this.pool.query<RunRecord>(
      `SELECT ${RUN_COLUMNS} FROM ${this.n.runs} WHERE thread_id = $1${status} ORDER BY seq DESC LIMIT $2 OFFSET $3`,
      args,
    );
    return rows.rows.map(toRun);
  }

  /** Deletes a run that is not active. */
  async delete(threadId: string, runId: string): Promise<boolean> {
    const r = await this.pool.query(`DELETE FROM ${this.n.runs} WHERE run_id = $1 AND thread_id = $2 AND NOT ${ACTIVE}`, [runId, threadId]);
    return r.rowCount === 1;
  }

  /** Cancel requests for runs `workerId` holds (its heartbeat's fallback for a missed NOTIFY). */
  async cancelsFor(workerId: string): Promise<{ run_id: string; cancel_action: CancelAction }[]> {
    const rows = await this.pool.query<{ run_id: string; cancel_action: CancelAction }>(
      `SELECT run_id, cancel_action FROM ${this.n.runs} WHERE worker_id = $1 AND status = 'running' AND cancel_action IS NOT NULL`,
      [workerId],
    );
    return rows.rows;
  }

  /**
   * The run with its thread locked (thread first, as every transaction here takes them), and whether an
   * older run of the thread is pending or another one running. Two statements: a row read in the
   * statement that waited for the lock would be the one from before the lock holder committed.
   */
  private async lockRun(tx: Tx, runId: string): Promise<(RunRecord & { worker_id: string | null; blocked: boolean }) | undefined> {
    const locked = await tx.query(
      `SELECT 1 FROM ${this.n.threads} WHERE thread_id = (SELECT thread_id FROM ${this.n.runs} WHERE run_id = $1) FOR UPDATE`,
      [runId],
    );
    if (locked.rowCount === 0) return undefined;
    const run = await tx.query<RunRecord & { worker_id: string | null; blocked: boolean }>(
      `SELECT ${RUN_COLUMNS}, worker_id, EXISTS (
         SELECT 1 FROM ${this.n.runs} o WHERE o.thread_id = r.thread_id AND o.run_id <> r.run_id
           AND (o.status = 'running' OR (o.status = 'pending' AND o.seq < r.seq))
       ) AS blocked
       FROM ${this.n.runs} r WHERE run_id = $1`,
      [runId],
    );
    return run.rows[0];
  }

  /** The run, locked with its thread, when `workerId` still holds it. */
  private async held(tx: Tx, runId: string, workerId: string): Promise<RunRecord | undefined> {
    const run = await this.lockRun(tx, runId);
    return run?.status === "running" && run.worker_id === workerId ? run : undefined;
  }

  private async lockThread(tx: Tx, threadId: string): Promise<void> {
    const found = await tx.query(`SELECT 1 FROM ${this.n.threads} WHERE thread_id = $1 FOR UPDATE`, [threadId]);
    if (found.rowCount === 0) throw new Error(`graphc server: thread ${threadId} not found`);
  }

  private async cancelIn(tx: Tx, runId: string, status: RunStatus, action: CancelAction): Promise<void> {
    if (status === "running") {
      await tx.query(`UPDATE ${this.n.runs} SET cancel_action = $2, updated_at = now() WHERE run_id = $1`, [runId, action]);
      await this.notifyWorkers(tx, `cancel:${runId}`);
      return;
    }
    const gone = await tx.query<{ thread_id: string }>(
      action === "rollback"
        ? `DELETE FROM ${this.n.runs} WHERE run_id = $1 RETURNING thread_id`
        : `UPDATE ${this.n.runs} SET status = 'interrupted', cancel_action = $2, updated_at = now() WHERE run_id = $1 RETURNING thread_id`,
      action === "rollback" ? [runId] : [runId, action],
    );
    await this.notifyEvents(tx, runId);
    const threadId = gone.rows[0]!.thread_id;
    await this.afterRun(tx, threadId, {}, await this.nextActive(tx, threadId));
  }

  private async requeueIn(tx: Tx, runId: string): Promise<void> {
    await tx.query(`UPDATE ${this.n.runs} SET status = 'pending', worker_id = NULL, parked = false, updated_at = now() WHERE run_id = $1`, [
      runId,
    ]);
    await this.enqueueIn(tx, runId);
  }

  /**
   * After a run left the thread: its status `busy` while others wait (else the patch's, or idle), the
   * rest of the patch applied, and a job for the next run when it is parked.
   */
  private async afterRun(
    tx: Tx,
    threadId: string,
    patch: ThreadPatch,
    next?: { run_id: string; status: RunStatus; parked: boolean } | undefined,
  ): Promise<void> {
    await patchThread(tx, this.n, threadId, { ...patch, status: next === undefined ? (patch.status ?? "idle") : "busy" });
    if (next?.status === "pending" && next.parked) {
      await tx.query(`UPDATE ${this.n.runs} SET parked = false WHERE run_id = $1`, [next.run_id]);
      await this.enqueueIn(tx, next.run_id);
    }
  }

  /** The run's job, and a wake-up for idle workers. */
  private async enqueueIn(tx: Tx, runId: string): Promise<void> {
    await this.queue.enqueue(tx, runId);
    await this.notifyWorkers(tx, "job");
  }

  /** The thread's first active run (running first, else the oldest pending one). */
  private async nextActive(tx: Tx, threadId: string): Promise<{ run_id: string; status: RunStatus; parked: boolean } | undefined> {
    const r = await tx.query<{ run_id: string; status: RunStatus; parked: boolean }>(
      `SELECT run_id, status, parked FROM ${this.n.runs} WHERE thread_id = $1 AND ${ACTIVE} ORDER BY status = 'running' DESC, seq LIMIT 1`,
      [threadId],
    );
    return r.rows[0];
  }

  private async notifyWorkers(tx: Tx, payload: string): Promise<void> {
    await tx.query("SELECT pg_notify($1, $2)", [this.n.workerChannel, payload]);
  }

  private async notifyEvents(tx: Tx, runId: string): Promise<void> {
    await tx.query("SELECT pg_notify($1, $2)", [this.n.eventChannel, runId]);
  }
}
