/**
 * `@graphc/server`: graphs compiled by graphc served over the LangGraph Server HTTP API
 * (docs/server.md). The storage and queue behind it are the `Backend` interface (backend.ts).
 */
export type * from "./backend.ts";
export { ThreadBusy } from "./backend.ts";
export { serve, ServerStartError, type ServeOptions, type RunningServer } from "./serve.ts";
export { createApi, type ApiGraph, type ApiOptions } from "./api.ts";
export { WorkerPool, type WorkerOptions, STREAM_MODES } from "./worker.ts";
export { SqliteBackend, type SqliteBackendOptions } from "./sqlite-backend.ts";
export { EventLog } from "./event-log.ts";
export { loadGraphs, GraphLoadError, type ServedGraph, type GraphSchemas } from "./load-graphs.ts";
export { type AuthHook, tokenTable, parseTokenFile } from "./auth.ts";
export { validate, type JsonSchema, type SchemaError } from "./validate.ts";
export * from "./postgres/index.ts";
