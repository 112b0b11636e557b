/**
 * Postgres checkpoint saver on `pg`: the scale-out option. Several worker processes may share threads:
 * every write is one statement (atomic on its own), rows are immutable once written except pending writes,
 * and history is ordered by checkpoint id (time-ordered ids made by the runtime, compared with the "C"
 * collation so the order is the same as in SQLite and in memory).
 *
 *   const saver = PostgresSaver.fromConnString(process.env.DATABASE_URL!, { schema: "graphc" });
 *   await saver.setup();   // idempotent; safe when several processes call it at once
 *
 * Layout as in runtime/checkpoint/delta.ts (deltas for appended lists); see docs/checkpoints.md.
 */
import pg from "pg";
import {
  type CheckpointRow,
  type CheckpointStore,
  type PageCursor,
  type RowQuery,
  type WriteRow,
  type BlobRow,
  type LockThreadOptions,
  type ThreadLock,
  MAX_DEPTH,
  StoredSaver,
  lockKey,
} from "@graphc/runtime/saver";
import { checkTables, createMarker, translate } from "./pg-tables.ts";
import { inTransaction, quoteIdent } from "./sql.ts";
import { PostgresThreadLocks } from "./postgres-lock.ts";

export interface PostgresSaverOptions {
  /** schema holding the tables (created when missing); default "public" */
  schema?: string;
}

const ROW_COLUMNS = "thread_id, checkpoint_ns, checkpoint_id, parent_id, header, metadata";
const BLOB_COLUMNS = "channel, kind, base, data, depth, chain, snap";
/** first key of the advisory lock that serialises setup() across processes */
const SETUP_LOCK = 0x67726170; // "grap"

/** Prepared statement names by SQL text: one name per distinct statement in this process. */
const statementNames = new Map<string, string>();
function statementName(sql: string): string {
  let name = statementNames.get(sql);
  if (name === undefined) statementNames.set(sql, (name = `graphc_${statementNames.size + 1}`));
  return name;
}

export class PostgresCheckpointTables implements CheckpointStore {
  readonly pool: pg.Pool;
  readonly schema: string;
  private readonly cps: string;
  private readonly blobs: string;
  private readonly wr: string;
  private ready: Promise<void> | undefined;

  constructor(pool: pg.Pool, schema = "public") {
    this.pool = pool;
    this.schema = schema;
    const s = quoteIdent(schema);
    this.cps = `${s}.graphc_checkpoints`;
    this.blobs = `${s}.graphc_blobs`;
    this.wr = `${s}.graphc_writes`;
  }

  /** Creates the schema and tables when missing, under an advisory lock (concurrent callers wait, then no-op). */
  setup(): Promise<void> {
    this.ready ??= this.createTables().catch((e: unknown) => {
      this.ready = undefined;
      throw e;
    });
    return this.ready;
  }

