/**
 * Runs: create (background), stream (SSE), wait, list, get, delete, cancel, join, join the stream — on a
 * thread, or stateless (`/runs/…`: on a new thread of the caller's, kept afterwards). A run is validated
 * here (assistant, stream modes, input against the graph's input schema → 422 naming the field) and then
 * only queued: a worker runs it (worker.ts), and the stream endpoints relay the events it publishes.
 */
import { randomUUID } from "node:crypto";
import type { Context, Hono } from "hono";
import { type Json, type MultitaskStrategy, type RunKwargs, type RunRow, type RunStatus, ThreadBusy, type ThreadRow } from "./backend.ts";
import { type Api, type ApiGraph, type Env, body } from "./api.ts";
import { HttpError, invalid, notFound, notImplemented } from "./http-error.ts";
import { sseResponse } from "./sse.ts";
import { validate } from "./validate.ts";
import { STREAM_MODES } from "./worker.ts";

const STRATEGIES: readonly MultitaskStrategy[] = ["reject", "interrupt", "rollback", "enqueue"];
const RUN_STATUSES: readonly RunStatus[] = ["pending", "running", "error", "success", "timeout", "interrupted"];

export function runJson(r: RunRow) {
  return {
    run_id: r.run_id,
    thread_id: r.thread_id,
    assistant_id: r.assistant_id,
    created_at: r.created_at,
    updated_at: r.updated_at,
    status: r.status,
    metadata: r.metadata,
    multitask_strategy: r.multitask_strategy,
    kwargs: r.kwargs,
  };
}

function breakpoints(q: Record<string, unknown>, key: string): string[] | "*" | null {
  const v = q[key];
  if (v === undefined || v === null) return null;
  if (v === "*") return "*";
  if (Array.isArray(v) && v.every((x) => typeof x === "string")) return v as string[];
  throw invalid(key, 'must be "*" or a list of node names');
}

function streamModes(v: unknown): string[] {
  const modes = v === undefined || v === null ? ["values"] : Array.isArray(v) ? v : [v];
  for (const m of modes) {
    if (typeof m !== "string" || !STREAM_MODES.includes(m)) throw invalid("stream_mode", `${JSON.stringify(m)} is not a supported stream mode (supported: ${STREAM_MODES.join(", ")})`);
  }
  return modes as string[];
}

/** the run's kwargs, checked; input against the graph's input schema */
function kwargsOf(q: Record<string, unknown>, g: ApiGraph): RunKwargs {
  for (const key of ["webhook", "after_seconds", "feedback_keys"]) if (q[key] !== undefined && q[key] !== null) throw notImplemented(`the run option ${key}`);
  const command = q["command"] ?? null;
  if (command !== null && (typeof command !== "object" || Array.isArray(command))) throw invalid("command", "must be an object { resume?, update?, goto? }");
  const input = q["input"] ?? null;
  if (input !== null && command === null) {
    const error = validate(g.schemas.input, input);
    if (error) throw invalid(error.path === "" ? "input" : `input.${error.path.replaceAll("/", ".")}`, error.message);
  }
  const config = q["config"] ?? {};
  if (typeof config !== "object" || config === null || Array.isArray(config)) throw invalid("config", "must be an object");
  const context = q["context"];
  const checkpoint = q["checkpoint_id"] ?? (q["checkpoint"] as { checkpoint_id?: unknown } | undefined)?.checkpoint_id ?? null;
  if (checkpoint !== null && typeof checkpoint !== "string") throw invalid("checkpoint_id", "must be a string");
  return {
    input,
    command: command as Json | null,
    config: { ...(config as Json), ...(context && typeof context === "object" ? { context } : {}) },
    stream_mode: streamModes(q["stream_mode"]),
    stream_subgraphs: q["stream_subgraphs"] === true,
    interrupt_before: breakpoints(q, "interrupt_before"),
    interrupt_after: breakpoints(q, "interrupt_after"),
    checkpoint_id: checkpoint,
  };
}

