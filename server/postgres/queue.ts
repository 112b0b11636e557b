/**
 * The run queue: pg-boss on the server's own pool, so a job can be inserted, fetched or completed inside a
 * transaction of ours (pg-boss's `db` option: a job and the run row it points at commit together or not at
 * all).
 *
 * A job means "run (or continue) run X now". It is fetched and completed in the worker's claim transaction,
 * the moment the run row becomes `running`: from then on the run row, its worker and the worker's heartbeat
 * say who has it, and a dead worker's run gets a new job (heartbeat.ts). So pg-boss's own expiry of
 * active jobs never applies (a long run is not a stuck job), and a job is never fetched twice.
 *
 * Why not pg-boss's `singleton` policy keyed by thread: its fetch fails as a whole when the oldest job's
 * key is active (a unique violation it swallows), so one busy thread would stall the queue for all.
 */
import { randomUUID } from "node:crypto";
import PgBoss from "pg-boss";
import type pg from "pg";
import type { Names } from "./schema.ts";

export const QUEUE = "graphc_runs";
/** first key of the advisory lock around pg-boss's install (schema.ts uses "gsrv") */
const QUEUE_SETUP_LOCK = 0x67717565; // "gque"

export interface RunJob {
  run_id: string;
}

/** pg-boss's `Db` over a pool or over one client inside a transaction. */
function db(on: pg.Pool | pg.PoolClient): PgBoss.Db {
  return { executeSql: (text, values) => on.query(text, values) };
}

export class RunQueue {
  readonly boss: PgBoss;

  private readonly schema: string;

  constructor(
    private readonly pool: pg.Pool,
    n: Names,
    /** workers maintain (archive, purge) the queue; API processes only insert */
    maintain: boolean,
  ) {
    this.schema = n.queueSchema;
    this.boss = new PgBoss({ db: db(pool), schema: n.queueSchema, supervise: maintain, schedule: false, migrate: true });
    // maintenance errors (a dropped connection) are reported by the next operation; not fatal here
    this.boss.on("error", () => undefined);
  }

  /**
   * Installs pg-boss's schema and the queue when missing. Under an advisory lock: pg-boss's own install
   * is not safe when several processes start at once (both CREATE SCHEMA; one fails on the catalog's
   * unique index).
   */
  async start(): Promise<void> {
    const lock = await this.pool.connect();
    try {
      await lock.query("SELECT pg_advisory_lock($1, hashtext($2))", [QUEUE_SETUP_LOCK, this.schema]);
      await this.boss.start();
      await this.boss.createQueue(QUEUE, { name: QUEUE, policy: "standard", retryLimit: 0 });
    } finally {
      await lock.query("SELECT pg_advisory_unlock($1, hashtext($2))", [QUEUE_SETUP_LOCK, this.schema]).catch(() => undefined);
      lock.release();
    }
  }

  /** Queues a job for `runId` inside the caller's transaction. */
  async enqueue(client: pg.PoolClient, runId: string): Promise<void> {
    const data: RunJob = { run_id: runId };
    await this.boss.insert([{ id: randomUUID(), name: QUEUE, data, retryLimit: 0 }], { db: db(client) });
  }

  /**
   * The next job, active inside the caller's transaction (SKIP LOCKED: concurrent workers never get the same
   * job). Inside it, not on its own: a worker killed between a fetch and its claim would otherwise leave the
   * job active forever and its run pending with no job (the cluster test's kills found it).
   */
  async fetchIn(client: pg.PoolClient): Promise<PgBoss.Job<RunJob> | undefined> {
    const [job] = await this.boss.fetch<RunJob>(QUEUE, { batchSize: 1, priority: false, db: db(client) });
    return job;
  }

  /** Completes a fetched job inside the caller's transaction. */
  async complete(client: pg.PoolClient, jobId: string): Promise<void> {
    await this.boss.complete(QUEUE, jobId, {}, { db: db(client) });
  }

  stop(): Promise<void> {
    return this.boss.stop({ graceful: false, close: false, wait: true, timeout: 1000 });
  }
}