  private async createTables(): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      await client.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [SETUP_LOCK, this.schema]);
      // a fresh schema, or one graphc set up: never tables dropped since (those would read as empty threads)
      await checkTables(client, this.schema);
      await client.query(`
        CREATE SCHEMA IF NOT EXISTS ${quoteIdent(this.schema)};
        CREATE TABLE IF NOT EXISTS ${this.cps} (
          thread_id text COLLATE "C" NOT NULL,
          checkpoint_ns text COLLATE "C" NOT NULL DEFAULT '',
          checkpoint_id text COLLATE "C" NOT NULL,
          parent_id text,
          header text NOT NULL,
          metadata text NOT NULL,
          PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id)
        );
        CREATE INDEX IF NOT EXISTS graphc_checkpoints_by_id ON ${this.cps} (checkpoint_id DESC);
        CREATE TABLE IF NOT EXISTS ${this.blobs} (
          thread_id text COLLATE "C" NOT NULL,
          checkpoint_ns text COLLATE "C" NOT NULL,
          checkpoint_id text COLLATE "C" NOT NULL,
          channel text COLLATE "C" NOT NULL,
          kind smallint NOT NULL,
          base text COLLATE "C",
          data text NOT NULL,
          depth integer NOT NULL,
          chain integer NOT NULL,
          snap integer NOT NULL,
          PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id, channel)
        );
        CREATE TABLE IF NOT EXISTS ${this.wr} (
          thread_id text COLLATE "C" NOT NULL,
          checkpoint_ns text COLLATE "C" NOT NULL,
          checkpoint_id text COLLATE "C" NOT NULL,
          task_id text COLLATE "C" NOT NULL,
          idx integer NOT NULL,
          channel text NOT NULL,
          value text NOT NULL,
          PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id, task_id, idx)
        );`);
      await createMarker(client, quoteIdent(this.schema));
    });
  }

  /** Runs `sql` as a named statement: prepared once per connection, since planning dominates these small queries. */
  private async query<R extends pg.QueryResultRow>(sql: string, args: unknown[]): Promise<R[]> {
    await this.setup();
    try {
      return (await this.pool.query<R>({ name: statementName(sql), text: sql, values: args })).rows;
    } catch (e) {
      throw translate(e, this.schema);
    }
  }

  async insert(row: CheckpointRow, blobs: readonly BlobRow[]): Promise<void> {
    // one statement: the checkpoint and its blobs become visible together
    await this.query(
      `WITH c AS (
         INSERT INTO ${this.cps} (${ROW_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id)
         DO UPDATE SET parent_id = excluded.parent_id, header = excluded.header, metadata = excluded.metadata
       )
       INSERT INTO ${this.blobs} (thread_id, checkpoint_ns, checkpoint_id, ${BLOB_COLUMNS})
       SELECT $1, $2, $3, b.* FROM unnest($7::text[], $8::smallint[], $9::text[], $10::text[], $11::int[], $12::int[], $13::int[])
         AS b(channel, kind, base, data, depth, chain, snap)
       ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id, channel)
       DO UPDATE SET kind = excluded.kind, base = excluded.base, data = excluded.data,
         depth = excluded.depth, chain = excluded.chain, snap = excluded.snap`,
      [
        row.thread_id,
        row.checkpoint_ns,
        row.checkpoint_id,
        row.parent_id,
        row.header,
        row.metadata,
        blobs.map((b) => b.channel),
        blobs.map((b) => b.kind),
        blobs.map((b) => b.base),
        blobs.map((b) => b.data),
        blobs.map((b) => b.depth),
        blobs.map((b) => b.chain),
        blobs.map((b) => b.snap),
      ],
    );
  }

  async get(threadId: string, ns: string, checkpointId: string | undefined): Promise<CheckpointRow | undefined> {
    const rows =
      checkpointId === undefined
        ? await this.query<CheckpointRow>(
            `SELECT ${ROW_COLUMNS} FROM ${this.cps} WHERE thread_id = $1 AND checkpoint_ns = $2
             ORDER BY checkpoint_id DESC LIMIT 1`,
            [threadId, ns],
          )
        : await this.query<CheckpointRow>(
            `SELECT ${ROW_COLUMNS} FROM ${this.cps} WHERE thread_id = $1 AND checkpoint_ns = $2 AND checkpoint_id = $3`,
            [threadId, ns, checkpointId],
          );
    return rows[0];
  }

  async page(query: RowQuery, cursor: PageCursor | undefined, limit: number): Promise<CheckpointRow[]> {
    const where: string[] = [];
    const args: unknown[] = [];
    const add = (sql: (n: number) => string, ...values: unknown[]) => {
      where.push(sql(args.length + 1));
      args.push(...values);
    };
    if (query.thread_id !== undefined) add((n) => `thread_id = $${n}`, query.thread_id);
    if (query.checkpoint_ns !== undefined) add((n) => `checkpoint_ns = $${n}`, query.checkpoint_ns);
    if (query.checkpoint_id !== undefined) add((n) => `checkpoint_id = $${n}`, query.checkpoint_id);
    if (query.before !== undefined) add((n) => `checkpoint_id < $${n}`, query.before);
    if (cursor !== undefined) {
      add((n) => `(checkpoint_id, thread_id, checkpoint_ns) < ($${n}, $${n + 1}, $${n + 2})`, ...cursor);
    }
    args.push(limit);
    return this.query<CheckpointRow>(
      `SELECT ${ROW_COLUMNS} FROM ${this.cps}` +
        (where.length > 0 ? ` WHERE ${where.join(" AND ")}` : "") +
        ` ORDER BY checkpoint_id DESC, thread_id DESC, checkpoint_ns DESC LIMIT $${args.length}`,
      args,
    );
  }

  async chains(threadId: string, ns: string, refs: readonly [string, string][]): Promise<Map<string, BlobRow[]>> {
    const out = new Map<string, BlobRow[]>();
    if (refs.length === 0) return out;
    // every channel's chain in one round trip: from the named blob back to its full snapshot, at most one
    // row past the longest chain the encoder writes, so a loop of `base`s ends (delta.ts checks the rows)
    const rows = await this.query<BlobRow & { n: number }>(
      `WITH RECURSIVE link(channel, id, n) AS (
         SELECT r.channel COLLATE "C", r.owner COLLATE "C", 0 FROM unnest($3::text[], $4::text[]) AS r(channel, owner)
         UNION ALL
         SELECT b.channel, b.base, link.n + 1 FROM ${this.blobs} b JOIN link
           ON b.thread_id = $1 AND b.checkpoint_ns = $2 AND b.checkpoint_id = link.id AND b.channel = link.channel
         WHERE b.kind = 1 AND link.n <= ${MAX_DEPTH}
       )
       SELECT ${BLOB_COLUMNS.split(", ").map((c) => "b." + c).join(", ")}, link.n FROM link JOIN ${this.blobs} b
         ON b.thread_id = $1 AND b.checkpoint_ns = $2 AND b.checkpoint_id = link.id AND b.channel = link.channel
       ORDER BY b.channel, link.n DESC`,
      [threadId, ns, refs.map((r) => r[0]), refs.map((r) => r[1])],
    );
    for (const { n: _n, ...blob } of rows) {
      let chain = out.get(blob.channel);
      if (chain === undefined) out.set(blob.channel, (chain = []));
      chain.push(blob);
    }
    return out;
  }

  async putWrites(threadId: string, ns: string, checkpointId: string, rows: readonly WriteRow[]): Promise<void> {
    // one INSERT may not touch a key twice: within a batch, special channels keep the last write, others the first
    const byKey = new Map<string, WriteRow>();
    for (const w of rows) {
      const key = w.task_id + "\0" + w.idx;
      if (w.idx < 0 || !byKey.has(key)) byKey.set(key, w);
    }
    const replace = [...byKey.values()].filter((w) => w.idx < 0);
    const keep = [...byKey.values()].filter((w) => w.idx >= 0);
    const columns = (ws: WriteRow[]) => [ws.map((w) => w.task_id), ws.map((w) => w.idx), ws.map((w) => w.channel), ws.map((w) => w.value)];
    const insert = (first: number) =>
      `INSERT INTO ${this.wr} (thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, value)
       SELECT $1, $2, $3, w.* FROM unnest($${first}::text[], $${first + 1}::int[], $${first + 2}::text[], $${first + 3}::text[])
         AS w(task_id, idx, channel, value)
       ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id, task_id, idx)`;
    await this.query(
      `WITH r AS (${insert(4)} DO UPDATE SET channel = excluded.channel, value = excluded.value)
       ${insert(8)} DO NOTHING`,
      [threadId, ns, checkpointId, ...columns(replace), ...columns(keep)],
    );
  }

  async writes(threadId: string, ns: string, checkpointId: string): Promise<WriteRow[]> {
    return this.query<WriteRow>(
      `SELECT task_id, idx, channel, value FROM ${this.wr}
       WHERE thread_id = $1 AND checkpoint_ns = $2 AND checkpoint_id = $3 ORDER BY task_id, idx`,
      [threadId, ns, checkpointId],
    );
  }

  async deleteThread(threadId: string): Promise<void> {
    await this.query(
      `WITH a AS (DELETE FROM ${this.blobs} WHERE thread_id = $1), b AS (DELETE FROM ${this.wr} WHERE thread_id = $1)
       DELETE FROM ${this.cps} WHERE thread_id = $1`,
      [threadId],
    );
  }

  /** Characters of stored payload (headers, metadata, blobs, writes), comparable with MemorySaver.storedChars. */
  async storedChars(): Promise<number> {
    const [row] = await this.query<{ n: string | null }>(
      `SELECT (SELECT COALESCE(SUM(length(header) + length(metadata)), 0) FROM ${this.cps})
            + (SELECT COALESCE(SUM(length(data)), 0) FROM ${this.blobs})
            + (SELECT COALESCE(SUM(length(value)), 0) FROM ${this.wr}) AS n`,
      [],
    );
    return Number(row?.n ?? 0);
  }
}

