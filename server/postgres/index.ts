/** The Postgres scale-out of `@graphc/server` (docs/server.md, "Scale-out on Postgres"). */
export { PostgresBackend, type PostgresBackendOptions } from "./backend.ts";
export { work, type WorkOptions, type RunningWorker } from "./worker-process.ts";
export type { HeartbeatOptions } from "./heartbeat.ts";
