/**
 * The Postgres backend's rules (server/backend.ts) with two backends in this process standing for two
 * processes on one database: multitask strategies at creation, one running run per thread, runs of a
 * thread claimed oldest first, parked runs released by the end of the one before, cancel and stream
 * events across "processes", and a dead worker's run requeued. Each run of this file has its own schema.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { PostgresBackend } from "../../server/postgres/backend.ts";
import type { RunQueue } from "../../server/postgres/queue.ts";
import { ThreadBusy, type RunRow, type ThreadRow, type MultitaskStrategy, type CancelAction } from "@graphc/server";
import { dropSchema, postgresUrl } from "../savers/pg-env.ts";

const schema = `graphc_srvpg_${process.pid}_${Date.now().toString(36)}`;
let url = "";
let api: PostgresBackend;
let worker: PostgresBackend;

beforeAll(async () => {
  url = postgresUrl();
  api = await PostgresBackend.open(url, { schema, pollMs: 200, heartbeat: { intervalMs: 200 } });
  worker = await PostgresBackend.open(url, { schema, pollMs: 200, heartbeat: { intervalMs: 200 } });
});

afterAll(async () => {
  await api?.close();
  await worker?.close();
  if (url) {
    await dropSchema(url, schema);
    await dropSchema(url, `${schema}_queue`);
  }
});

const now = () => new Date().toISOString();

async function thread(): Promise<string> {
  const id = randomUUID();
  const row: ThreadRow = { thread_id: id, owner: null, created_at: now(), updated_at: now(), metadata: { k: id }, status: "idle", values: null, interrupts: {} };
  await api.createThread(row);
  return id;
}

function run(threadId: string, multitask_strategy: MultitaskStrategy = "reject"): RunRow {
  return {
    run_id: randomUUID(),
    thread_id: threadId,
    assistant_id: "G",
    owner: null,
    created_at: now(),
    updated_at: now(),
    status: "pending",
    metadata: {},
    multitask_strategy,
    kwargs: { input: {}, command: null, config: {}, stream_mode: ["values"], stream_subgraphs: false, interrupt_before: null, interrupt_after: null, checkpoint_id: null },
    attempt: 0,
  };
}

/** Claims with a deadline: undefined when nothing was claimable for `ms`. */
async function claim(backend: PostgresBackend, ms = 600): Promise<RunRow | undefined> {
  return backend.claimRun(AbortSignal.timeout(ms));
}