export class PostgresSaver extends StoredSaver {
  readonly pool: pg.Pool;
  private readonly ownsPool: boolean;
  private locks: PostgresThreadLocks | undefined;

  /** A saver on an existing pool (left open by `end()`). */
  constructor(pool: pg.Pool, options: PostgresSaverOptions = {}, ownsPool = false) {
    super(new PostgresCheckpointTables(pool, options.schema));
    this.pool = pool;
    this.ownsPool = ownsPool;
  }

  /** A saver with its own pool on `url` (closed by `end()`). */
  static fromConnString(url: string, options: PostgresSaverOptions = {}): PostgresSaver {
    return new PostgresSaver(new pg.Pool({ connectionString: url }), options, true);
  }

  /** Creates the tables when missing. Optional: the first operation does it too. */
  setup(): Promise<void> {
    return (this.store as PostgresCheckpointTables).setup();
  }

  storedChars(): Promise<number> {
    return (this.store as PostgresCheckpointTables).storedChars();
  }

  /** A session-level advisory lock, dropped by Postgres when this process or its connection dies (postgres-lock.ts). */
  lockThread(threadId: string, options: LockThreadOptions): Promise<ThreadLock | undefined> {
    try {
      this.locks ??= new PostgresThreadLocks(this.pool, (this.store as PostgresCheckpointTables).schema);
      return this.locks.lock(lockKey(threadId), options);
    } catch (e) {
      return Promise.reject(e);
    }
  }

  /** Closes the pool if this saver created it. */
  async end(): Promise<void> {
    if (this.ownsPool) await this.pool.end();
  }
}
export { PostgresStore, type PostgresStoreOptions } from "./store.ts";
// SQL helpers the server package's Postgres backend shares (quoting a schema name, one transaction)
export { inTransaction, quoteIdent } from "./sql.ts";
