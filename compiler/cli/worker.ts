/**
 * `graphc worker files… --postgres URL`: a worker process of the Postgres scale-out (docs/server.md,
 * "Scale-out on Postgres"). It compiles and loads the graphs as `graphc serve` does, then claims runs from
 * the queue the API processes (`graphc serve --postgres URL`) fill, until SIGINT/SIGTERM: then it drains
 * (running runs get `--drain` ms to finish) and requeues what is left. Also the Postgres flags of
 * `graphc serve`.
 */
import { resolve } from "node:path";
import { expandFiles } from "./files.ts";
import { type CliIO, EXIT, UsageError } from "./io.ts";
import { importServer } from "./serve.ts";

export interface PostgresFlags {
  postgres?: string;
  schema?: string;
  heartbeatMs?: string;
}

export interface WorkerFlags extends PostgresFlags {
  data?: string;
  concurrency?: string;
  drain?: string;
}

interface PostgresOptions {
  schema: string;
  heartbeat?: { intervalMs: number };
}

/** the Postgres part of `@graphc/server` (typed here: graphc has no build dependency on it) */
export interface PostgresServerModule {
  PostgresBackend: { open(url: string, options: PostgresOptions): Promise<object> };
  work(options: PostgresOptions & { url: string; files: readonly string[]; dataDir: string; concurrency?: number; drainMs?: number }): Promise<{
    workerId: string;
    graphs: readonly string[];
    close(): Promise<void>;
  }>;
}

/** A flag's value as a positive integer (undefined when not given); a usage error otherwise. */
function positiveInt(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${flag} must be a positive integer, got \`${value}\``);
  return n;
}

/** The schema and heartbeat every scale-out process is given. */
export function postgresOptions(flags: PostgresFlags): PostgresOptions {
  const intervalMs = positiveInt("--heartbeat-ms", flags.heartbeatMs);
  return { schema: flags.schema ?? "graphc", ...(intervalMs === undefined ? {} : { heartbeat: { intervalMs } }) };
}

/** Resolves when the process is asked to stop (SIGINT, SIGTERM, or the io's signal in tests). */
export function untilStopped(io: CliIO): Promise<void> {
  return new Promise<void>((done) => {
    process.once("SIGTERM", done);
    process.once("SIGINT", done);
    io.signal?.addEventListener("abort", () => done(), { once: true });
  });
}

export async function workerCommand(io: CliIO, files: string[], flags: WorkerFlags): Promise<number> {
  if (flags.postgres === undefined) throw new UsageError("graphc worker needs --postgres <url>: the database the API processes use");
  const pg = postgresOptions(flags);
  const concurrency = positiveInt("--concurrency", flags.concurrency);
  const drainMs = positiveInt("--drain", flags.drain);
  const graphFiles = expandFiles(io.cwd, files).map((f) => resolve(io.cwd, f));
  const server = await importServer();
  if (!server) {
    io.stderr("graphc worker: the server is the package @graphc/server, which is not installed here.\n  npm i @graphc/server\n");
    return EXIT.usage;
  }
  const worker = await server.work({
    ...pg,
    url: flags.postgres,
    files: graphFiles,
    dataDir: resolve(io.cwd, flags.data ?? ".graphc-server"),
    ...(concurrency === undefined ? {} : { concurrency }),
    ...(drainMs === undefined ? {} : { drainMs }),
  });
  io.stdout(`graphc worker ${worker.workerId} ready: ${worker.graphs.join(", ")} (Postgres schema ${pg.schema})\n`);
  await untilStopped(io);
  io.stdout(`graphc worker ${worker.workerId}: stopping (running runs drain, the rest are requeued)\n`);
  await worker.close();
  return EXIT.ok;
}
