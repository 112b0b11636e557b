/**
 * The embedded backend (`graphc serve` without options): threads and runs in two tables of one SQLite file,
 * beside the checkpoints (`SqliteSaver`) and the long-term store (`SqliteStore`), all on the saver's
 * connection — the saver keeps a write transaction open until the end of the current tick, and a second
 * connection would wait for it while holding the event loop. The queue is the runs table itself: one
 * process claims runs with synchronous statements, so a claim is atomic without locks; waiting claimers,
 * run watchers and cancel listeners are woken in-process. Stream events live in memory (event-log.ts).
 *
 * Restart safety: opening the file requeues every run left `running` (its process stopped), so the next
 * worker resumes it from its last checkpoint.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { EventEmitter } from "node:events";
import { SqliteSaver, SqliteStore } from "@graphc/checkpoint-sqlite";
import {
  type Backend,
  type CancelAction,
  type Json,
  type RunRow,
  type RunStatus,
  type StreamEvent,
  ThreadBusy,
  type ThreadPatch,
  type ThreadRow,
  type ThreadSearch,
} from "./backend.ts";
import { EventLog } from "./event-log.ts";
import { type RunRecord, SCHEMA, type ThreadRecord, runOf, threadOf } from "./sqlite-rows.ts";

type DB = SqliteSaver["db"];

const now = () => new Date().toISOString();
const ACTIVE = "('pending', 'running')";

export interface SqliteBackendOptions {
  /** the folder of `graphc.db` (created if missing) */
  dataDir: string;
}

export class SqliteBackend implements Backend {
  readonly saver: SqliteSaver;
  readonly store: SqliteStore;
  private readonly db: DB;
  private readonly events = new EventLog();
  /** "claimable" (a run may have become claimable), `run:<id>` (it changed), `cancel:<id>` */
  private readonly bus = new EventEmitter().setMaxListeners(0);

  constructor(options: SqliteBackendOptions) {
    mkdirSync(options.dataDir, { recursive: true });
    this.saver = new SqliteSaver(join(options.dataDir, "graphc.db"));
    this.db = this.saver.db;
    this.db.exec(SCHEMA);
    this.store = new SqliteStore(this.db);
    // a run still `running` here belonged to a process that stopped: it is resumed by the next claim
    this.db.prepare(`UPDATE server_runs SET status = 'pending', updated_at = ? WHERE status = 'running'`).run(now());
  }

  private thread(threadId: string): ThreadRecord | undefined {
    return this.db.prepare(`SELECT * FROM server_threads WHERE thread_id = ?`).get(threadId) as ThreadRecord | undefined;
  }

  private run(runId: string): RunRecord | undefined {
    return this.db.prepare(`SELECT * FROM server_runs WHERE run_id = ?`).get(runId) as RunRecord | undefined;
  }

  private changed(runId: string): void {
    this.bus.emit(`run:${runId}`);
    this.bus.emit("claimable");
  }

  // ---- threads ----

