/**
 * Stream chunks across processes: the worker running a run appends its events to `graphc_run_events`
 * and NOTIFYs the run id; every API process LISTENs on one connection and, for the runs its clients
 * stream or wait on, reads the rows past the last one it sent. A table rather than NOTIFY payloads:
 * payloads are capped at 8000 bytes, and rows let `join` and a reconnecting client (Last-Event-ID) replay.
 */
import type pg from "pg";
import type { Names } from "./schema.ts";
import type { RunStatus } from "../backend.ts";

export interface StoredEvent {
  seq: number;
  event: string;
  /** the event's data, JSON text */
  data: string;
}

/**
 * The events of one run attempt, written in order in batches: an event waits at most for the write in
 * flight, so a step's chunks cost one round trip, not one each.
 */
export class EventWriter {
  private buffer: StoredEvent[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private failed: unknown;
  /** the seq the next event gets */
  private next: number | undefined;
  /** whether the run's `end` was emitted */
  ended = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly n: Names,
    private readonly runId: string,
  ) {}

  /** Resolves once the event is stored; rejects when its batch (or an earlier one) failed. */
  emit(event: string, data: unknown): Promise<void> {
    if (event === "end") this.ended = true;
    this.buffer.push({ seq: 0, event, data: JSON.stringify(data) ?? "null" });
    if (this.buffer.length === 1) this.flushing = this.flushing.then(() => this.flush(this.pool));
    return this.flushing.then(() => {
      if (this.failed !== undefined) throw this.failed;
    });
  }

  /**
   * Writes what is left and then `last` (the run's `end`) with `tx`, the run's final transaction, once
   * the writes in flight are done.
   */
  async close(tx: pg.PoolClient, last?: { event: string; data: unknown }): Promise<void> {
    await this.flushing;
    if (this.failed !== undefined) throw this.failed;
    if (last !== undefined && !(last.event === "end" && this.ended)) this.buffer.push({ seq: 0, event: last.event, data: JSON.stringify(last.data) ?? "null" });
    await this.flush(tx);
    if (this.failed !== undefined) throw this.failed;
  }

  /** Writes what is left, outside any transaction (the run is being requeued). */
  async drain(): Promise<void> {
    await this.flushing;
    await this.flush(this.pool);
    if (this.failed !== undefined) throw this.failed;
  }

  private async flush(on: pg.Pool | pg.PoolClient): Promise<void> {
    const batch = this.buffer;
    if (batch.length === 0) return;
    this.buffer = [];
    try {
      // the run's events continue after those of an earlier attempt (another worker, before a requeue)
      this.next ??= await this.lastSeq(on) + 1;
      for (const e of batch) e.seq = this.next++;
      await on.query(
        `WITH e AS (
           INSERT INTO ${this.n.events} (run_id, seq, event, data)
           SELECT $1, b.seq, b.event, b.data FROM unnest($2::int[], $3::text[], $4::text[]) AS b(seq, event, data)
           ON CONFLICT DO NOTHING
         )
         SELECT pg_notify($5, $1)`,
        [this.runId, batch.map((e) => e.seq), batch.map((e) => e.event), batch.map((e) => e.data), this.n.eventChannel],
      );
    } catch (e) {
      this.failed ??= e;
    }
  }

  private async lastSeq(on: pg.Pool | pg.PoolClient): Promise<number> {
    const r = await on.query<{ n: number }>(`SELECT COALESCE(MAX(seq), 0)::int AS n FROM ${this.n.events} WHERE run_id = $1`, [this.runId]);
    return r.rows[0]!.n;
  }
}

const TERMINAL: ReadonlySet<string> = new Set(["success", "error", "timeout", "interrupted"]);

interface Watch {
  wake: () => void;
}

/**
 * One LISTEN connection per API process; `follow(runId)` yields the run's events after `after` until its
 * `end` event, or until the run has ended (or was deleted) and every event it wrote was yielded. A poll every `pollMs` covers a
 * notification lost while the connection was being replaced.
 */
export class EventTail {
  private listener: pg.PoolClient | undefined;
  private readonly watches = new Map<string, Set<Watch>>();
  private closed = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly n: Names,
    private readonly pollMs = 1000,
  ) {}

  async start(): Promise<void> {
    const client = await this.pool.connect();
    client.on("notification", (m) => {
      for (const w of this.watches.get(m.payload ?? "") ?? []) w.wake();
    });
    client.on("error", () => {
      // the connection died: drop it (not back to the pool) and listen again; the polls cover the gap
      client.release(true);
      if (this.listener === client) this.listener = undefined;
      if (!this.closed) setTimeout(() => void this.start().catch(() => undefined), 200);
    });
    await client.query(`LISTEN "${this.n.eventChannel}"`);
    this.listener = client;
  }

  async stop(): Promise<void> {
    this.closed = true;
    for (const set of this.watches.values()) for (const w of set) w.wake();
    const client = this.listener;
    this.listener = undefined;
    if (client !== undefined) {
      await client.query(`UNLISTEN "${this.n.eventChannel}"`).catch(() => undefined);
      client.release();
    }
  }

  /** The run's status now, `undefined` once it was deleted. */
  async status(runId: string): Promise<RunStatus | undefined> {
    const r = await this.pool.query<{ status: RunStatus }>(`SELECT status FROM ${this.n.runs} WHERE run_id = $1`, [runId]);
    return r.rows[0]?.status;
  }

  /** Resolves once the run has ended; its final status (`undefined`: deleted). */
  async done(runId: string, signal?: AbortSignal): Promise<RunStatus | undefined> {
    let status: RunStatus | undefined;
    for await (const _ of this.follow(runId, 2 ** 31 - 1, signal, (s) => (status = s))) {
      // no events asked for: only the end
    }
    return status;
  }

  async *follow(
    runId: string,
    after = 0,
    signal?: AbortSignal,
    onEnd?: (status: RunStatus | undefined) => void,
  ): AsyncGenerator<StoredEvent> {
    let woken: () => void = () => undefined;
    let pending = true;
    const watch: Watch = {
      wake: () => {
        pending = true;
        woken();
      },
    };
    let set = this.watches.get(runId);
    if (set === undefined) this.watches.set(runId, (set = new Set()));
    set.add(watch);
    const onAbort = () => watch.wake();
    signal?.addEventListener("abort", onAbort);
    try {
      let last = after;
      for (;;) {
        if (signal?.aborted || this.closed) return;
        if (!pending) {
          await new Promise<void>((resolve) => {
            woken = resolve;
            setTimeout(resolve, this.pollMs).unref();
          });
          woken = () => undefined;
          continue;
        }
        pending = false;
        // the status and the events in one statement, one snapshot: a run seen ended has all its events in it
        const rows = await this.pool.query<{ status: RunStatus | null; seq: number | null; event: string; data: string }>(
          `SELECT s.status, e.seq, e.event, e.data FROM (SELECT (SELECT status FROM ${this.n.runs} WHERE run_id = $1) AS status) s
           LEFT JOIN ${this.n.events} e ON e.run_id = $1 AND e.seq > $2 ORDER BY e.seq`,
          [runId, last],
        );
        const status = rows.rows[0]?.status ?? undefined;
        for (const e of rows.rows) {
          if (e.seq === null) continue;
          last = e.seq;
          yield { seq: e.seq, event: e.event, data: e.data };
          if (e.event === "end") return;
        }
        if (status === undefined || TERMINAL.has(status)) {
          onEnd?.(status);
          return;
        }
      }
    } finally {
      signal?.removeEventListener("abort", onAbort);
      set.delete(watch);
      if (set.size === 0) this.watches.delete(runId);
    }
  }
}
