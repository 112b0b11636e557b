/**
 * What the SQLite saver refuses to read as an empty database: a file that is not SQLite (a text file), an
 * existing file of zero bytes (truncated), a damaged file, and graphc tables dropped after setup (rules in
 * runtime/checkpoint/table-check.ts). Each is a `CORRUPT_CHECKPOINT` naming the file, never silently an
 * empty thread. See docs/checkpoints.md, "Corrupted data".
 */
import { statSync } from "node:fs";
import Database from "better-sqlite3";
import { CorruptCheckpointError, DATA_TABLES, MARKER_TABLE, missingTables, tableGone } from "@graphc/runtime/saver";

type DB = Database.Database;

const FILE_HINT = "Point the saver at a graphc checkpoint database, or delete the file to start with an empty one.";

/**
 * Opens the file a SqliteSaver was given by path. SQLite takes an existing empty file for an empty database,
 * so the check comes first: a file that exists with zero bytes did not come from graphc (the first pragma
 * writes the header) — it was truncated, or made by something else.
 */
export function openFile(path: string): DB {
  const wasEmpty = isEmptyFile(path);
  const db = new Database(path);
  if (wasEmpty && emptyUnderLock(db, path)) {
    db.close();
    throw new CorruptCheckpointError({}, `${path} is an empty file (0 bytes), not a checkpoint database: truncated?`, undefined, FILE_HINT);
  }
  return db;
}

/** `make()`, closing `db` (opened by the saver) when it throws: a refused file is not left open. */
export function closedOnError<T>(db: DB, make: () => T): T {
  try {
    return make();
  } catch (e) {
    db.close();
    throw e;
  }
}

function isEmptyFile(path: string): boolean {
  if (path === "" || path === ":memory:") return false;
  try {
    const st = statSync(path);
    return st.isFile() && st.size === 0;
  } catch {
    return false;
  }
}

/**
 * Still empty once the write lock is ours: another SqliteSaver may have created the file an instant ago,
 * and writes its header (switching to WAL) before it lets go of the lock.
 */
function emptyUnderLock(db: DB, path: string): boolean {
  db.pragma("busy_timeout = 5000");
  db.exec("BEGIN IMMEDIATE");
  try {
    // (the file's size, not page_count: SQLite counts page 1 of an empty file inside a write transaction)
    return isEmptyFile(path);
  } finally {
    db.exec("ROLLBACK");
  }
}

/**
 * Opens the saver's tables: pragmas, the table check, then `schema` (CREATE … IF NOT EXISTS) and the marker
 * table (naming `layout` when it is new). A database holding every table runs `schema` as it always did (no write lock taken at open: in WAL
 * mode readers never wait); otherwise the check is repeated and the tables created inside one immediate
 * transaction, so processes creating a new file at once never see each other's half-made set. SQLite's
 * "not a database" and "malformed" become CORRUPT_CHECKPOINT naming the file.
 */
export function openTables(db: DB, schema: string, layout: string): void {
  guard(db, () => {
    // busy_timeout first: other processes may hold the file while this one switches to WAL and creates tables
    db.pragma("busy_timeout = 5000");
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    if (graphcTables(db).size === DATA_TABLES.length + 1) {
      db.exec(schema);
      return;
    }
    db.transaction(() => {
      const refused = missingTables(graphcTables(db), fileOf(db));
      if (refused !== undefined) throw refused;
      db.exec(schema);
      db.exec(
        `CREATE TABLE IF NOT EXISTS ${MARKER_TABLE} (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
         INSERT OR IGNORE INTO ${MARKER_TABLE} (key, value) VALUES ('layout', '${layout}');`,
      );
    }).immediate();
  });
}

/** Which of graphc's data tables and marker table the database holds. */
function graphcTables(db: DB): Set<string> {
  const names = [...DATA_TABLES, MARKER_TABLE];
  const rows = db
    .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name IN (${names.map(() => "?").join(", ")})`)
    .all(...names) as { name: string }[];
  return new Set(rows.map((r) => r.name));
}

/** Runs a statement of the saver, turning a vanished table or a damaged file into CORRUPT_CHECKPOINT. */
export function guard<T>(db: DB, run: () => T): T {
  try {
    return run();
  } catch (e) {
    throw translate(db, e);
  }
}

function translate(db: DB, e: unknown): unknown {
  if (!(e instanceof Database.SqliteError)) return e;
  const table = /^no such table: (?:main\.)?(graphc_\w+)/.exec(e.message)?.[1];
  if (table !== undefined) return tableGone(table, fileOf(db), e);
  if (e.code === "SQLITE_NOTADB") return new CorruptCheckpointError({}, `${fileOf(db)} is not a SQLite database (${e.message})`, e, FILE_HINT);
  if (e.code.startsWith("SQLITE_CORRUPT")) return new CorruptCheckpointError({}, `${fileOf(db)} is damaged (${e.message})`, e, FILE_HINT);
  return e;
}

function fileOf(db: DB): string {
  return db.name === ":memory:" || db.name === "" ? "the in-memory database" : db.name;
}
