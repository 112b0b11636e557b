/**
 * Layout 1 → 2 of a checkpoint database (2026-12-02). Layout 1 kept one `graphc_writes` row per pending
 * write (`task_id, idx, channel, value`) and every blob in `graphc_blobs`; layout 2 keeps a record per
 * `putWrites` call (write-log.ts), in a log in the checkpoint's row while it is short, else in a
 * `graphc_writes` row, and a checkpoint's short blobs in its row (row-blobs.ts). A database written by an
 * older graphc is converted when a saver opens it, inside one IMMEDIATE transaction (a process opening it
 * at the same time waits, then finds it converted): each task's writes become one record in the new
 * `graphc_writes`, and `graphc_checkpoints` gains the `writes` and `blobs` columns. Its blobs stay in
 * `graphc_blobs`, where readers still find them (a row's own records are looked at first). Processes of an
 * older graphc must not share the file afterwards (their statements name the old columns).
 */
import { MARKER_TABLE, type WriteRow } from "@graphc/runtime/saver";
import { writeRecord } from "./write-log.ts";

type DB = import("better-sqlite3").Database;

/** The current layout, stored as `('layout', …)` in graphc_meta. */
export const LAYOUT = "2";

/**
 * Records that are not in their checkpoint's row, one row per `putWrites` call numbered by `seq` from 1 per
 * checkpoint: `after` 0 for writes put before the checkpoint was stored, 1 for writes that no longer fit
 * in its row (write-log.ts). They read back as: `after` 0 rows, the row's log, `after` 1 rows.
 */
export const WRITES_TABLE = `CREATE TABLE IF NOT EXISTS graphc_writes (
  thread_id TEXT NOT NULL,
  checkpoint_ns TEXT NOT NULL,
  checkpoint_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  after INTEGER NOT NULL,
  writes TEXT NOT NULL,
  PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id, seq)
) WITHOUT ROWID`;

interface OldWrite extends WriteRow {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string;
}

/** Converts a layout 1 database (a no-op on layout 2). */
export function migrate(db: DB): void {
  if (!oldLayout(db)) return;
  db.transaction(() => {
    if (!oldLayout(db)) return; // converted by another process while this one waited for the lock
    for (const column of ["writes", "blobs"]) {
      if (!hasColumn(db, "graphc_checkpoints", column)) {
        db.exec(`ALTER TABLE graphc_checkpoints ADD COLUMN ${column} TEXT NOT NULL DEFAULT ''`);
      }
    }
    if (hasColumn(db, "graphc_writes", "idx")) convertWrites(db);
    db.prepare(`INSERT OR REPLACE INTO ${MARKER_TABLE} (key, value) VALUES ('layout', ?)`).run(LAYOUT);
  }).immediate();
}

function convertWrites(db: DB): void {
  db.exec(WRITES_TABLE.replace("graphc_writes", "graphc_writes_log"));
  const insert = db.prepare(
    "INSERT INTO graphc_writes_log (thread_id, checkpoint_ns, checkpoint_id, seq, after, writes) VALUES (?, ?, ?, ?, 0, ?)",
  );
  // (read whole first: better-sqlite3 runs no other statement while an iterator is open)
  const rows = db
    .prepare(
      `SELECT thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, value FROM graphc_writes
       ORDER BY thread_id, checkpoint_ns, checkpoint_id, task_id, idx`,
    )
    .all() as OldWrite[];
  let group: OldWrite[] = [];
  const flush = () => {
    const first = group[0];
    if (first === undefined) return;
    for (let i = 0, seq = 1; i < group.length; seq++) {
      const task = group[i]!.task_id;
      let end = i;
      while (end < group.length && group[end]!.task_id === task) end++;
      insert.run(first.thread_id, first.checkpoint_ns, first.checkpoint_id, seq, writeRecord(task, group.slice(i, end)));
      i = end;
    }
    group = [];
  };
  for (const w of rows) {
    const first = group[0];
    if (first !== undefined && !sameCheckpoint(first, w)) flush();
    group.push(w);
  }
  flush();
  db.exec("DROP TABLE graphc_writes; ALTER TABLE graphc_writes_log RENAME TO graphc_writes;");
}

function oldLayout(db: DB): boolean {
  // (a file of the first layout 2, before blobs were kept in rows, lacks only the `blobs` column)
  return (
    !hasColumn(db, "graphc_checkpoints", "writes") ||
    !hasColumn(db, "graphc_checkpoints", "blobs") ||
    hasColumn(db, "graphc_writes", "idx")
  );
}

function hasColumn(db: DB, table: string, column: string): boolean {
  return db.prepare("SELECT 1 FROM pragma_table_info(?) WHERE name = ?").get(table, column) !== undefined;
}

function sameCheckpoint(a: OldWrite, b: OldWrite): boolean {
  return a.thread_id === b.thread_id && a.checkpoint_ns === b.checkpoint_ns && a.checkpoint_id === b.checkpoint_id;
}
