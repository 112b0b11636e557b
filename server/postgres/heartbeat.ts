/**
 * Worker liveness. A worker is a row of `graphc_workers` plus a session advisory lock held on its own
 * connection for as long as it lives. It is dead when
 *  - its lock is free: its session ended — the process exited or was SIGKILLed (the kernel closes the
 *    socket, Postgres ends the session), which is seen at the next reap, well under a second; or
 *  - its heartbeat is older than `ttlMs`: the process or its host hangs, or the network to it is cut
 *    while Postgres still thinks the session is open.
 * Every worker reaps (at start and after each heartbeat): a dead worker's running runs go back to
 * `pending` with a new job, and its row is deleted, in one transaction, under FOR UPDATE SKIP LOCKED so
 * two reapers never requeue a run twice. A worker that finds its own row gone was declared dead (a long
 * stall): it stops its runs, whose ends are refused anyway (runs.ts `held`).
 */
import { hostname } from "node:os";
import type pg from "pg";
import { inTransaction } from "@graphc/checkpoint-postgres";
import type { Names } from "./schema.ts";
import type { PostgresRuns } from "./runs.ts";
import type { CancelAction } from "../backend.ts";

export interface HeartbeatOptions {
  /** how often the heartbeat is written and dead workers are looked for; default 1000 ms */
  intervalMs?: number;
  /** a heartbeat older than this declares the worker dead; default 10 × intervalMs */
  ttlMs?: number;
}

export interface PresenceEvents {
  /** a NOTIFY on the worker channel: "job" (a run was queued) or "cancel:<run id>" */
  notified(payload: string): void;
  /** after each heartbeat: whether our row was still there, and the cancel requests for our runs */
  beat(alive: boolean, cancels: { run_id: string; cancel_action: CancelAction }[]): void;
}

/** The advisory-lock key of a worker (the 64-bit space, as the saver's thread locks, with another prefix). */
const LOCK_KEY = "hashtextextended('graphc-worker:' || $1, 0)";

export class WorkerPresence {
  private connection: pg.PoolClient | undefined;
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> = Promise.resolve();
  readonly intervalMs: number;
  private readonly ttlMs: number;

  constructor(
    private readonly pool: pg.Pool,
    private readonly n: Names,
    private readonly runs: PostgresRuns,
    readonly workerId: string,
    options: HeartbeatOptions,
    private readonly on: PresenceEvents,
  ) {
    this.intervalMs = options.intervalMs ?? 1000;
    this.ttlMs = options.ttlMs ?? 10 * this.intervalMs;
  }

  async start(): Promise<void> {
    const client = await this.pool.connect();
    // a broken lock connection means others will take us for dead: stop taking work (the worker exits)
    client.on("error", () => this.on.beat(false, []));
    client.on("notification", (m) => this.on.notified(m.payload ?? ""));
    await client.query(`SELECT pg_advisory_lock(${LOCK_KEY})`, [this.n.schema + ":" + this.workerId]);
    await client.query(`LISTEN "${this.n.workerChannel}"`);
    await client.query(`INSERT INTO ${this.n.workers} (worker_id, host, pid) VALUES ($1, $2, $3)`, [this.workerId, hostname(), process.pid]);
    this.connection = client;
    await this.reap();
    this.timer = setInterval(() => {
      this.beating = this.beating.then(() => this.beat()).catch(() => undefined);
    }, this.intervalMs);
  }

  private async beat(): Promise<void> {
    const client = this.connection;
    if (client === undefined) return;
    const row = await client.query(`UPDATE ${this.n.workers} SET heartbeat_at = now() WHERE worker_id = $1`, [this.workerId]);
    const cancels = await this.runs.cancelsFor(this.workerId);
    this.on.beat(row.rowCount === 1, cancels);
    await this.reap();
  }

  /** Requeues the runs of dead workers; returns the requeued run ids. */
  async reap(): Promise<string[]> {
    return inTransaction(this.pool, async (tx) => {
      const candidates = await tx.query<{ worker_id: string; stale: boolean }>(
        `SELECT worker_id, heartbeat_at < now() - $2 * interval '1 millisecond' AS stale FROM ${this.n.workers}
         WHERE worker_id <> $1 FOR UPDATE SKIP LOCKED`,
        [this.workerId, this.ttlMs],
      );
      const dead: string[] = [];
      for (const w of candidates.rows) {
        // a free lock is a dead session; held until this transaction ends, so the check cannot flip
        const free = await tx.query<{ ok: boolean }>(`SELECT pg_try_advisory_xact_lock(${LOCK_KEY}) AS ok`, [
          this.n.schema + ":" + w.worker_id,
        ]);
        if (w.stale || free.rows[0]?.ok === true) dead.push(w.worker_id);
      }
      // runs whose worker has no row at all (it left without requeueing them): theirs too
      const orphans = await tx.query<{ worker_id: string }>(
        `SELECT DISTINCT r.worker_id FROM ${this.n.runs} r WHERE r.status = 'running' AND r.worker_id IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM ${this.n.workers} w WHERE w.worker_id = r.worker_id)`,
      );
      dead.push(...orphans.rows.map((o) => o.worker_id));
      if (dead.length === 0) return [];
      const requeued = await this.runs.requeueOf(tx, dead);
      await tx.query(`DELETE FROM ${this.n.workers} WHERE worker_id = ANY($1)`, [dead]);
      return requeued;
    });
  }

  /** Leaves: runs still held are requeued and the row goes, then the lock with the connection. */
  async stop(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    await this.beating;
    const client = this.connection;
    this.connection = undefined;
    if (client === undefined) return;
    await client.query(`UNLISTEN "${this.n.workerChannel}"`).catch(() => undefined);
    // runs still held (the worker pool did not requeue them) go back to the queue with the row
    await inTransaction(this.pool, async (tx) => {
      await this.runs.requeueOf(tx, [this.workerId]);
      await tx.query(`DELETE FROM ${this.n.workers} WHERE worker_id = $1`, [this.workerId]);
    }).catch(() => undefined);
    await client.query(`SELECT pg_advisory_unlock(${LOCK_KEY})`, [this.n.schema + ":" + this.workerId]).catch(() => undefined);
    client.release();
  }
}
