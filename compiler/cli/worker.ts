/**
 * `graphc worker files… --postgres URL`: a worker process of the Postgres scale-out (docs/server.md,
 * "Scale-out on Postgres"). It compiles and loads the graphs as `graphc serve` does, then claims runs from
 * the queue the API processes (`graphc serve --postgres URL`) fill, until SIGINT/SIGTERM: then it drains
 * (running runs get `--drain-ms` to finish) and requeues what is left.
 */
import { resolve } from "node:path";
import { type CliIO, EXIT, UsageError } from "./io.ts";

export interface PostgresFlags {
  postgres?: string;
  schema?: string;
  heartbeatMs?: string;
}

export interface WorkerFlags extends PostgresFlags {
  data?: string;
  concurrency?: string;
  drainMs?: string;
}

/** A flag's value as a positive integer (undefined when not given); a usage error otherwise. */
export function positiveInt(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${flag} must be a positive integer, not "${value}"`);
  return n;
}

/** The Postgres URL (flag, else GRAPHC_POSTGRES_URL), schema and heartbeat: what every scale-out process needs. */
export function postgresOptions(io: CliIO, opts: PostgresFlags, command: string) {
  const url = opts.postgres ?? io.env["GRAPHC_POSTGRES_URL"];
  if (url === undefined || url === "") throw new UsageError(`${command} needs --postgres <url> (or GRAPHC_POSTGRES_URL)`);
  const intervalMs = positiveInt("--heartbeat-ms", opts.heartbeatMs);
  return {
    url,
    schema: opts.schema ?? io.env["GRAPHC_POSTGRES_SCHEMA"] ?? "graphc",
    ...(intervalMs === undefined ? {} : { heartbeat: { intervalMs } }),
  };
}

export async function workerCommand(io: CliIO, files: readonly string[], opts: WorkerFlags): Promise<number> {
  if (files.length === 0) throw new UsageError("graphc worker needs the .graph files whose graphs it runs");
  const pg = postgresOptions(io, opts, "graphc worker");
  const { work } = await import("@graphc/server");
  const worker = await work({
    ...pg,
    files: files.map((f) => resolve(io.cwd, f)),
    dataDir: resolve(io.cwd, opts.data ?? ".graphc-server"),
    concurrency: positiveInt("--concurrency", opts.concurrency),
    drainMs: positiveInt("--drain-ms", opts.drainMs),
  });
  io.stdout(`graphc worker ${worker.workerId} ready: ${worker.graphs.join(", ")} (Postgres schema ${pg.schema})\n`);
  await new Promise<void>((done) => {
    if (io.signal === undefined || io.signal.aborted) return done();
    io.signal.addEventListener("abort", () => done(), { once: true });
  });
  await worker.close();
  io.stdout(`graphc worker ${worker.workerId} stopped\n`);
  return EXIT.ok;
}
