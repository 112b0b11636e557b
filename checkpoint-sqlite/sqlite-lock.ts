/**
 * Thread locks of SqliteSaver, seen by every process on the database file (docs/durability.md, "One run
 * per thread"). A lock is a row of `graphc_thread_locks` naming its holder: this process's pid, its start
 * time (Linux: from /proc, so a recycled pid is not taken for the dead holder) and the host. Taking a lock
 * is one IMMEDIATE transaction: read the row; if its holder is alive the thread is busy, else (no row, or a
 * holder that died — even by SIGKILL, which runs no clean-up) the row becomes ours. Releasing deletes our
 * row. No lease, no heartbeat: a holder that blocks its event loop for a minute keeps its lock.
 */
import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import { randomUUID } from "node:crypto";
import { type LockThreadOptions, type ThreadLock, tryUntil } from "@graphc/runtime/saver";

type DB = import("better-sqlite3").Database;
type Statement = import("better-sqlite3").Statement<unknown[], unknown>;

const SCHEMA = `CREATE TABLE IF NOT EXISTS graphc_thread_locks (
  thread_id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  pid INTEGER NOT NULL,
  started TEXT NOT NULL,
  host TEXT NOT NULL,
  since TEXT NOT NULL
) WITHOUT ROWID`;

interface LockRow {
  owner: string;
  pid: number;
  started: string;
  host: string;
}

/** The process's start time in clock ticks since boot (Linux), "" where /proc is not there; "dead" for a zombie. */
export function startedOf(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // fields after the command name (which may hold spaces and parentheses): state is the 1st, starttime the 20th
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[0] === "Z" ? "dead" : (fields[19] ?? "");
  } catch {
    return "";
  }
}

/** This process as a lock holder: one owner for every saver of the process. */
const SELF: LockRow = { owner: randomUUID(), pid: process.pid, started: startedOf(process.pid), host: hostname() };

function holderAlive(row: LockRow): boolean {
  if (row.owner === SELF.owner) return true; // another saver of this process on the same file
  if (row.host !== SELF.host) return true; // no way to tell from here: only its own release frees it
  if (row.pid === SELF.pid) return false; // a dead process whose pid this one now has
  try {
    process.kill(row.pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM"; // exists, belongs to another user
  }
  const started = startedOf(row.pid);
  return started !== "dead" && (row.started === "" || started === "" || started === row.started);
}

/**
 * `run(body)` must execute `body` in its own IMMEDIATE transaction and commit it before returning (the store
 * commits its pending writes first; see SqliteCheckpointTables.commitNow).
 */
export class SqliteThreadLocks {
  private statements: { get: Statement; put: Statement; drop: Statement } | undefined;

  constructor(
    private readonly db: DB,
    private readonly run: <T>(body: () => T) => T,
  ) {}

  async lock(threadId: string, options: LockThreadOptions): Promise<ThreadLock | undefined> {
    const got = await tryUntil(() => (this.tryLock(threadId) ? true : undefined), options.wait, options.signal);
    if (got === undefined) return undefined;
    return { release: async () => this.unlock(threadId) };
  }

  private tryLock(threadId: string): boolean {
    return this.run(() => {
      const s = this.prepared();
      const row = s.get.get(threadId) as LockRow | undefined;
      if (row !== undefined && holderAlive(row)) return false;
      s.put.run(threadId, SELF.owner, SELF.pid, SELF.started, SELF.host, new Date().toISOString());
      return true;
    });
  }

  private unlock(threadId: string): void {
    if (!this.db.open) return;
    this.run(() => this.prepared().drop.run(threadId, SELF.owner));
  }

  /** The table is made on first use, inside the first lock's transaction: stores that never lock never have it. */
  private prepared() {
    if (this.statements === undefined) {
      this.db.exec(SCHEMA);
      this.statements = {
        get: this.db.prepare("SELECT owner, pid, started, host FROM graphc_thread_locks WHERE thread_id = ?"),
        put: this.db.prepare(
          "INSERT OR REPLACE INTO graphc_thread_locks (thread_id, owner, pid, started, host, since) VALUES (?, ?, ?, ?, ?, ?)",
        ),
        drop: this.db.prepare("DELETE FROM graphc_thread_locks WHERE thread_id = ? AND owner = ?"),
      };
    }
    return this.statements;
  }
}