describe("Postgres backend", () => {
  it("rejects a second run on a busy thread, stores nothing for it, and enqueues with enqueue", async () => {
    const t = await thread();
    const first = await api.createRun(run(t));
    await expect(api.createRun(run(t))).rejects.toBeInstanceOf(ThreadBusy);
    const second = await api.createRun(run(t, "enqueue"));
    expect((await api.listRuns(t, { limit: 10, offset: 0 })).map((r) => r.run_id)).toEqual([second.run_id, first.run_id]);
    expect((await api.getThread(t))?.status).toBe("busy");

    const a = await claim(worker);
    expect(a?.run_id).toBe(first.run_id);
    expect(a?.attempt).toBe(1);
    // the thread has a running run: its next run is not handed out
    expect(await claim(api, 400)).toBeUndefined();
    await worker.finishRun(first.run_id, "success", { x: 1 }, { status: "idle", values: { x: 1 } });
    const b = await claim(api);
    expect(b?.run_id).toBe(second.run_id);
    await api.finishRun(second.run_id, "success", undefined, { status: "idle" });
    expect((await api.getRun(t, first.run_id))?.result).toEqual({ x: 1 });
    expect((await api.getThread(t))?.status).toBe("idle");
  });

  it("runs one run per thread at a time across many threads, each thread's runs in order", async () => {
    const threads = await Promise.all(Array.from({ length: 8 }, () => thread()));
    const created = new Map<string, string[]>();
    for (const t of threads) {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await api.createRun(run(t, "enqueue"))).run_id);
      created.set(t, ids);
    }
    const order = new Map<string, string[]>();
    const running = new Set<string>();
    let overlap = 0;
    // four claimers on two backends, as four worker slots in two processes
    await Promise.all(
      [api, worker, api, worker].map(async (b) => {
        for (;;) {
          const r = await claim(b, 800);
          if (r === undefined) return;
          if (running.has(r.thread_id)) overlap++;
          running.add(r.thread_id);
          order.set(r.thread_id, [...(order.get(r.thread_id) ?? []), r.run_id]);
          await new Promise((resolve) => setTimeout(resolve, 5));
          running.delete(r.thread_id);
          await b.finishRun(r.run_id, "success", undefined, { status: "idle" });
        }
      }),
    );
    expect(overlap).toBe(0);
    expect(Object.fromEntries(order)).toEqual(Object.fromEntries(created));
  });

  it("interrupt cancels the running run (its worker hears it from the other process) and the new run follows", async () => {
    const t = await thread();
    const first = await api.createRun(run(t));
    const held = await claim(worker);
    expect(held?.run_id).toBe(first.run_id);
    const heard = new Promise<CancelAction>((resolve) => worker.onCancel(first.run_id, resolve));
    const second = await api.createRun(run(t, "interrupt"));
    expect(await heard).toBe("interrupt");
    expect(await claim(api, 300)).toBeUndefined();
    await worker.finishRun(first.run_id, "interrupted", undefined, { status: "idle" });
    expect((await api.getRun(t, first.run_id))?.status).toBe("interrupted");
    expect((await claim(api))?.run_id).toBe(second.run_id);
    await api.finishRun(second.run_id, "success", undefined, { status: "idle" });
  });

  it("cancels a pending run at once; rollback deletes it", async () => {
    const t = await thread();
    const first = await api.createRun(run(t));
    const second = await api.createRun(run(t, "enqueue"));
    expect(await api.cancelRun(t, second.run_id, "interrupt")).toBe(true);
    expect((await api.getRun(t, second.run_id))?.status).toBe("interrupted");
    expect(await api.cancelRun(t, second.run_id, "interrupt")).toBe(false);
    expect(await api.cancelRun(t, first.run_id, "rollback")).toBe(true);
    expect(await api.getRun(t, first.run_id)).toBeUndefined();
    expect((await api.getThread(t))?.status).toBe("idle");
    expect(await claim(worker, 300)).toBeUndefined();
  });

  it("streams a run's events from the worker process to a subscriber of the other, and replays after Last-Event-ID", async () => {
    const t = await thread();
    const r = await api.createRun(run(t));
    const got = (async () => {
      const events = [];
      for await (const e of api.subscribe(r.run_id, 0, AbortSignal.timeout(5000))) events.push(e);
      return events;
    })();
    expect((await claim(worker))?.run_id).toBe(r.run_id);
    for (let i = 0; i < 5; i++) void worker.publish(r.run_id, { event: "values", data: { i } });
    await worker.publish(r.run_id, { event: "end", data: null });
    await worker.finishRun(r.run_id, "success", undefined, { status: "idle" });
    const events = await got;
    expect(events.map((e) => [e.seq, e.event, e.data])).toEqual([
      [1, "values", { i: 0 }],
      [2, "values", { i: 1 }],
      [3, "values", { i: 2 }],
      [4, "values", { i: 3 }],
      [5, "values", { i: 4 }],
      [6, "end", null],
    ]);
    const again = [];
    for await (const e of api.subscribe(r.run_id, 4, AbortSignal.timeout(5000))) again.push(e.seq);
    expect(again).toEqual([5, 6]);
    expect((await api.waitForRun(t, r.run_id))?.status).toBe("success");
  });

  it("a worker killed between taking a run's job and claiming the run leaves the run claimable", async () => {
    const t = await thread();
    const r = await api.createRun(run(t));
    // the job is taken as a claim takes it (inside the claim's transaction), then the session dies before the
    // commit, as with a SIGKILL at that instant: a job taken on its own would stay taken, its run pending forever
    const queue = (worker as unknown as { queue: RunQueue }).queue;
    const session = await worker.pool.connect();
    // the terminated session's error (57P01) arrives as an event on its client
    const ended = new Promise((resolve) => session.once("error", resolve));
    await session.query("BEGIN");
    expect((await queue.fetchIn(session))?.data.run_id).toBe(r.run_id);
    const pid = (await session.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
    await api.pool.query("SELECT pg_terminate_backend($1)", [pid]);
    expect(await ended).toMatchObject({ code: "57P01" });
    session.release(true);
    const claimed = await claim(worker);
    expect(claimed?.run_id).toBe(r.run_id);
    expect(claimed?.attempt).toBe(1);
    await worker.finishRun(r.run_id, "success", undefined, { status: "idle" });
  });

  it("requeues the run of a worker whose session died; the new claim counts the attempt and keeps checkpoint_before", async () => {
    const dying = await PostgresBackend.open(url, { schema, heartbeat: { intervalMs: 200 } });
    const t = await thread();
    const r = await api.createRun(run(t));
    expect((await claim(dying))?.run_id).toBe(r.run_id);
    await dying.markStarted(r.run_id, null);
    // the worker's lock session ends without any clean-up, as with SIGKILL
    const pids = await api.pool.query<{ pid: number }>(
      "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND pid <> pg_backend_pid() AND objid = (hashtextextended('graphc-worker:' || $1, 0) & 4294967295)::oid",
      [`${schema}:${dying.workerId}`],
    );
    expect(pids.rows).toHaveLength(1);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query("SELECT pg_terminate_backend($1)", [pids.rows[0]!.pid]);
    await admin.end();
    // any live worker's reaper (ours every 200 ms, or this call) requeues it
    await worker.reap();
    for (let i = 0; i < 100 && (await api.getRun(t, r.run_id))?.status === "running"; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await api.getRun(t, r.run_id))?.status).toBe("pending");
    const again = await claim(worker);
    expect(again?.run_id).toBe(r.run_id);
    expect(again?.attempt).toBe(2);
    expect(again?.checkpoint_before).toBeNull();
    // the dead worker's late end is refused: the run is the new worker's
    await dying.finishRun(r.run_id, "error", undefined, { status: "error" }).catch(() => undefined);
    expect((await api.getRun(t, r.run_id))?.status).toBe("running");
    await worker.finishRun(r.run_id, "success", undefined, { status: "idle" });
    expect((await api.getRun(t, r.run_id))?.status).toBe("success");
    await dying.close().catch(() => undefined);
  });
});
