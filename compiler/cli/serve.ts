/**
 * `graphc serve [files.graph…] [--port 2024] [--data DIR]`: serves the graphs of the files over the
 * LangGraph Server HTTP API (docs/server.md). The server is the separate package `@graphc/server`, imported
 * when this command runs: graphc does not depend on it, and says how to install it when it is missing.
 * Runs until SIGINT or SIGTERM, then shuts down gracefully (running runs drain, the rest are requeued).
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { expandFiles } from "./files.ts";
import { type CliIO, EXIT, UsageError } from "./io.ts";
import { type PostgresFlags, type PostgresServerModule, postgresOptions } from "./worker.ts";

export interface ServeFlags extends PostgresFlags {
  port: string;
  host: string;
  data?: string;
  workers?: string;
  tokens?: string;
  maxBody?: string;
  drain: string;
  chat?: boolean;
}

/** the part of `@graphc/server` this command uses (typed here: graphc has no build dependency on it) */
export interface ServerModule {
  serve(options: {
    files: readonly string[];
    port: number;
    host: string;
    dataDir: string;
    workers: number;
    auth?: (token: string | undefined, request: Request) => string | null;
    maxBodyBytes?: number;
    drainMs: number;
    chat?: boolean;
    backend?: object;
  }): Promise<{ url: string; graphs: readonly string[]; close(): Promise<void> }>;
  tokenTable(table: Record<string, string>): (token: string | undefined, request: Request) => string | null;
  parseTokenFile(text: string): Record<string, string>;
  GraphLoadError: new (...args: never[]) => Error;
  ServerStartError: new (...args: never[]) => Error;
}

const SERVER_PACKAGE = "@graphc/server";

function int(flag: string, text: string, min: number): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`${flag} must be an integer ≥ ${min}, got \`${text}\``);
  return n;
}

export async function importServer(): Promise<(ServerModule & PostgresServerModule) | undefined> {
  try {
    return (await import(SERVER_PACKAGE)) as ServerModule & PostgresServerModule;
  } catch (e) {
    if ((e as { code?: string }).code === "ERR_MODULE_NOT_FOUND" && String((e as Error).message).includes(SERVER_PACKAGE)) return undefined;
    throw e;
  }
}

/** `load` finds the server package (tests pass one that finds none) */
export async function serveCommand(
  io: CliIO,
  files: string[],
  flags: ServeFlags,
  load: () => Promise<(ServerModule & PostgresServerModule) | undefined> = importServer,
): Promise<number> {
  const port = int("--port", flags.port, 0);
  // API processes of a Postgres deployment run no graphs by default: `graphc worker` processes do
  const workers = int("--workers", flags.workers ?? (flags.postgres === undefined ? "4" : "0"), 0);
  const drainMs = int("--drain", flags.drain, 0);
  const maxBody = flags.maxBody === undefined ? undefined : int("--max-body", flags.maxBody, 1);
  const graphFiles = expandFiles(io.cwd, files).map((f) => resolve(io.cwd, f));
  const server = await load();
  if (!server) {
    io.stderr(`graphc serve: the server is the package ${SERVER_PACKAGE}, which is not installed here.\n  npm i ${SERVER_PACKAGE}\n`);
    return EXIT.usage;
  }
  const auth = flags.tokens === undefined ? undefined : server.tokenTable(server.parseTokenFile(readFileSync(resolve(io.cwd, flags.tokens), "utf8")));
  let running;
  try {
    const backend = flags.postgres === undefined ? undefined : await server.PostgresBackend.open(flags.postgres, postgresOptions(flags));
    running = await server.serve({
      files: graphFiles,
      port,
      host: flags.host,
      dataDir: resolve(io.cwd, flags.data ?? ".graphc-server"),
      workers,
      drainMs,
      ...(auth ? { auth } : {}),
      ...(maxBody ? { maxBodyBytes: maxBody } : {}),
      ...(flags.chat ? { chat: true } : {}),
      ...(backend ? { backend } : {}),
    });
  } catch (e) {
    if (e instanceof server.GraphLoadError || e instanceof server.ServerStartError) {
      io.stderr(`graphc serve: ${e.message}\n`);
      return EXIT.errors;
    }
    throw e;
  }
  io.stdout(`graphc serve: listening on ${running.url} (graphs: ${running.graphs.join(", ")})\n`);
  await new Promise<void>((done) => {
    const stop = () => done();
    process.once("SIGTERM", stop);
    process.once("SIGINT", stop);
    io.signal?.addEventListener("abort", stop, { once: true });
  });
  io.stdout("graphc serve: shutting down (running runs drain, the rest are requeued)\n");
  await running.close();
  return EXIT.ok;
}
