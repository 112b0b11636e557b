/**
 * @graphc/runtime/saver — the building blocks of a database checkpoint saver: `StoredSaver` does the
 * checkpoint protocol (ids, versions, pending writes, paging, the delta layout of delta.ts) over a small
 * row store, so a saver package (@graphc/checkpoint-sqlite, @graphc/checkpoint-postgres) only maps rows
 * to tables. A subpath of its own so that generated code and browser bundles never pull it in.
 */
export * from "./checkpoint/stored-saver.ts";
export type { BlobRow } from "./checkpoint/delta.ts";
