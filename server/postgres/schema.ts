/**
 * The server's own tables in Postgres (docs/server.md, "Scale-out on Postgres"), in the same schema as the
 * PostgresSaver's checkpoint tables; pg-boss keeps its queue in a schema of its own (`<schema>_queue`).
 *
 * - `threads`: one row per thread; its row lock serialises every decision about the thread's runs
 *   (create with a multitask strategy, claim by a worker, finish), so those never race.
 * - `runs`: one row per run. `seq` orders a thread's runs; a partial unique index allows at most one
 *   `running` run per thread — the guarantee is Postgres's, not the workers' good behaviour.
 * - `run_events`: a run's stream chunks in order, written by the worker, tailed by the API process that
 *   holds the client's connection (woken by NOTIFY); kept so `join` and a reconnecting client can replay.
 * - `workers`: live worker processes and their heartbeats.
 */
import type pg from "pg";
import { inTransaction, quoteIdent } from "@graphc/checkpoint-postgres";

/** Names of every table and channel of one schema, quoted for SQL. */
export interface Names {
  schema: string;
  threads: string;
  runs: string;
  events: string;
  workers: string;
  checkpoints: string;
  /** the saver's tables, children first (what a rollback deletes from) */
  checkpointTables: string[];
  /** pg-boss's schema (unquoted: pg-boss quotes nothing and accepts only \w) */
  queueSchema: string;
  /** NOTIFY channel the API processes listen on: a run has new events or changed status */
  eventChannel: string;
  /** NOTIFY channel the workers listen on: a job was queued, a run is to be cancelled */
  workerChannel: string;
}

export function names(schema: string): Names {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,40}$/.test(schema)) {
    // pg-boss accepts only word characters in its schema name, and channels are identifiers of ≤63 bytes
    throw new TypeError(`graphc server: Postgres schema "${schema}" must be a letter or _ then letters, digits or _ (at most 41)`);
  }
  const s = quoteIdent(schema);
  return {
    schema,
    threads: `${s}.graphc_threads`,
    runs: `${s}.graphc_runs`,
    events: `${s}.graphc_run_events`,
    workers: `${s}.graphc_workers`,
    checkpoints: `${s}.graphc_checkpoints`,
    checkpointTables: [`${s}.graphc_writes`, `${s}.graphc_blobs`, `${s}.graphc_checkpoints`],
    queueSchema: `${schema}_queue`,
    eventChannel: `${schema}_graphc_events`,
    workerChannel: `${schema}_graphc_work`,
  };
}

/** First key of the advisory lock that serialises setup across processes (the saver uses "grap"). */
const SETUP_LOCK = 0x67737276; // "gsrv"

export async function createTables(pool: pg.Pool, n: Names): Promise<void> {
  await inTransaction(pool, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [SETUP_LOCK, n.schema]);
    await client.query(`
      CREATE SCHEMA IF NOT EXISTS ${quoteIdent(n.schema)};
      CREATE TABLE IF NOT EXISTS ${n.threads} (
        thread_id text PRIMARY KEY,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        owner text,
        metadata jsonb NOT NULL DEFAULT '{}',
        status text NOT NULL DEFAULT 'idle',
        "values" jsonb,
        interrupts jsonb NOT NULL DEFAULT '{}'
      );
      CREATE TABLE IF NOT EXISTS ${n.runs} (
        run_id text PRIMARY KEY,
        thread_id text NOT NULL REFERENCES ${n.threads} ON DELETE CASCADE,
        seq bigserial NOT NULL,
        assistant_id text NOT NULL,
        owner text,
        status text NOT NULL,
        multitask_strategy text NOT NULL,
        kwargs jsonb NOT NULL,
        metadata jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        worker_id text,
        attempt integer NOT NULL DEFAULT 0,
        parked boolean NOT NULL DEFAULT false,
        cancel_action text,
        started boolean NOT NULL DEFAULT false,
        checkpoint_before text,
        result jsonb
      );
      CREATE UNIQUE INDEX IF NOT EXISTS graphc_runs_one_running ON ${n.runs} (thread_id) WHERE status = 'running';
      CREATE INDEX IF NOT EXISTS graphc_runs_by_thread ON ${n.runs} (thread_id, seq);
      CREATE INDEX IF NOT EXISTS graphc_runs_by_worker ON ${n.runs} (worker_id) WHERE worker_id IS NOT NULL;
      CREATE TABLE IF NOT EXISTS ${n.events} (
        run_id text NOT NULL REFERENCES ${n.runs} ON DELETE CASCADE,
        seq integer NOT NULL,
        event text NOT NULL,
        data text NOT NULL,
        PRIMARY KEY (run_id, seq)
      );
      CREATE TABLE IF NOT EXISTS ${n.workers} (
        worker_id text PRIMARY KEY,
        host text NOT NULL,
        pid integer NOT NULL,
        started_at timestamptz NOT NULL DEFAULT now(),
        heartbeat_at timestamptz NOT NULL DEFAULT now()
      );`);
  });
}
