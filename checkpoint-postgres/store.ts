/**
 * The long-term Store on Postgres (`pg`): memory shared by every thread and every process of an app.
 *
 *   const store = PostgresStore.fromConnString(url, { schema: "graphc", index: { embed, fields } });
 *   await store.setup();   // optional: the first operation does it; safe from several processes at once
 *
 * Vectors are `float8[]`; similarity (cosine, best field per item) is computed in SQL, so only scores come
 * back. Filters run in JavaScript on the prefix's items (values are serde text, not jsonb).
 */
import pg from "pg";
import { inTransaction, quoteIdent } from "./sql.ts";
import { type IndexConfig, RowStore, type StoreRow, type StoreRows, type VectorRow } from "@graphc/runtime/saver";

export interface PostgresStoreOptions {
  /** schema holding the tables (created when missing); default "public" */
  schema?: string;
  index?: IndexConfig;
}

/** first key of the advisory lock that serialises setup() across processes */
const SETUP_LOCK = 0x73746f72; // "stor"

/** `ns` (of alias `t`) is the prefix $1 or below it */
const under = (t: string) => `($1 = '' OR ${t}.ns = $1 OR left(${t}.ns, length($1) + 1) = $1 || '.')`;

interface RawRow {
  ns: string;
  key: string;
  value: string;
  created: string;
  updated: string;
  expires: string | null;
}

const toRow = (r: RawRow): StoreRow => ({
  ns: r.ns,
  key: r.key,
  value: r.value,
  created: Number(r.created),
  updated: Number(r.updated),
  expires: r.expires === null ? null : Number(r.expires),
});

class PostgresRows implements StoreRows {
  private readonly items: string;
  private readonly vecs: string;
  private ready: Promise<void> | undefined;

  constructor(
    private readonly pool: pg.Pool,
    private readonly schema: string,
  ) {
    this.items = `${quoteIdent(schema)}.graphc_store`;
    this.vecs = `${quoteIdent(schema)}.graphc_store_vectors`;
  }

  setup(): Promise<void> {
    return (this.ready ??= this.create().catch((e: unknown) => {
      this.ready = undefined;
      throw e;
    }));
  }

  private create(): Promise<void> {
    return inTransaction(this.pool, async (client) => {
      await client.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [SETUP_LOCK, this.schema]);
      await client.query(`
        CREATE SCHEMA IF NOT EXISTS ${quoteIdent(this.schema)};
        CREATE TABLE IF NOT EXISTS ${this.items} (
          ns text COLLATE "C" NOT NULL, key text COLLATE "C" NOT NULL, value text NOT NULL,
          created bigint NOT NULL, updated bigint NOT NULL, expires bigint,
          PRIMARY KEY (ns, key));
        CREATE TABLE IF NOT EXISTS ${this.vecs} (
          ns text COLLATE "C" NOT NULL, key text COLLATE "C" NOT NULL, field text NOT NULL, vector float8[] NOT NULL,
          PRIMARY KEY (ns, key, field),
          FOREIGN KEY (ns, key) REFERENCES ${this.items} (ns, key) ON DELETE CASCADE);`);
    });
  }

  private async query<R extends pg.QueryResultRow>(sql: string, params: unknown[]): Promise<R[]> {
    await this.setup();
    return (await this.pool.query<R>(sql, params)).rows;
  }

  async get(ns: string, key: string, now: number): Promise<StoreRow | undefined> {
    const [r] = await this.query<RawRow>(`SELECT * FROM ${this.items} WHERE ns = $1 AND key = $2 AND (expires IS NULL OR expires > $3)`, [ns, key, now]);
    return r && toRow(r);
  }

  async upsert(row: StoreRow, vectors: VectorRow[]): Promise<void> {
    await this.setup();
    await inTransaction(this.pool, async (client) => {
      await client.query(
        `INSERT INTO ${this.items} (ns, key, value, created, updated, expires) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (ns, key) DO UPDATE SET value = excluded.value, updated = excluded.updated, expires = excluded.expires`,
        [row.ns, row.key, row.value, row.created, row.updated, row.expires],
      );
      await client.query(`DELETE FROM ${this.vecs} WHERE ns = $1 AND key = $2`, [row.ns, row.key]);
      for (const v of vectors) await client.query(`INSERT INTO ${this.vecs} (ns, key, field, vector) VALUES ($1, $2, $3, $4)`, [v.ns, v.key, v.field, v.vector]);
      // expired items go when something is written (reads already skip them); vectors follow by cascade
      await client.query(`DELETE FROM ${this.items} WHERE expires IS NOT NULL AND expires <= $1`, [row.updated]);
    });
  }

  async remove(ns: string, key: string): Promise<void> {
    await this.query(`DELETE FROM ${this.items} WHERE ns = $1 AND key = $2`, [ns, key]);
  }

  async scan(prefix: string, now: number): Promise<StoreRow[]> {
    const rows = await this.query<RawRow>(`SELECT * FROM ${this.items} t WHERE ${under("t")} AND (expires IS NULL OR expires > $2) ORDER BY ns, key`, [prefix, now]);
    return rows.map(toRow);
  }

  async namespaces(now: number): Promise<string[]> {
    return (await this.query<{ ns: string }>(`SELECT DISTINCT ns FROM ${this.items} WHERE expires IS NULL OR expires > $1`, [now])).map((r) => r.ns);
  }

  async vectors(prefix: string, now: number): Promise<VectorRow[]> {
    const rows = await this.query<{ ns: string; key: string; field: string; vector: number[] }>(
      `SELECT v.ns, v.key, v.field, v.vector FROM ${this.vecs} v JOIN ${this.items} t USING (ns, key) WHERE ${under("t")} AND (t.expires IS NULL OR t.expires > $2)`,
      [prefix, now],
    );
    return rows;
  }

  async similarity(prefix: string, query: number[], now: number): Promise<Map<string, number>> {
    const rows = await this.query<{ ns: string; key: string; score: number | null }>(
      `SELECT v.ns, v.key, max(s.score) AS score
         FROM ${this.vecs} v JOIN ${this.items} t USING (ns, key)
         CROSS JOIN LATERAL (
           SELECT coalesce(sum(a * b) / nullif(sqrt(sum(a * a)) * sqrt(sum(b * b)), 0), 0) AS score
             FROM unnest(v.vector, $3::float8[]) AS u(a, b) WHERE a IS NOT NULL AND b IS NOT NULL) s
        WHERE ${under("t")} AND (t.expires IS NULL OR t.expires > $2)
        GROUP BY v.ns, v.key`,
      [prefix, now, query],
    );
    return new Map(rows.map((r) => [`${r.ns}\u0000${r.key}`, Number(r.score ?? 0)]));
  }
}

export class PostgresStore extends RowStore {
  readonly pool: pg.Pool;
  private readonly ownsPool: boolean;

  /** A store on an existing pool (left open by `end()`). */
  constructor(pool: pg.Pool, options: PostgresStoreOptions = {}, ownsPool = false) {
    super(new PostgresRows(pool, options.schema ?? "public"), options.index);
    this.pool = pool;
    this.ownsPool = ownsPool;
  }

  /** A store with its own pool on `url` (closed by `end()`). */
  static fromConnString(url: string, options: PostgresStoreOptions = {}): PostgresStore {
    return new PostgresStore(new pg.Pool({ connectionString: url }), options, true);
  }

  /** Creates the tables when missing. Optional: the first operation does it too. */
  setup(): Promise<void> {
    return (this.rows as PostgresRows).setup();
  }

  /** Closes the pool if this store created it. */
  async end(): Promise<void> {
    if (this.ownsPool) await this.pool.end();
  }
}
