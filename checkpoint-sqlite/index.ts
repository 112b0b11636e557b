/**
 * SQLite checkpoint saver on better-sqlite3: the embedded default for real use.
 *
 *   const saver = new SqliteSaver("checkpoints.db");   // or new SqliteSaver(existingDatabase)
 *
 * WAL mode, `synchronous=NORMAL` (a committed checkpoint survives a process crash; see docs/checkpoints.md),
 * tables created once in the constructor, every statement prepared once, one commit per superstep (a put
 * commits the pending writes stored since the previous one; see putWrites). Values are laid out by
 * runtime/checkpoint/delta.ts: unchanged channels are not re-encoded, appended lists are stored
 * as deltas, so a thread of N steps costs O(N) bytes.
 */
import Database from "better-sqlite3";
import {
  type CheckpointRow,
  type CheckpointStore,
  type PageCursor,
  type RowQuery,
  type WriteRow,
  type BlobRow,
  type LockThreadOptions,
  type ThreadLock,
  StoredSaver,
  lockKey,
} from "@graphc/runtime/saver";
import { closedOnError, guard, openFile, openTables } from "./sqlite-checks.ts";
import { SqliteThreadLocks } from "./sqlite-lock.ts";
import { LAYOUT, WRITES_TABLE, migrate } from "./migrate.ts";
import { readLogs, writeRecord } from "./write-log.ts";
import { type SplitBlobs, readBlobRecords, splitBlobs, walkChain } from "./row-blobs.ts";

