/**
 * Threads: create, get, patch metadata, delete, search, count; their state (current, at a checkpoint,
 * with subgraphs), history, and updateState. A thread's graph is its `graph_id` metadata (set by the SDK's
 * `threads.create({ graphId })` or by the thread's first run).
 */
import { randomUUID } from "node:crypto";
import type { Context, Hono } from "hono";
import type { RunnableConfig, StateSnapshot } from "@graphc/runtime";
import type { Json, ThreadRow, ThreadStatus } from "./backend.ts";
import { type Api, type Env, body } from "./api.ts";
import { HttpError, invalid, notImplemented } from "./http-error.ts";
import { pendingInterrupts, stateJson } from "./state-json.ts";

export function threadJson(t: ThreadRow) {
  return {
    thread_id: t.thread_id,
    created_at: t.created_at,
    updated_at: t.updated_at,
    state_updated_at: t.updated_at,
    metadata: t.metadata,
    status: t.status,
    values: t.values ?? {},
    interrupts: t.interrupts,
    config: {},
  };
}

const EMPTY_STATE = {
  values: {},
  next: [],
  tasks: [],
  checkpoint: null,
  metadata: null,
  created_at: null,
  parent_checkpoint: null,
  interrupts: [],
};

const STATUSES: readonly ThreadStatus[] = ["idle", "busy", "interrupted", "error"];
const SORTS = ["thread_id", "status", "created_at", "updated_at"] as const;

function select<T extends Record<string, unknown>>(row: T, fields: unknown): Partial<T> {
  if (!Array.isArray(fields) || fields.length === 0) return row;
  return Object.fromEntries(Object.entries(row).filter(([k]) => fields.includes(k))) as Partial<T>;
}

/** a checkpoint named as the SDK may: `{ checkpoint_id }`, `{ configurable: { checkpoint_id } }` or a string */
function checkpointIdOf(v: unknown): string | undefined {
  if (typeof v === "string") return v;
  if (typeof v !== "object" || v === null) return undefined;
  const o = v as { checkpoint_id?: unknown; configurable?: { checkpoint_id?: unknown } };
  const id = o.checkpoint_id ?? o.configurable?.checkpoint_id;
  return typeof id === "string" ? id : undefined;
}