export function runRoutes(app: Hono<Env>, api: Api): void {
  const { backend } = api;

  /** the run's thread: an existing one of the owner's, one created on demand, or a new one (stateless) */
  async function threadFor(c: Context<Env>, threadId: string | null, q: Record<string, unknown>, g: ApiGraph): Promise<ThreadRow> {
    const owner = c.get("owner");
    const at = new Date().toISOString();
    const fresh = (id: string): ThreadRow => ({ thread_id: id, owner, created_at: at, updated_at: at, metadata: { graph_id: g.id }, status: "idle", values: null, interrupts: {} });
    if (threadId === null) return (await backend.createThread(fresh(randomUUID()))).row;
    const existing = await backend.getThread(threadId);
    if (existing && existing.owner !== owner) throw notFound("Thread", threadId);
    if (existing) {
      const bound = existing.metadata["graph_id"];
      if (bound !== undefined && bound !== g.id) throw new HttpError(409, "Conflict", `thread ${threadId} runs graph ${String(bound)}, not ${g.id}`);
      if (bound === undefined) await backend.updateThread(threadId, { metadata: { graph_id: g.id } });
      return existing;
    }
    if (q["if_not_exists"] !== "create") throw notFound("Thread", threadId);
    const { row } = await backend.createThread(fresh(threadId));
    if (row.owner !== owner) throw notFound("Thread", threadId);
    return row;
  }

  /** the stored run, and the request body (for the options that act on the response) */
  async function create(c: Context<Env>, threadId: string | null): Promise<{ r: RunRow; q: Record<string, unknown> }> {
    const q = await body(c);
    if (typeof q["assistant_id"] !== "string") throw invalid("assistant_id", "is required");
    const g = api.assistant(q["assistant_id"]);
    const strategy = (q["multitask_strategy"] ?? "reject") as MultitaskStrategy;
    if (!STRATEGIES.includes(strategy)) throw invalid("multitask_strategy", `must be one of ${STRATEGIES.join(", ")}`);
    const kwargs = kwargsOf(q, g);
    const thread = await threadFor(c, threadId, q, g);
    const at = new Date().toISOString();
    try {
      const r = await backend.createRun({
        run_id: randomUUID(),
        thread_id: thread.thread_id,
        assistant_id: g.id,
        owner: c.get("owner"),
        created_at: at,
        updated_at: at,
        status: "pending",
        metadata: (q["metadata"] ?? {}) as Json,
        multitask_strategy: strategy,
        kwargs,
        attempt: 0,
      });
      return { r, q };
    } catch (e) {
      if (e instanceof ThreadBusy) throw new HttpError(409, "Conflict", e.message);
      throw e;
    }
  }

  const location = (c: Context<Env>, r: RunRow) => {
    c.header("Content-Location", `/threads/${r.thread_id}/runs/${r.run_id}`);
  };

  /** what `runs.wait` and `join` give: the final values, or `{ __error__ }` (which the SDK's `wait` throws) */
  async function outcome(c: Context<Env>, r: RunRow) {
    const done = await backend.waitForRun(r.thread_id, r.run_id, c.req.raw.signal);
    if (!done) return c.json(await threadValues(r.thread_id));
    if (done.status === "error") return c.json({ __error__: done.result ?? { error: "Error", message: "the run failed" } });
    return c.json(done.result ?? (await threadValues(r.thread_id)));
  }
  const threadValues = async (threadId: string) => (await backend.getThread(threadId))?.values ?? {};

  /**
   * The run's events as SSE. `cancelOnDisconnect` (`on_disconnect: "cancel"`, `cancel_on_disconnect=1`):
   * a client that goes away before the run ends cancels it (by default the run goes on).
   */
  const stream = (c: Context<Env>, r: RunRow, cancelOnDisconnect: boolean) => {
    if (cancelOnDisconnect) {
      c.req.raw.signal.addEventListener("abort", () => void backend.cancelRun(r.thread_id, r.run_id, "interrupt").catch(() => {}), { once: true });
    }
    location(c, r);
    c.header("Location", `/threads/${r.thread_id}/runs/${r.run_id}/stream`);
    const after = Number(c.req.header("last-event-id") ?? 0);
    return sseResponse(c, backend.subscribe(r.run_id, Number.isFinite(after) ? after : 0, c.req.raw.signal));
  };

  for (const [prefix, threadOf] of [
    ["/threads/:id/runs", (c: Context<Env>) => c.req.param("id") ?? null],
    ["/runs", () => null],
  ] as const) {
    app.post(prefix, async (c) => {
      const { r } = await create(c, threadOf(c));
      location(c, r);
      return c.json(runJson(r));
    });
    app.post(`${prefix}/stream`, async (c) => {
      const { r, q } = await create(c, threadOf(c));
      return stream(c, r, q["on_disconnect"] === "cancel");
    });
    app.post(`${prefix}/wait`, async (c) => {
      const { r } = await create(c, threadOf(c));
      location(c, r);
      return outcome(c, r);
    });
  }

  /** the run, if its thread is the owner's */
  async function run(c: Context<Env>): Promise<RunRow> {
    const t = await api.thread(c, c.req.param("id")!);
    const r = await backend.getRun(t.thread_id, c.req.param("run")!);
    if (!r) throw notFound("Run", c.req.param("run")!);
    return r;
  }

  app.get("/threads/:id/runs", async (c) => {
    const t = await api.thread(c, c.req.param("id"));
    const status = c.req.query("status");
    if (status !== undefined && !RUN_STATUSES.includes(status as RunStatus)) throw invalid("status", `must be one of ${RUN_STATUSES.join(", ")}`);
    const rows = await backend.listRuns(t.thread_id, {
      limit: Number(c.req.query("limit") ?? 10),
      offset: Number(c.req.query("offset") ?? 0),
      ...(status ? { status: status as RunStatus } : {}),
    });
    return c.json(rows.map(runJson));
  });
  app.get("/threads/:id/runs/:run", async (c) => c.json(runJson(await run(c))));
  app.delete("/threads/:id/runs/:run", async (c) => {
    const r = await run(c);
    if (!(await backend.deleteRun(r.thread_id, r.run_id))) throw new HttpError(409, "Conflict", `run ${r.run_id} is ${r.status}: cancel it first`);
    return c.body(null, 204);
  });
  app.post("/threads/:id/runs/:run/cancel", async (c) => {
    const r = await run(c);
    const action = c.req.query("action") ?? "interrupt";
    if (action !== "interrupt" && action !== "rollback") throw invalid("action", "must be interrupt or rollback");
    if (!(await backend.cancelRun(r.thread_id, r.run_id, action))) throw new HttpError(409, "Conflict", `run ${r.run_id} is ${r.status}: only pending and running runs can be cancelled`);
    if (c.req.query("wait") === "1" || c.req.query("wait") === "true") {
      await backend.waitForRun(r.thread_id, r.run_id, c.req.raw.signal);
      return c.body(null, 204);
    }
    return c.body(null, 202);
  });
  app.get("/threads/:id/runs/:run/join", async (c) => outcome(c, await run(c)));
  app.get("/threads/:id/runs/:run/stream", async (c) => stream(c, await run(c), c.req.query("cancel_on_disconnect") === "1"));
}
