/**
 * The long-term Store on SQLite (better-sqlite3): memory shared by every thread of an app, on disk.
 *
 *   const store = new SqliteStore("app.db");          // or an open Database; { index: { embed, fields } }
 *   const graph = compileGraph(Spec, { checkpointer: new SqliteSaver("app.db"), store });
 *
 * Tables `graphc_store` and `graphc_store_vectors` (created in the constructor). Filters and similarity
 * (cosine, over the vectors of the prefix's items) run in JavaScript: SQLite has no vector functions.
 */
import Database from "better-sqlite3";
import { type IndexConfig, RowStore, type StoreRow, type StoreRows, type VectorRow } from "@graphc/runtime/saver";

type DB = Database.Database;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS graphc_store (
  ns TEXT NOT NULL,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  created INTEGER NOT NULL,
  updated INTEGER NOT NULL,
  expires INTEGER,
  PRIMARY KEY (ns, key)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS graphc_store_vectors (
  ns TEXT NOT NULL,
  key TEXT NOT NULL,
  field TEXT NOT NULL,
  vector TEXT NOT NULL,
  PRIMARY KEY (ns, key, field)
) WITHOUT ROWID;
`;

/** `ns` is the prefix or below it; parameters: prefix three times */
const UNDER = "(? = '' OR ns = ? OR substr(ns, 1, length(?) + 1) = ? || '.')";
const LIVE = "(expires IS NULL OR expires > ?)";

class SqliteRows implements StoreRows {
  private readonly q;

  constructor(private readonly db: DB) {
    db.exec(SCHEMA);
    this.q = {
      get: db.prepare<[string, string, number], StoreRow>(`SELECT * FROM graphc_store WHERE ns = ? AND key = ? AND ${LIVE}`),
      put: db.prepare(
        "INSERT INTO graphc_store (ns, key, value, created, updated, expires) VALUES (?, ?, ?, ?, ?, ?) " +
          "ON CONFLICT (ns, key) DO UPDATE SET value = excluded.value, updated = excluded.updated, expires = excluded.expires",
      ),
      dropVectors: db.prepare("DELETE FROM graphc_store_vectors WHERE ns = ? AND key = ?"),
      putVector: db.prepare("INSERT INTO graphc_store_vectors (ns, key, field, vector) VALUES (?, ?, ?, ?)"),
      remove: db.prepare("DELETE FROM graphc_store WHERE ns = ? AND key = ?"),
      scan: db.prepare<[string, string, string, string, number], StoreRow>(`SELECT * FROM graphc_store WHERE ${UNDER} AND ${LIVE} ORDER BY ns, key`),
      namespaces: db.prepare<[number], { ns: string }>(`SELECT DISTINCT ns FROM graphc_store WHERE ${LIVE}`),
      vectors: db.prepare<[string, string, string, string, number], { ns: string; key: string; field: string; vector: string }>(
        `SELECT v.ns, v.key, v.field, v.vector FROM graphc_store_vectors v JOIN graphc_store s USING (ns, key) WHERE ${UNDER.replace(/ns/g, "s.ns")} AND ${LIVE}`,
      ),
      sweep: db.prepare("DELETE FROM graphc_store WHERE expires IS NOT NULL AND expires <= ?"),
      sweepVectors: db.prepare("DELETE FROM graphc_store_vectors WHERE NOT EXISTS (SELECT 1 FROM graphc_store s WHERE s.ns = graphc_store_vectors.ns AND s.key = graphc_store_vectors.key)"),
    };
  }

  async get(ns: string, key: string, now: number): Promise<StoreRow | undefined> {
    return this.q.get.get(ns, key, now);
  }

  async upsert(row: StoreRow, vectors: VectorRow[]): Promise<void> {
    this.db.transaction(() => {
      this.q.put.run(row.ns, row.key, row.value, row.created, row.updated, row.expires);
      this.q.dropVectors.run(row.ns, row.key);
      for (const v of vectors) this.q.putVector.run(v.ns, v.key, v.field, JSON.stringify(v.vector));
      // expired items go when something is written (reads already skip them)
      this.q.sweep.run(row.updated);
      this.q.sweepVectors.run();
    })();
  }

  async remove(ns: string, key: string): Promise<void> {
    this.db.transaction(() => {
      this.q.remove.run(ns, key);
      this.q.dropVectors.run(ns, key);
    })();
  }

  async scan(prefix: string, now: number): Promise<StoreRow[]> {
    return this.q.scan.all(prefix, prefix, prefix, prefix, now);
  }

  async namespaces(now: number): Promise<string[]> {
    return this.q.namespaces.all(now).map((r) => r.ns);
  }

  async vectors(prefix: string, now: number): Promise<VectorRow[]> {
    return this.q.vectors.all(prefix, prefix, prefix, prefix, now).map((r) => ({ ns: r.ns, key: r.key, field: r.field, vector: JSON.parse(r.vector) as number[] }));
  }
}

export class SqliteStore extends RowStore {
  readonly db: DB;
  private readonly ownsDb: boolean;

  /** `database`: a file path (":memory:" for a private one) or an open better-sqlite3 Database (shared with a SqliteSaver). */
  constructor(database: string | DB, options: { index?: IndexConfig } = {}) {
    const owns = typeof database === "string";
    const db = owns ? new Database(database) : database;
    if (owns) db.pragma("journal_mode = WAL");
    super(new SqliteRows(db), options.index);
    this.db = db;
    this.ownsDb = owns;
  }

  /** Closes the database if this store opened it. */
  close(): void {
    if (this.ownsDb && this.db.open) this.db.close();
  }
}