export function threadRoutes(app: Hono<Env>, api: Api): void {
  const { backend } = api;

  app.post("/threads", async (c) => {
    const q = await body(c);
    if (q["supersteps"] !== undefined) throw notImplemented("creating a thread with supersteps");
    if (q["ttl"] !== undefined) throw notImplemented("thread TTLs");
    const id = q["thread_id"] === undefined || q["thread_id"] === null ? randomUUID() : q["thread_id"];
    if (typeof id !== "string" || id === "") throw invalid("thread_id", "must be a non-empty string");
    const metadata = (q["metadata"] ?? {}) as Json;
    if (typeof metadata !== "object" || Array.isArray(metadata)) throw invalid("metadata", "must be an object");
    const graphId = metadata["graph_id"];
    if (graphId !== undefined) api.assistant(String(graphId));
    const at = new Date().toISOString();
    const owner = c.get("owner");
    const { row, created } = await backend.createThread({ thread_id: id, owner, created_at: at, updated_at: at, metadata, status: "idle", values: null, interrupts: {} });
    if (!created) {
      if (row.owner !== owner || q["if_exists"] !== "do_nothing") throw new HttpError(409, "Conflict", `thread ${id} already exists`);
    }
    return c.json(threadJson(row));
  });

  app.post("/threads/search", async (c) => {
    const q = await body(c);
    if (q["values"] !== undefined || q["extract"] !== undefined) throw notImplemented("searching threads by values");
    const status = q["status"];
    if (status !== undefined && !STATUSES.includes(status as ThreadStatus)) throw invalid("status", `must be one of ${STATUSES.join(", ")}`);
    const sortBy = q["sort_by"];
    if (sortBy !== undefined && !SORTS.includes(sortBy as (typeof SORTS)[number])) throw invalid("sort_by", `must be one of ${SORTS.join(", ")}`);
    const rows = await backend.searchThreads({
      owner: c.get("owner"),
      ...(q["metadata"] ? { metadata: q["metadata"] as Json } : {}),
      ...(Array.isArray(q["ids"]) ? { ids: q["ids"] as string[] } : {}),
      ...(status ? { status: status as ThreadStatus } : {}),
      ...(sortBy ? { sort_by: sortBy as (typeof SORTS)[number] } : {}),
      ...(q["sort_order"] === "asc" || q["sort_order"] === "desc" ? { sort_order: q["sort_order"] } : {}),
      limit: Number(q["limit"] ?? 10),
      offset: Number(q["offset"] ?? 0),
    });
    return c.json(rows.map((t) => select(threadJson(t), q["select"])));
  });

  app.post("/threads/count", async (c) => {
    const q = await body(c);
    const rows = await backend.searchThreads({
      owner: c.get("owner"),
      ...(q["metadata"] ? { metadata: q["metadata"] as Json } : {}),
      ...(q["status"] ? { status: q["status"] as ThreadStatus } : {}),
      limit: Number.MAX_SAFE_INTEGER,
      offset: 0,
    });
    return c.json(rows.length);
  });

  app.get("/threads/:id", async (c) => c.json(threadJson(await api.thread(c, c.req.param("id")))));

  app.patch("/threads/:id", async (c) => {
    const t = await api.thread(c, c.req.param("id"));
    const q = await body(c);
    if (q["ttl"] !== undefined) throw notImplemented("thread TTLs");
    const updated = await backend.updateThread(t.thread_id, { metadata: (q["metadata"] ?? {}) as Json });
    return c.json(threadJson(updated!));
  });

  app.delete("/threads/:id", async (c) => {
    const t = await api.thread(c, c.req.param("id"));
    await backend.deleteThread(t.thread_id);
    return c.body(null, 204);
  });

  const state = async (c: Context<Env>, checkpointId: string | undefined, subgraphs: boolean) => {
    const t = await api.thread(c, c.req.param("id")!);
    const g = api.graphOf(t);
    if (!g) return c.json(EMPTY_STATE);
    const configurable: Record<string, string> = { thread_id: t.thread_id };
    if (checkpointId) configurable["checkpoint_id"] = checkpointId;
    const snapshot = await g.graph.getState({ configurable }, { subgraphs });
    if (checkpointId && snapshot.config.configurable?.checkpoint_id !== checkpointId) throw new HttpError(404, "NotFound", `checkpoint ${checkpointId} not found`);
    return c.json(stateJson(snapshot));
  };
  const flag = (v: string | undefined) => v === "true" || v === "1";

  app.get("/threads/:id/state", (c) => state(c, undefined, flag(c.req.query("subgraphs"))));
  app.get("/threads/:id/state/:checkpoint", (c) => state(c, c.req.param("checkpoint"), flag(c.req.query("subgraphs"))));
  app.post("/threads/:id/state/checkpoint", async (c) => {
    const q = await body(c);
    return state(c, checkpointIdOf(q["checkpoint"]), q["subgraphs"] === true);
  });

  app.post("/threads/:id/state", async (c) => {
    const t = await api.thread(c, c.req.param("id"));
    const g = api.graphOf(t);
    if (!g) throw new HttpError(409, "Conflict", `thread ${t.thread_id} has no graph yet: create it with a graph_id or run it first`);
    const q = await body(c);
    const configurable: Record<string, string> = { thread_id: t.thread_id };
    const checkpointId = checkpointIdOf(q["checkpoint_id"]) ?? checkpointIdOf(q["checkpoint"]);
    if (checkpointId) configurable["checkpoint_id"] = checkpointId;
    const asNode = q["as_node"];
    if (asNode !== undefined && typeof asNode !== "string") throw invalid("as_node", "must be a string");
    let next: RunnableConfig;
    try {
      next = await g.graph.updateState({ configurable }, (q["values"] ?? null) as never, asNode as never);
    } catch (e) {
      throw asHttpError(e);
    }
    const snapshot: StateSnapshot = await g.graph.getState({ configurable: { thread_id: t.thread_id } });
    const interrupts = pendingInterrupts(snapshot);
    await backend.updateThread(t.thread_id, {
      values: snapshot.values as Json,
      interrupts,
      ...(t.status === "busy" ? {} : { status: Object.keys(interrupts).length > 0 ? "interrupted" : "idle" }),
    });
    return c.json({ checkpoint: next.configurable });
  });

  app.post("/threads/:id/history", async (c) => {
    const t = await api.thread(c, c.req.param("id"));
    const g = api.graphOf(t);
    if (!g) return c.json([]);
    const q = await body(c);
    const limit = Number(q["limit"] ?? 10);
    const before = checkpointIdOf(q["before"]);
    const at = checkpointIdOf(q["checkpoint"]);
    const configurable: Record<string, string> = { thread_id: t.thread_id };
    if (at) configurable["checkpoint_id"] = at;
    const out: unknown[] = [];
    const history = g.graph.getStateHistory(
      { configurable },
      {
        limit,
        ...(before ? { before: { configurable: { thread_id: t.thread_id, checkpoint_id: before } } } : {}),
        ...(q["metadata"] ? { filter: q["metadata"] as Json } : {}),
      },
    );
    for await (const snapshot of history) out.push(stateJson(snapshot));
    return c.json(out);
  });
}

/** the runtime's typed errors as answers: a busy thread is 409, a bad update 422 naming the field */
export function asHttpError(e: unknown): unknown {
  const err = e as { code?: string; name?: string; message?: string; field?: string };
  if (err?.code === "THREAD_BUSY") return new HttpError(409, "Conflict", err.message ?? "thread busy");
  if (typeof err?.code === "string" && /INVALID_UPDATE|GRAPH_INPUT|INVALID_RESUME|EMPTY_INPUT|GRAPH_VALUE/.test(err.code)) {
    return new HttpError(422, err.name ?? "ValidationError", err.message ?? String(e), err.field);
  }
  return e;
}
