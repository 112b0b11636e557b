/**
 * The HTTP API: the subset of the LangGraph Server API that `@langchain/langgraph-sdk`'s `Client` uses
 * (docs/server.md lists it), on any `Backend`. Stateless: every request reads and writes through the
 * backend, so several API processes can share one (Postgres) backend. Errors are JSON (http-error.ts);
 * an endpoint the SDK knows but graphc does not implement answers 501, an unknown path 404.
 */
import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { CompiledGraph } from "@graphc/runtime";
import type { Backend, ThreadRow } from "./backend.ts";
import { type AuthHook, ownerOf } from "./auth.ts";
import { HttpError, notFound, notImplemented } from "./http-error.ts";
import type { GraphSchemas } from "./load-graphs.ts";
import { assistantRoutes } from "./routes-assistants.ts";
import { threadRoutes } from "./routes-threads.ts";
import { runRoutes } from "./routes-runs.ts";

/** a served graph as the API sees it: compiled with the backend's saver and store */
export interface ApiGraph {
  readonly id: string;
  readonly graph: CompiledGraph;
  readonly schemas: GraphSchemas;
}

export interface ApiOptions {
  readonly backend: Backend;
  readonly graphs: ReadonlyMap<string, ApiGraph>;
  readonly auth?: AuthHook | undefined;
  /** largest request body accepted, in bytes (default 1 MiB); larger ones answer 413 */
  readonly maxBodyBytes?: number | undefined;
  /** extra routes mounted first (the demo page) */
  readonly extra?: ((app: Hono<Env>) => void) | undefined;
}

export type Env = { Variables: { owner: string | null } };

/** what route handlers share */
export interface Api {
  readonly backend: Backend;
  readonly graphs: ReadonlyMap<string, ApiGraph>;
  /** the thread, if it exists and belongs to the request's owner (404 otherwise) */
  thread(c: Context<Env>, threadId: string): Promise<ThreadRow>;
  /** the graph a thread runs (from its `graph_id` metadata), undefined before its first run */
  graphOf(thread: ThreadRow): ApiGraph | undefined;
  /** the served graph of an assistant id (404 otherwise) */
  assistant(id: string): ApiGraph;
}

/** the request body as an object (`{}` when empty); 422 when it is not JSON */
export async function body(c: Context<Env>): Promise<Record<string, unknown>> {
  const text = await c.req.text();
  if (text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpError(422, "ValidationError", "the request body is not valid JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new HttpError(422, "ValidationError", "the request body must be a JSON object");
  return value as Record<string, unknown>;
}

export function createApi(options: ApiOptions): Hono<Env> {
  const { backend, graphs } = options;
  const app = new Hono<Env>();
  const api: Api = {
    backend,
    graphs,
    async thread(c, threadId) {
      const t = await backend.getThread(threadId);
      if (!t || t.owner !== c.get("owner")) throw notFound("Thread", threadId);
      return t;
    },
    graphOf(thread) {
      const id = thread.metadata["graph_id"];
      return typeof id === "string" ? graphs.get(id) : undefined;
    },
    assistant(id) {
      const g = graphs.get(id);
      if (!g) throw notFound("Assistant", id);
      return g;
    },
  };

  app.onError((e, c) => {
    if (e instanceof HttpError) return c.json(e.body(), e.status);
    console.error(e);
    return c.json({ error: "InternalError", message: (e as Error).message ?? String(e) }, 500);
  });
  app.notFound((c) => c.json({ error: "NotFound", message: `no endpoint ${c.req.method} ${c.req.path}` }, 404));

  const limit = options.maxBodyBytes ?? 1024 * 1024;
  app.use(
    "*",
    bodyLimit({
      maxSize: limit,
      onError: (c) => c.json({ error: "PayloadTooLarge", message: `request bodies are limited to ${limit} bytes` }, 413),
    }),
  );
  options.extra?.(app);
  app.get("/ok", (c) => c.json({ ok: true }));
  app.get("/info", (c) => c.json({ version: "graphc", flags: { assistants: true, crons: false, langsmith: false } }));
  app.use("*", async (c, next) => {
    c.set("owner", await ownerOf(options.auth, c.req.raw));
    await next();
  });

  assistantRoutes(app, api);
  threadRoutes(app, api);
  runRoutes(app, api);

  for (const [method, path, what] of UNSUPPORTED) {
    app.on(method, path, () => {
      throw notImplemented(what);
    });
  }
  return app;
}

/** endpoints of the SDK's Client that graphc does not implement: 501 */
const UNSUPPORTED: readonly [string, string, string][] = [
  ["POST", "/assistants", "creating assistants (each served graph is one assistant)"],
  ["PATCH", "/assistants/:id", "updating assistants"],
  ["DELETE", "/assistants/:id", "deleting assistants"],
  ["POST", "/assistants/:id/versions", "assistant versions"],
  ["POST", "/assistants/:id/latest", "assistant versions"],
  ["GET", "/assistants/:id/graph", "the assistant graph drawing (use `graphc graph`)"],
  ["GET", "/assistants/:id/subgraphs", "assistant subgraph schemas"],
  ["GET", "/assistants/:id/subgraphs/:ns", "assistant subgraph schemas"],
  ["POST", "/threads/:id/copy", "copying threads"],
  ["POST", "/threads/prune", "pruning threads"],
  ["PATCH", "/threads/:id/state", "patching checkpoint metadata"],
  ["GET", "/threads/:id/stream", "joining a thread's stream"],
  ["POST", "/runs/batch", "batches of runs"],
  ["POST", "/runs/cancel", "cancelling many runs"],
  ["POST", "/runs/crons", "crons"],
  ["POST", "/runs/crons/search", "crons"],
  ["POST", "/runs/crons/count", "crons"],
  ["POST", "/threads/:id/runs/crons", "crons"],
  ["DELETE", "/runs/crons/:id", "crons"],
  ["PATCH", "/runs/crons/:id", "crons"],
  ["PUT", "/store/items", "the store API"],
  ["GET", "/store/items", "the store API"],
  ["DELETE", "/store/items", "the store API"],
  ["POST", "/store/items/search", "the store API"],
  ["POST", "/store/namespaces", "the store API"],
];
