/**
 * `@graphc/server`: graphs compiled by graphc served over the LangGraph Server HTTP API
 * (docs/server.md). The storage and queue behind it are the `Backend` interface (backend.ts).
 */
export type * from "./backend.ts";
export { ThreadBusy } from "./backend.ts";
export * from "./postgres/index.ts";
