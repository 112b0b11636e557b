/**
 * How the SQL savers tell a fresh database (setup creates the tables) from one whose tables vanished after
 * setup (an error: reading it as empty threads would silently lose every conversation).
 *
 * Setup creates, besides the data tables, a marker table `graphc_meta`. When setup starts:
 * - none of the data tables and no marker: a fresh database, everything is created;
 * - all data tables: in use (the marker is added if missing: a database from before the marker existed);
 * - anything else (some data tables, or the marker without them): tables were dropped after setup, a
 *   `CORRUPT_CHECKPOINT` naming the missing ones. Only dropping the marker too looks like a fresh database.
 *
 * The check and the creation run in one transaction (SQLite: BEGIN IMMEDIATE; Postgres: under setup's
 * advisory lock), so processes setting up the same database at once never see each other's half-made set.
 */
import { CorruptCheckpointError } from "./corrupt.ts";

export const DATA_TABLES = ["graphc_checkpoints", "graphc_blobs", "graphc_writes"] as const;
export const MARKER_TABLE = "graphc_meta";

const TABLES_HINT =
  "Restore the database from a backup; to start from scratch instead, drop the remaining graphc_ tables " +
  "(graphc_meta included) or use a new database.";

/** The error for the set of graphc tables found at setup (`where`: the file or schema), or undefined when it is fine. */
export function missingTables(present: ReadonlySet<string>, where: string): CorruptCheckpointError | undefined {
  const missing = DATA_TABLES.filter((t) => !present.has(t));
  if (missing.length === 0) return undefined;
  if (missing.length === DATA_TABLES.length && !present.has(MARKER_TABLE)) return undefined;
  return new CorruptCheckpointError(
    {},
    `table${missing.length === 1 ? "" : "s"} ${missing.join(", ")} missing from ${where}, which graphc set up before ` +
      `(${[...present].sort().join(", ")} still there): they were dropped after setup`,
    undefined,
    TABLES_HINT,
  );
}

/** The error for a statement that found a graphc table gone while the saver was open. */
export function tableGone(table: string, where: string, cause: unknown): CorruptCheckpointError {
  return new CorruptCheckpointError({}, `table ${table} is missing from ${where}: it was dropped after setup`, cause, TABLES_HINT);
}
