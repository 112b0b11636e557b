/** Thread rows in Postgres (create, get, search, patch, delete); runs.ts locks them around run decisions. */
import type pg from "pg";
import type { Json, ThreadPatch, ThreadRow, ThreadSearch, ThreadStatus } from "../backend.ts";
import type { Names } from "./schema.ts";

const THREAD_COLUMNS = `thread_id, owner, created_at, updated_at, metadata, status, "values", interrupts`;

interface ThreadRecord {
  thread_id: string;
  owner: string | null;
  created_at: Date;
  updated_at: Date;
  metadata: Json;
  status: ThreadStatus;
  values: Json | null;
  interrupts: Record<string, unknown[]>;
}

function toThread(r: ThreadRecord): ThreadRow {
  return { ...r, created_at: r.created_at.toISOString(), updated_at: r.updated_at.toISOString() };
}

const SORTABLE: ReadonlySet<string> = new Set(["thread_id", "status", "created_at", "updated_at"]);

export class PostgresThreads {
  constructor(
    private readonly pool: pg.Pool,
    private readonly n: Names,
  ) {}

  async create(row: ThreadRow): Promise<{ row: ThreadRow; created: boolean }> {
    const inserted = await this.pool.query<ThreadRecord>(
      `INSERT INTO ${this.n.threads} (${THREAD_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (thread_id) DO NOTHING RETURNING ${THREAD_COLUMNS}`,
      [row.thread_id, row.owner, row.created_at, row.updated_at, row.metadata, row.status, json(row.values), row.interrupts],
    );
    if (inserted.rows[0] !== undefined) return { row: toThread(inserted.rows[0]), created: true };
    const existing = await this.get(row.thread_id);
    // deleted between the two statements: try again
    return existing === undefined ? this.create(row) : { row: existing, created: false };
  }

  async get(threadId: string): Promise<ThreadRow | undefined> {
    const r = await this.pool.query<ThreadRecord>(`SELECT ${THREAD_COLUMNS} FROM ${this.n.threads} WHERE thread_id = $1`, [threadId]);
    return r.rows[0] && toThread(r.rows[0]);
  }

  async search(q: ThreadSearch): Promise<ThreadRow[]> {
    const where: string[] = [];
    const args: unknown[] = [];
    if (q.owner !== undefined) where.push(q.owner === null ? "owner IS NULL" : `owner = $${args.push(q.owner)}`);
    // each metadata key equal as JSON (not containment: {a: {b: 1}} must not match {a: {b: 1, c: 2}})
    for (const [key, value] of Object.entries(q.metadata ?? {})) {
      where.push(`metadata -> $${args.push(key)} = $${args.push(JSON.stringify(value))}::jsonb`);
    }
    if (q.ids !== undefined) where.push(`thread_id = ANY($${args.push(q.ids)})`);
    if (q.status !== undefined) where.push(`status = $${args.push(q.status)}`);
    const sort = q.sort_by !== undefined && SORTABLE.has(q.sort_by) ? q.sort_by : "created_at";
    const order = q.sort_order === "asc" ? "ASC" : "DESC";
    const r = await this.pool.query<ThreadRecord>(
      `SELECT ${THREAD_COLUMNS} FROM ${this.n.threads}` +
        (where.length > 0 ? ` WHERE ${where.join(" AND ")}` : "") +
        ` ORDER BY ${sort} ${order}, thread_id ${order} LIMIT $${args.push(q.limit)} OFFSET $${args.push(q.offset)}`,
      args,
    );
    return r.rows.map(toThread);
  }

  async update(threadId: string, patch: ThreadPatch): Promise<ThreadRow | undefined> {
    const client = await this.pool.connect();
    try {
      return await patchThread(client, this.n, threadId, patch);
    } finally {
      client.release();
    }
  }

  /** Deletes the row; its runs and their events go with it (foreign keys ON DELETE CASCADE). */
  async delete(tx: pg.PoolClient, threadId: string): Promise<boolean> {
    const r = await tx.query(`DELETE FROM ${this.n.threads} WHERE thread_id = $1`, [threadId]);
    return r.rowCount === 1;
  }
}

/** Applies a patch (metadata merged key by key, other fields replaced) and bumps `updated_at`. */
export async function patchThread(on: pg.PoolClient, n: Names, threadId: string, patch: ThreadPatch): Promise<ThreadRow | undefined> {
  const sets = ["updated_at = now()"];
  const args: unknown[] = [threadId];
  if (patch.metadata !== undefined) sets.push(`metadata = metadata || $${args.push(patch.metadata)}::jsonb`);
  if (patch.status !== undefined) sets.push(`status = $${args.push(patch.status)}`);
  if (patch.values !== undefined) sets.push(`"values" = $${args.push(json(patch.values))}::jsonb`);
  if (patch.interrupts !== undefined) sets.push(`interrupts = $${args.push(patch.interrupts)}::jsonb`);
  const r = await on.query<ThreadRecord>(`UPDATE ${n.threads} SET ${sets.join(", ")} WHERE thread_id = $1 RETURNING ${THREAD_COLUMNS}`, args);
  return r.rows[0] && toThread(r.rows[0]);
}

/** A JSON value as a parameter: pg sends objects as JSON but arrays as Postgres arrays, and null as NULL. */
function json(value: Json | null): string | null {
  return value === null ? null : JSON.stringify(value);
}