  async createThread(row: ThreadRow): Promise<{ row: ThreadRow; created: boolean }> {
    const existing = this.thread(row.thread_id);
    if (existing) return { row: threadOf(existing), created: false };
    this.db
      .prepare(`INSERT INTO server_threads VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(
        row.thread_id,
        row.owner,
        row.created_at,
        row.updated_at,
        JSON.stringify(row.metadata),
        row.status,
        row.values === null ? null : JSON.stringify(row.values),
        JSON.stringify(row.interrupts),
      );
    return { row, created: true };
  }

  async getThread(threadId: string): Promise<ThreadRow | undefined> {
    const r = this.thread(threadId);
    return r && threadOf(r);
  }

  async searchThreads(q: ThreadSearch): Promise<ThreadRow[]> {
    const where: string[] = [];
    const args: unknown[] = [];
    if (q.owner !== undefined) {
      where.push(q.owner === null ? "owner IS NULL" : "owner = ?");
      if (q.owner !== null) args.push(q.owner);
    }
    if (q.status !== undefined) {
      where.push("status = ?");
      args.push(q.status);
    }
    if (q.ids !== undefined) {
      where.push(`thread_id IN (${q.ids.map(() => "?").join(", ") || "NULL"})`);
      args.push(...q.ids);
    }
    const sort = q.sort_by ?? "created_at";
    const order = q.sort_order === "asc" ? "ASC" : "DESC";
    const sql = `SELECT * FROM server_threads ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY ${sort} ${order}, rowid ${order}`;
    const rows = (this.db.prepare(sql).all(...args) as ThreadRecord[]).map(threadOf);
    // metadata filters are JSON equality per key: simplest done on the decoded rows
    const filter = Object.entries(q.metadata ?? {});
    const kept = rows.filter((t) => filter.every(([k, v]) => JSON.stringify(t.metadata[k]) === JSON.stringify(v)));
    return kept.slice(q.offset, q.offset + q.limit);
  }

  async updateThread(threadId: string, patch: ThreadPatch): Promise<ThreadRow | undefined> {
    const r = this.thread(threadId);
    if (!r) return undefined;
    const t = threadOf(r);
    const next: ThreadRow = {
      ...t,
      metadata: patch.metadata ? { ...t.metadata, ...patch.metadata } : t.metadata,
      status: patch.status ?? t.status,
      values: patch.values !== undefined ? patch.values : t.values,
      interrupts: patch.interrupts ?? t.interrupts,
      updated_at: now(),
    };
    this.db
      .prepare(`UPDATE server_threads SET metadata = ?, status = ?, state_values = ?, interrupts = ?, updated_at = ? WHERE thread_id = ?`)
      .run(
        JSON.stringify(next.metadata),
        next.status,
        next.values === null ? null : JSON.stringify(next.values),
        JSON.stringify(next.interrupts),
        next.updated_at,
        threadId,
      );
    return next;
  }

  async deleteThread(threadId: string): Promise<boolean> {
    if (!this.thread(threadId)) return false;
    const runs = this.db.prepare(`SELECT run_id, status FROM server_runs WHERE thread_id = ?`).all(threadId) as RunRecord[];
    this.db.prepare(`DELETE FROM server_runs WHERE thread_id = ?`).run(threadId);
    this.db.prepare(`DELETE FROM server_threads WHERE thread_id = ?`).run(threadId);
    for (const r of runs) {
      if (r.status === "running") this.bus.emit(`cancel:${r.run_id}`, "interrupt");
      this.events.forget(r.run_id);
      this.changed(r.run_id);
    }
    await this.saver.deleteThread(threadId);
    return true;
  }

  // ---- runs ----

  async createRun(row: RunRow): Promise<RunRow> {
    const active = this.db
      .prepare(`SELECT * FROM server_runs WHERE thread_id = ? AND status IN ${ACTIVE} ORDER BY seq`)
      .all(row.thread_id) as RunRecord[];
    const strategy = row.multitask_strategy;
    if (active.length > 0 && strategy === "reject") throw new ThreadBusy(row.thread_id);
    this.db
      .prepare(
        `INSERT INTO server_runs (run_id, thread_id, assistant_id, owner, created_at, updated_at, status, metadata, multitask_strategy, kwargs, attempt)
         VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?, 0)`,
      )
      .run(
        row.run_id,
        row.thread_id,
        row.assistant_id,
        row.owner,
        row.created_at,
        row.updated_at,
        JSON.stringify(row.metadata),
        strategy,
        JSON.stringify(row.kwargs),
      );
    this.db.prepare(`UPDATE server_threads SET status = 'busy', updated_at = ? WHERE thread_id = ?`).run(now(), row.thread_id);
    if (strategy === "interrupt" || strategy === "rollback") {
      for (const r of active) this.cancelNow(r, strategy);
    }
    this.bus.emit("claimable");
    return runOf(this.run(row.run_id)!);
  }

  async getRun(threadId: string, runId: string): Promise<RunRow | undefined> {
    const r = this.run(runId);
    return r && r.thread_id === threadId ? runOf(r) : undefined;
  }

  async listRuns(threadId: string, q: { limit: number; offset: number; status?: RunStatus }): Promise<RunRow[]> {
    const rows = (
      q.status
        ? this.db.prepare(`SELECT * FROM server_runs WHERE thread_id = ? AND status = ? ORDER BY seq DESC LIMIT ? OFFSET ?`).all(threadId, q.status, q.limit, q.offset)
        : this.db.prepare(`SELECT * FROM server_runs WHERE thread_id = ? ORDER BY seq DESC LIMIT ? OFFSET ?`).all(threadId, q.limit, q.offset)
    ) as RunRecord[];
    return rows.map(runOf);
  }

  async deleteRun(threadId: string, runId: string): Promise<boolean> {
    const r = this.run(runId);
    if (!r || r.thread_id !== threadId || r.status === "pending" || r.status === "running") return false;
    this.db.prepare(`DELETE FROM server_runs WHERE run_id = ?`).run(runId);
    this.changed(runId);
    return true;
  }

  async cancelRun(threadId: string, runId: string, action: CancelAction): Promise<boolean> {
    const r = this.run(runId);
    if (!r || r.thread_id !== threadId || (r.status !== "pending" && r.status !== "running")) return false;
    this.cancelNow(r, action);
    return true;
  }

  /** a pending run ends here; a running one is told through its worker's `onCancel` */
  private cancelNow(r: RunRecord, action: CancelAction): void {
    if (r.status === "pending") {
      if (action === "rollback") this.db.prepare(`DELETE FROM server_runs WHERE run_id = ?`).run(r.run_id);
      else this.db.prepare(`UPDATE server_runs SET status = 'interrupted', cancel_action = ?, updated_at = ? WHERE run_id = ?`).run(action, now(), r.run_id);
      this.events.publish(r.run_id, { event: "end", data: null });
      this.settleThread(r.thread_id);
      this.changed(r.run_id);
      return;
    }
    this.db.prepare(`UPDATE server_runs SET cancel_action = ?, updated_at = ? WHERE run_id = ?`).run(action, now(), r.run_id);
    this.bus.emit(`cancel:${r.run_id}`, action);
  }

  /** a thread with no active run left is idle (unless a finishing run set interrupted/error) */
  private settleThread(threadId: string): void {
    const left = this.db.prepare(`SELECT COUNT(*) AS n FROM server_runs WHERE thread_id = ? AND status IN ${ACTIVE}`).get(threadId) as { n: number };
    if (left.n === 0) {
      this.db.prepare(`UPDATE server_threads SET status = 'idle', updated_at = ? WHERE thread_id = ? AND status = 'busy'`).run(now(), threadId);
    }
  }

  async waitForRun(threadId: string, runId: string, signal?: AbortSignal): Promise<RunRow | undefined> {
    for (;;) {
      const r = this.run(runId);
      if (!r || r.thread_id !== threadId) return undefined;
      if (r.status !== "pending" && r.status !== "running") return runOf(r);
      if (signal?.aborted) return runOf(r);
      await this.next(`run:${runId}`, signal);
    }
  }

  /** resolves at the next emit of `name` or when `signal` aborts */
  private next(name: string, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.bus.off(name, done);
        signal?.removeEventListener("abort", done);
        resolve();
      };
      this.bus.on(name, done);
      signal?.addEventListener("abort", done, { once: true });
    });
  }

  // ---- queue ----

  async claimRun(signal: AbortSignal): Promise<RunRow | undefined> {
    const pick = this.db.prepare(
      `SELECT * FROM server_runs r WHERE r.status = 'pending'
         AND NOT EXISTS (SELECT 1 FROM server_runs x WHERE x.thread_id = r.thread_id AND x.status = 'running')
         AND NOT EXISTS (SELECT 1 FROM server_runs y WHERE y.thread_id = r.thread_id AND y.status = 'pending' AND y.seq < r.seq)
       ORDER BY r.seq LIMIT 1`,
    );
    while (!signal.aborted) {
      const r = pick.get() as RunRecord | undefined;
      if (r) {
        this.db.prepare(`UPDATE server_runs SET status = 'running', attempt = attempt + 1, updated_at = ? WHERE run_id = ?`).run(now(), r.run_id);
        this.bus.emit(`run:${r.run_id}`);
        return runOf(this.run(r.run_id)!);
      }
      await this.next("claimable", signal);
    }
    return undefined;
  }

  async markStarted(runId: string, checkpointBefore: string | null): Promise<void> {
    this.db.prepare(`UPDATE server_runs SET checkpoint_before = ? WHERE run_id = ? AND checkpoint_before IS NULL`).run(JSON.stringify(checkpointBefore), runId);
  }

  async heartbeat(): Promise<void> {
    // one process: a run's worker is alive as long as the process is (restarts requeue in the constructor)
  }

  async finishRun(runId: string, status: RunStatus, result: Json | undefined, thread: ThreadPatch): Promise<void> {
    const r = this.run(runId);
    if (!r) return; // its thread was deleted meanwhile
    if (status === "interrupted" && r.cancel_action === "rollback") {
      this.db.prepare(`DELETE FROM server_runs WHERE run_id = ?`).run(runId);
    } else {
      this.db
        .prepare(`UPDATE server_runs SET status = ?, result = ?, updated_at = ? WHERE run_id = ?`)
        .run(status, result === undefined ? null : JSON.stringify(result), now(), runId);
    }
    const more = this.db.prepare(`SELECT COUNT(*) AS n FROM server_runs WHERE thread_id = ? AND status IN ${ACTIVE}`).get(r.thread_id) as { n: number };
    await this.updateThread(r.thread_id, more.n > 0 ? { ...thread, status: "busy" } : thread);
    this.changed(runId);
  }

  async requeue(runId: string): Promise<void> {
    this.db.prepare(`UPDATE server_runs SET status = 'pending', updated_at = ? WHERE run_id = ? AND status = 'running'`).run(now(), runId);
    this.changed(runId);
  }

  onCancel(runId: string, listener: (action: CancelAction) => void): () => void {
    const name = `cancel:${runId}`;
    this.bus.on(name, listener);
    return () => this.bus.off(name, listener);
  }

  // ---- stream events ----

  async publish(runId: string, event: Omit<StreamEvent, "seq">): Promise<void> {
    this.events.publish(runId, event);
  }

  async *subscribe(runId: string, after: number, signal: AbortSignal): AsyncIterable<StreamEvent> {
    const r = this.run(runId);
    if (!this.events.has(runId) && (!r || (r.status !== "pending" && r.status !== "running"))) {
      yield { seq: after + 1, event: "end", data: null };
      return;
    }
    yield* this.events.subscribe(runId, after, signal);
  }

  async close(): Promise<void> {
    this.bus.removeAllListeners();
    this.saver.close();
  }
}
