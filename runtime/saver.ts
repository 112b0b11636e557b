/**
 * @graphc/runtime/saver — the building blocks of a database checkpoint saver: `StoredSaver` does the
 * checkpoint protocol (ids, versions, pending writes, paging, the delta layout of delta.ts) over a small
 * row store, so a saver package (@graphc/checkpoint-sqlite, @graphc/checkpoint-postgres) only maps rows
 * to tables. A subpath of its own so that generated code and browser bundles never pull it in.
 */
export * from "./checkpoint/stored-saver.ts";
export { MAX_DEPTH, type BlobRow } from "./checkpoint/delta.ts";
export { CorruptCheckpointError } from "./checkpoint/corrupt.ts";
export { DATA_TABLES, MARKER_TABLE, missingTables, tableGone } from "./checkpoint/table-check.ts";
export { lockKey } from "./checkpoint/config-ids.ts";
export { tryUntil } from "./checkpoint/lock-wait.ts";
export type { LockThreadOptions, ThreadLock } from "./checkpoint/types.ts";
// the long-term Store over rows (store/row-store.ts): the SQLite and Postgres stores map its rows to tables
export { RowStore, type StoreRow, type StoreRows, type VectorRow } from "./store/row-store.ts";
export type { IndexConfig } from "./store/types.ts";
// for stores that sort rows themselves (SQL's binary collation order)
export { compareCodePoints } from "./checkpoint/memory.ts";