type DB = Database.Database;
type Statement = Database.Statement<unknown[], unknown>;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS graphc_checkpoints (
  thread_id TEXT NOT NULL,
  checkpoint_ns TEXT NOT NULL DEFAULT '',
  checkpoint_id TEXT NOT NULL,
  parent_id TEXT,
  header TEXT NOT NULL,
  metadata TEXT NOT NULL,
  writes TEXT NOT NULL DEFAULT '',
  blobs TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS graphc_blobs (
  thread_id TEXT NOT NULL,
  checkpoint_ns TEXT NOT NULL,
  checkpoint_id TEXT NOT NULL,
  channel TEXT NOT NULL,
  kind INTEGER NOT NULL,
  base TEXT,
  data TEXT NOT NULL,
  depth INTEGER NOT NULL,
  chain INTEGER NOT NULL,
  snap INTEGER NOT NULL,
  PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id, channel)
) WITHOUT ROWID;
${WRITES_TABLE};
`;

const ROW_COLUMNS = "thread_id, checkpoint_ns, checkpoint_id, parent_id, header, metadata";

/** Characters of pending-write records kept in a checkpoint's row (a row stays within one B-tree page). */
const ROW_LOG_CHARS = 1024;

/**
 * Stores of this process holding uncommitted pending writes. Before any store writes, the others commit
 * (two savers on one file in one process would otherwise wait on each other's lock), and all commit
 * synchronously if the process exits before their timer fires.
 */
const uncommitted = new Set<SqliteCheckpointTables>();
let exitHook = false;
function commitOthers(except?: SqliteCheckpointTables): void {
  // (every superstep: usually no other store, and no array copy of the set)
  if (uncommitted.size === 0 || (uncommitted.size === 1 && except !== undefined && uncommitted.has(except))) return;
  for (const store of [...uncommitted]) if (store !== except) store.commitPending();
}

/** The checkpoint tables of one database (the row store StoredSaver runs on). */
export class SqliteCheckpointTables implements CheckpointStore {
  readonly db: DB;
  private readonly insertRow: Statement;
  private readonly updateRow: Statement;
  private readonly insertBlob: Statement;
  private readonly getRow: Statement;
  private readonly getLatest: Statement;
  private readonly getRowBlobs: Statement;
  private readonly getBlob: Statement;
  private readonly logWrites: Statement;
  private readonly addWrites: Statement;
  private readonly getRowLog: Statement;
  private readonly getWrites: Statement;
  private readonly pages = new Map<string, Statement>();
  private readonly insertTx: Database.Transaction<(row: CheckpointRow, blobs: readonly BlobRow[], split: SplitBlobs) => void>;
  private readonly deleteTx: Database.Transaction<(threadId: string) => void>;
  /** true while pending writes sit in an open transaction, waiting for the next put or the next event-loop turn */
  private pending = false;
  /**
   * The next event-loop turn's commit. It stays armed after a put commits (a no-op then, or it commits the
   * writes of a later step): a run of supersteps within one turn arms one timer, not one per step.
   */
  private turn: ReturnType<typeof setImmediate> | undefined;
  /** a failed deferred commit, reported by the next write */
  private commitError: unknown;

  constructor(db: DB) {
    this.db = db;
    // pragmas, then the tables, refusing a file that is not (or no longer) a checkpoint database
    openTables(db, SCHEMA, LAYOUT);
    migrate(db);
    // its own blobs are in its row while they are short (row-blobs.ts), else graphc_blobs rows; a checkpoint
    // put again (updateRow) keeps its pending writes (the log in its row) and the blobs it does not replace
    this.insertRow = db.prepare(
      `INSERT INTO graphc_checkpoints (${ROW_COLUMNS}, blobs) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    );
    this.updateRow = db.prepare(
      `UPDATE graphc_checkpoints SET parent_id = ?, header = ?, metadata = ?, blobs = ?
       WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id = ?`,
    );
    this.insertBlob = db.prepare(
      `INSERT OR REPLACE INTO graphc_blobs (thread_id, checkpoint_ns, checkpoint_id, channel, kind, base, data, depth, chain, snap)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.getRow = db.prepare(
      `SELECT ${ROW_COLUMNS} FROM graphc_checkpoints WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id = ?`,
    );
    this.getLatest = db.prepare(
      `SELECT ${ROW_COLUMNS} FROM graphc_checkpoints WHERE thread_id = ? AND checkpoint_ns = ?
       ORDER BY checkpoint_id DESC LIMIT 1`,
    );
    // one link of a chain (walked in chains()): the blobs in a row, then a blob that did not fit there
    const key = "thread_id = ? AND checkpoint_ns = ? AND checkpoint_id = ?";
    this.getRowBlobs = db.prepare(`SELECT blobs FROM graphc_checkpoints WHERE ${key}`).pluck();
    this.getBlob = db.prepare(`SELECT channel, kind, base, data, depth, chain, snap FROM graphc_blobs WHERE ${key} AND channel = ?`);
    // a putWrites call appends its record to the log in its checkpoint's row (write-log.ts) while the log is
    // short (a superstep of many tasks or large values must not rewrite an ever longer row per task), else
    // it is a graphc_writes row of its own; `after`: whether it follows the row's log
    const at = "thread_id = @thread AND checkpoint_ns = @ns AND checkpoint_id = @id";
    this.logWrites = db.prepare(
      `UPDATE graphc_checkpoints SET writes = writes || @record
       WHERE ${at} AND (writes = '' OR length(writes) + length(@record) <= ${ROW_LOG_CHARS})`,
    );
    this.addWrites = db.prepare(
      `INSERT INTO graphc_writes (thread_id, checkpoint_ns, checkpoint_id, seq, after, writes) VALUES (@thread, @ns, @id,
         (SELECT COALESCE(MAX(seq), 0) + 1 FROM graphc_writes WHERE ${at}),
         EXISTS (SELECT 1 FROM graphc_checkpoints WHERE ${at}), @record)`,
    );
    this.getRowLog = db.prepare(`SELECT writes FROM graphc_checkpoints WHERE ${at}`);
    this.getWrites = db.prepare(`SELECT after, writes FROM graphc_writes WHERE ${at} ORDER BY seq`);
    const deletes = ["graphc_checkpoints", "graphc_blobs", "graphc_writes"].map((t) =>
      db.prepare(`DELETE FROM ${t} WHERE thread_id = ?`),
    );
    this.insertTx = db.transaction((row: CheckpointRow, blobs: readonly BlobRow[], split: SplitBlobs) => {
      const { thread_id, checkpoint_ns, checkpoint_id } = row;
      let { records, rest } = split;
      if (!this.insertNew(row, records)) {
        // put again: its children may still read the blobs of the channels this version does not store
        const site = { thread_id, checkpoint_ns, checkpoint_id };
        const kept = readBlobRecords(site, this.getRowBlobs.get(thread_id, checkpoint_ns, checkpoint_id));
        for (const b of blobs) kept.delete(b.channel);
        ({ records, rest } = splitBlobs([...kept.values(), ...blobs]));
        this.updateRow.run(row.parent_id, row.header, row.metadata, records, thread_id, checkpoint_ns, checkpoint_id);
      }
      for (const b of rest) {
        this.insertBlob.run(thread_id, checkpoint_ns, checkpoint_id, b.channel, b.kind, b.base, b.data, b.depth, b.chain, b.snap);
      }
    });
    this.deleteTx = db.transaction((threadId: string) => {
      for (const d of deletes) d.run(threadId);
    });
  }

  /**
   * A checkpoint commits before put() resolves (the unit of durability), together with the pending writes
   * stored since the last one: one commit per superstep instead of one per task. Synchronous (better-sqlite3
   * is): StoredSaver then makes no promise per call on the runtime's path (SaverNow), and a failure is a
   * throw that StoredSaver turns into the put's rejection.
   */
  insert(row: CheckpointRow, blobs: readonly BlobRow[]): void {
    const split = splitBlobs(blobs);
    this.committing(() => {
      // a new checkpoint whose blobs all fit in its row is one statement, atomic on its own: no savepoint
      // inside the pending transaction (the usual superstep)
      if (split.rest.length === 0 && this.insertNew(row, split.records)) return;
      this.insertTx.immediate(row, blobs, split);
    });
  }

  /** Inserts the row of a checkpoint not stored yet; false (nothing written) when it is stored. */
  private insertNew(row: CheckpointRow, records: string): boolean {
    const { thread_id, checkpoint_ns, checkpoint_id } = row;
    return this.insertRow.run(thread_id, checkpoint_ns, checkpoint_id, row.parent_id, row.header, row.metadata, records).changes === 1;
  }

  /**
   * Pending writes are written at once (reads see them) but committed with the next checkpoint, or at the
   * next turn of the event loop, or when the process exits — whichever comes first. A SIGKILL can lose the
   * writes of the current step (its tasks then run again on resume), never a checkpoint.
   */
  putWrites(threadId: string, ns: string, checkpointId: string, rows: readonly WriteRow[]): void {
    this.beforeWrite();
    if (!this.db.inTransaction) {
      // IMMEDIATE: take the write lock up front; a deferred transaction upgrading to a writer can fail with
      // SQLITE_BUSY instead of waiting when several processes share the file
      this.db.exec("BEGIN IMMEDIATE");
      this.pending = true;
      this.turn ??= setImmediate(() => {
        this.turn = undefined;
        this.commitPending();
      });
      uncommitted.add(this);
      if (!exitHook) {
        exitHook = true;
        process.on("exit", () => commitOthers());
      }
    }
    const task = rows[0]?.task_id;
    if (task === undefined) return;
    // one statement each, atomic on its own: no savepoint inside the pending transaction
    const args = { thread: threadId, ns, id: checkpointId, record: writeRecord(task, rows) };
    if (this.logWrites.run(args).changes === 0) this.addWrites.run(args);
  }

  async deleteThread(threadId: string): Promise<void> {
    this.committing(() => this.deleteTx.immediate(threadId));
  }

  /** Commits pending writes now (no-op without any). */
  commitPending(): void {
    if (!this.pending) return;
    this.pending = false;
    uncommitted.delete(this);
    if (!this.db.open || !this.db.inTransaction) return;
    try {
      this.db.exec("COMMIT");
    } catch (e) {
      this.commitError = e;
      if (this.db.inTransaction) this.db.exec("ROLLBACK");
    }
  }

  /** Runs `body` in a transaction committed before this returns (with the pending writes, if any): thread locks. */
  commitNow<T>(body: () => T): T {
    let result: T | undefined;
    this.committing(() => {
      result = this.db.transaction(body).immediate();
    });
    return result as T;
  }

  /** Runs a write that must be committed when it returns, inside the pending transaction if there is one. */
  private committing(write: () => void): void {
    this.beforeWrite();
    // (inside an open transaction better-sqlite3 runs the transaction function as a savepoint)
    write();
    this.commitPending();
    this.throwCommitError();
  }

  private beforeWrite(): void {
    commitOthers(this);
    this.throwCommitError();
  }

  private throwCommitError(): void {
    const e = this.commitError;
    if (e === undefined) return;
    this.commitError = undefined;
    throw e;
  }

  async get(threadId: string, ns: string, checkpointId: string | undefined): Promise<CheckpointRow | undefined> {
    return guard(this.db, () =>
      checkpointId === undefined ? this.getLatest.get(threadId, ns) : this.getRow.get(threadId, ns, checkpointId),
    ) as CheckpointRow | undefined;
  }

  async page(query: RowQuery, cursor: PageCursor | undefined, limit: number): Promise<CheckpointRow[]> {
    const where: string[] = [];
    const args: unknown[] = [];
    const add = (sql: string, ...values: unknown[]) => {
      where.push(sql);
      args.push(...values);
    };
    if (query.thread_id !== undefined) add("thread_id = ?", query.thread_id);
    if (query.checkpoint_ns !== undefined) add("checkpoint_ns = ?", query.checkpoint_ns);
    if (query.checkpoint_id !== undefined) add("checkpoint_id = ?", query.checkpoint_id);
    if (query.before !== undefined) add("checkpoint_id < ?", query.before);
    if (cursor !== undefined) add("(checkpoint_id, thread_id, checkpoint_ns) < (?, ?, ?)", ...cursor);
    const sql =
      `SELECT ${ROW_COLUMNS} FROM graphc_checkpoints` +
      (where.length > 0 ? ` WHERE ${where.join(" AND ")}` : "") +
      " ORDER BY checkpoint_id DESC, thread_id DESC, checkpoint_ns DESC LIMIT ?";
    return guard(this.db, () => {
      let statement = this.pages.get(sql);
      if (statement === undefined) this.pages.set(sql, (statement = this.db.prepare(sql)));
      return statement.all(...args, limit);
    }) as CheckpointRow[];
  }

  async chains(threadId: string, ns: string, refs: readonly [string, string][]): Promise<Map<string, BlobRow[]>> {
    // the blobs of each row read, by checkpoint id (channels of one checkpoint share owners)
    const rows = new Map<string, Map<string, BlobRow>>();
    const out = new Map<string, BlobRow[]>();
    guard(this.db, () => {
      for (const [channel, owner] of refs) {
        const find = (id: string): BlobRow | undefined => {
          let own = rows.get(id);
          if (own === undefined) {
            const site = { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: id, channel };
            rows.set(id, (own = readBlobRecords(site, this.getRowBlobs.get(threadId, ns, id) ?? "")));
          }
          return own.get(channel) ?? (this.getBlob.get(threadId, ns, id, channel) as BlobRow | undefined);
        };
        out.set(channel, walkChain(owner, find));
      }
    });
    return out;
  }

  async writes(threadId: string, ns: string, checkpointId: string): Promise<WriteRow[]> {
    const key = { thread: threadId, ns, id: checkpointId };
    const [own, rows] = guard(this.db, () => [
      this.getRowLog.get(key) as { writes: unknown } | undefined,
      this.getWrites.all(key) as { after: number; writes: unknown }[],
    ]);
    const logs = rows.filter((r) => r.after === 0).map((r) => r.writes);
    if (own !== undefined) logs.push(own.writes);
    for (const r of rows) if (r.after !== 0) logs.push(r.writes);
    return readLogs({ thread_id: threadId, checkpoint_ns: ns, checkpoint_id: checkpointId }, logs);
  }

  /** Characters of stored payload (headers, metadata, blobs, writes), comparable with MemorySaver.storedChars. */
  storedChars(): number {
    const sum = (sql: string) => (this.db.prepare(sql).get() as { n: number | null }).n ?? 0;
    return (
      sum("SELECT SUM(LENGTH(header) + LENGTH(metadata) + LENGTH(blobs)) AS n FROM graphc_checkpoints") +
      sum("SELECT SUM(LENGTH(data)) AS n FROM graphc_blobs") +
      sum("SELECT SUM(LENGTH(writes)) AS n FROM graphc_checkpoints") +
      sum("SELECT SUM(LENGTH(writes)) AS n FROM graphc_writes")
    );
  }
}

export class SqliteSaver extends StoredSaver {
  readonly db: DB;
  private readonly ownsDb: boolean;
  private locks: SqliteThreadLocks | undefined;

  /** `database`: a file path (":memory:" for a private in-memory database) or an open better-sqlite3 Database. */
  constructor(database: string | DB) {
    const owns = typeof database === "string";
    const db = owns ? openFile(database) : database;
    const store = owns ? closedOnError(db, () => new SqliteCheckpointTables(db)) : new SqliteCheckpointTables(db);
    super(store);
    this.db = db;
    this.ownsDb = owns;
  }

  /**
   * LangGraph.js's `SqliteSaver.fromConnString(path)`, so that a program moving over keeps its line: the
   * same as `new SqliteSaver(path)` (the saver opens the file, and `close()` closes it).
   */
  static fromConnString(path: string): SqliteSaver {
    return new SqliteSaver(path);
  }

  /** Characters of stored payload (see SqliteCheckpointTables.storedChars). */
  storedChars(): number {
    return (this.store as SqliteCheckpointTables).storedChars();
  }

  /** A lock row seen by every process on this file, freed when its holder dies (sqlite-lock.ts). */
  lockThread(threadId: string, options: LockThreadOptions): Promise<ThreadLock | undefined> {
    try {
      const store = this.store as SqliteCheckpointTables;
      this.locks ??= new SqliteThreadLocks(this.db, (body) => store.commitNow(body));
      return this.locks.lock(lockKey(threadId), options);
    } catch (e) {
      return Promise.reject(e);
    }
  }

  /** Commits pending writes, and closes the database if this saver opened it. */
  close(): void {
    (this.store as SqliteCheckpointTables).commitPending();
    if (this.ownsDb && this.db.open) this.db.close();
  }
}
export { SqliteStore } from "./store.ts";
