/**
 * The Postgres saver's half of runtime/checkpoint/table-check.ts: which graphc tables setup finds in the
 * schema, the marker table it adds, and a statement that hit a table dropped after setup (SQLSTATE 42P01)
 * turned into CORRUPT_CHECKPOINT naming the schema. See docs/checkpoints.md, "Corrupted data".
 */
import type pg from "pg";
import { DATA_TABLES, MARKER_TABLE, missingTables, tableGone } from "@graphc/runtime/saver";

/** Checks the tables already in `schema` (inside setup's transaction, after its advisory lock). */
export async function checkTables(client: pg.PoolClient, schema: string): Promise<void> {
  const { rows } = await client.query<{ relname: string }>(
    `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND c.relname = ANY($2::text[])`,
    [schema, [...DATA_TABLES, MARKER_TABLE]],
  );
  const refused = missingTables(new Set(rows.map((r) => r.relname)), `schema ${JSON.stringify(schema)}`);
  if (refused !== undefined) throw refused;
}

/** Creates the marker table (`quoted`: the schema, quoted) once the data tables exist. */
export async function createMarker(client: pg.PoolClient, quoted: string): Promise<void> {
  await client.query(
    `CREATE TABLE IF NOT EXISTS ${quoted}.${MARKER_TABLE} (key text PRIMARY KEY, value text NOT NULL);
     INSERT INTO ${quoted}.${MARKER_TABLE} (key, value) VALUES ('layout', '1') ON CONFLICT DO NOTHING;`,
  );
}

/** `e` as CORRUPT_CHECKPOINT when a statement found a graphc table missing; otherwise `e` itself. */
export function translate(e: unknown, schema: string): unknown {
  const err = e as { code?: unknown; message?: unknown };
  if (err?.code !== "42P01" || typeof err.message !== "string") return e;
  const table = /relation "(?:[^"]*\.)?(graphc_\w+)" does not exist/.exec(err.message)?.[1];
  return table === undefined ? e : tableGone(table, `schema ${JSON.stringify(schema)}`, e);
}
