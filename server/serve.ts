/**
 * `serve()`: what `graphc serve` runs — the graphs loaded from their `.graph` files, the backend (SQLite in
 * `dataDir` unless one is given), the worker pool in this process, the HTTP API on `@hono/node-server`.
 * `close()` is the graceful shutdown: stop accepting connections, let running runs finish for `drainMs`,
 * requeue those that did not (they resume from their last checkpoint at the next start), close the backend.
 */
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { serve as listen, type ServerType } from "@hono/node-server";
import type { CompiledGraph } from "@graphc/runtime";
import type { Backend } from "./backend.ts";
import { type ApiGraph, createApi } from "./api.ts";
import type { AuthHook } from "./auth.ts";
import { loadGraphs } from "./load-graphs.ts";
import { SqliteBackend } from "./sqlite-backend.ts";
import { WorkerPool } from "./worker.ts";
import { chatPage } from "./chat-page.ts";

export interface ServeOptions {
  /** the `.graph` files; every graph they define is served (graph_id = its name) */
  readonly files: readonly string[];
  /** default 2024; 0 = a free port */
  readonly port?: number | undefined;
  /** default 127.0.0.1 */
  readonly host?: string | undefined;
  /** where the SQLite database and the compiled graphs live (default `.graphc-server` in the working directory) */
  readonly dataDir?: string | undefined;
  /** another backend (Postgres); default: `SqliteBackend` in `dataDir` */
  readonly backend?: Backend | undefined;
  /** runs executed at once in this process (default 4; 0 = an API-only process) */
  readonly workers?: number | undefined;
  readonly auth?: AuthHook | undefined;
  readonly maxBodyBytes?: number | undefined;
  /** time running runs get to finish at shutdown before they are requeued (default 10 s) */
  readonly drainMs?: number | undefined;
  /** serve the chat page at `/chat` (the customer-service demo) */
  readonly chat?: boolean | undefined;
}

/** The server could not start listening (the port is taken); nothing is left running. */
export class ServerStartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ServerStartError";
  }
}

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  readonly graphs: readonly string[];
  close(): Promise<void>;
}

export async function serve(options: ServeOptions): Promise<RunningServer> {
  const dataDir = options.dataDir ?? join(process.cwd(), ".graphc-server");
  const loaded = await loadGraphs(options.files, dataDir);
  const backend = options.backend ?? new SqliteBackend({ dataDir });
  const store = backend.store;
  const graphs = new Map<string, ApiGraph>(
    loaded.map((g) => [g.id, { id: g.id, schemas: g.schemas, graph: g.graph.withConfig({ checkpointer: backend.saver, ...(store ? { store } : {}) }) }]),
  );
  const pool = new WorkerPool(backend, new Map<string, CompiledGraph>([...graphs].map(([id, g]) => [id, g.graph])), {
    concurrency: options.workers ?? 4,
  });
  pool.start();
  const app = createApi({
    backend,
    graphs,
    auth: options.auth,
    maxBodyBytes: options.maxBodyBytes,
    extra: options.chat ? (a) => chatPage(a) : undefined,
  });
  const host = options.host ?? "127.0.0.1";
  const wanted = options.port ?? 2024;
  let server: ServerType;
  try {
    server = await new Promise((resolve, reject) => {
      const s = listen({ fetch: app.fetch, port: wanted, hostname: host }, () => resolve(s));
      s.once("error", reject);
    });
  } catch (e) {
    await pool.stop(0);
    if (!options.backend) await backend.close();
    const code = (e as { code?: string }).code;
    throw new ServerStartError(code === "EADDRINUSE" ? `${host}:${wanted} is already in use (choose another --port)` : `cannot listen on ${host}:${wanted}: ${(e as Error).message}`);
  }
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${port}`,
    port,
    graphs: [...graphs.keys()],
    close() {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        await pool.stop(options.drainMs ?? 10_000);
        // open SSE responses end with their runs; anything left (idle keep-alive sockets) is cut
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
        await closed;
        await backend.close();
      })();
      return closing;
    },
  };
}
