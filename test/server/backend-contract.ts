/**
 * What every `Backend` (server/backend.ts) must do, as tests any implementation runs:
 * `backendContract("SqliteBackend", () => new SqliteBackend(…))`. The API and the worker rely on exactly
 * these rules: one active run per thread, runs of a thread in creation order, multitask strategies applied
 * at creation, cancels reaching the run's listeners, requeue keeping `attempt` and `checkpoint_before`,
 * stream events replayed from any position, owners stored and filtered.
 */
import { afterEach, describe, expect, it } from "vitest";
import { type Backend, type RunRow, type StreamEvent, ThreadBusy, type ThreadRow } from "../../server/backend.ts";

export interface ContractOptions {
  /** closes `backend` and opens the same storage again, as a restarted process does */
  reopen?: (backend: Backend) => Promise<Backend>;
}

const at = () => new Date().toISOString();
let ids = 0;
const id = (p: string) => `${p}-${process.pid}-${Date.now()}-${ids++}`;

export function threadRow(owner: string | null = null, metadata: Record<string, unknown> = {}): ThreadRow {
  return { thread_id: id("t"), owner, created_at: at(), updated_at: at(), metadata, status: "idle", values: null, interrupts: {} };
}

export function runRow(thread: ThreadRow, strategy: RunRow["multitask_strategy"] = "reject"): RunRow {
  return {
    run_id: id("r"),
    thread_id: thread.thread_id,
    assistant_id: "G",
    owner: thread.owner,
    created_at: at(),
    updated_at: at(),
    status: "pending",
    metadata: {},
    multitask_strategy: strategy,
    kwargs: { input: {}, command: null, config: {}, stream_mode: ["values"], stream_subgraphs: false, interrupt_before: null, interrupt_after: null, checkpoint_id: null },
    attempt: 0,
  };
}

async function collect(events: AsyncIterable<StreamEvent>): Promise<string[]> {
  const out: string[] = [];
  for await (const e of events) out.push(`${e.seq}:${e.event}`);
  return out;
}

const claim = (b: Backend, ms = 200) => b.claimRun(AbortSignal.timeout(ms));

export function backendContract(name: string, make: () => Promise<Backend>, options: ContractOptions = {}): void {
  describe(`Backend contract: ${name}`, () => {
    const open: Backend[] = [];
    const backend = async () => {
      const b = await make();
      open.push(b);
      return b;
    };
    afterEach(async () => {
      for (const b of open.splice(0)) await b.close();
    });

    it("stores threads: create once, merge metadata on update, search by owner, metadata and status, delete", async () => {
      const b = await backend();
      const t = threadRow("alice", { team: "a" });
      expect((await b.createThread(t)).created).toBe(true);
      expect(await b.createThread({ ...t, metadata: {} })).toMatchObject({ created: false, row: { metadata: { team: "a" } } });
      await b.createThread(threadRow("bob", { team: "a" }));
      expect((await b.updateThread(t.thread_id, { metadata: { x: 1 }, status: "interrupted" }))?.metadata).toEqual({ team: "a", x: 1 });
      const mine = await b.searchThreads({ owner: "alice", metadata: { team: "a" }, limit: 10, offset: 0 });
      expect(mine.map((r) => r.thread_id)).toEqual([t.thread_id]);
      expect(await b.searchThreads({ owner: "alice", status: "idle", limit: 10, offset: 0 })).toEqual([]);
      expect(await b.deleteThread(t.thread_id)).toBe(true);
      expect(await b.getThread(t.thread_id)).toBeUndefined();
      expect(await b.deleteThread(t.thread_id)).toBe(false);
    });

    it("keeps one active run per thread: reject throws ThreadBusy, enqueued runs are claimed in order after the running one ends", async () => {
      const b = await backend();
      const t = threadRow();
      await b.createThread(t);
      const r1 = await b.createRun(runRow(t));
      expect((await b.getThread(t.thread_id))?.status).toBe("busy");
      await expect(b.createRun(runRow(t, "reject"))).rejects.toBeInstanceOf(ThreadBusy);
      const r2 = await b.createRun(runRow(t, "enqueue"));
      const r3 = await b.createRun(runRow(t, "enqueue"));
      expect((await claim(b))?.run_id).toBe(r1.run_id);
      expect(await claim(b)).toBeUndefined(); // r2 waits for r1
      await b.finishRun(r1.run_id, "success", { v: 1 }, { status: "idle", values: { v: 1 } });
      expect((await b.getThread(t.thread_id))?.status).toBe("busy"); // r2, r3 still to run
      const next = await claim(b);
      expect(next).toMatchObject({ run_id: r2.run_id, status: "running", attempt: 1 });
      await b.finishRun(r2.run_id, "success", undefined, { status: "idle" });
      expect((await claim(b))?.run_id).toBe(r3.run_id);
      await b.finishRun(r3.run_id, "success", { v: 3 }, { status: "idle", values: { v: 3 } });
      expect(await b.getThread(t.thread_id)).toMatchObject({ status: "idle", values: { v: 3 } });
      expect((await b.listRuns(t.thread_id, { limit: 10, offset: 0 })).map((r) => r.run_id)).toEqual([r3.run_id, r2.run_id, r1.run_id]);
      expect(await b.getRun(t.thread_id, r1.run_id)).toMatchObject({ status: "success", result: { v: 1 } });
    });

    it("claims runs of different threads side by side; a waiting claim wakes for a new run and ends on abort", async () => {
      const b = await backend();
      const [t1, t2] = [threadRow(), threadRow()];
      await b.createThread(t1);
      await b.createThread(t2);
      await b.createRun(runRow(t1));
      await b.createRun(runRow(t2));
      const claimed = [await claim(b), await claim(b)].map((r) => r?.thread_id).sort();
      expect(claimed).toEqual([t1.thread_id, t2.thread_id].sort());
      const t3 = threadRow();
      await b.createThread(t3);
      const waiting = b.claimRun(AbortSignal.timeout(5000));
      const r = await b.createRun(runRow(t3));
      expect((await waiting)?.run_id).toBe(r.run_id);
      const ac = new AbortController();
      const idle = b.claimRun(ac.signal);
      ac.abort();
      expect(await idle).toBeUndefined();
    });

    it("cancels: a pending run ends at once (rollback deletes it), a running one is signalled, an ended one is not", async () => {
      const b = await backend();
      const t = threadRow();
      await b.createThread(t);
      const running = await b.createRun(runRow(t));
      const pending = await b.createRun(runRow(t, "enqueue"));
      const doomed = await b.createRun(runRow(t, "enqueue"));
      await claim(b);
      const heard: string[] = [];
      const off = b.onCancel(running.run_id, (action) => heard.push(action));
      expect(await b.cancelRun(t.thread_id, pending.run_id, "interrupt")).toBe(true);
      expect((await b.getRun(t.thread_id, pending.run_id))?.status).toBe("interrupted");
      expect(await b.cancelRun(t.thread_id, doomed.run_id, "rollback")).toBe(true);
      expect(await b.getRun(t.thread_id, doomed.run_id)).toBeUndefined();
      expect(await b.cancelRun(t.thread_id, running.run_id, "rollback")).toBe(true);
      await expect.poll(() => heard).toEqual(["rollback"]);
      off();
      await b.finishRun(running.run_id, "interrupted", undefined, { status: "idle" });
      expect(await b.getRun(t.thread_id, running.run_id)).toBeUndefined(); // rolled back: deleted
      expect(await b.cancelRun(t.thread_id, pending.run_id, "interrupt")).toBe(false);
    });

    it("applies interrupt and rollback strategies at creation: earlier runs get the cancel, the new run waits", async () => {
      const b = await backend();
      const t = threadRow();
      await b.createThread(t);
      const first = await b.createRun(runRow(t));
      await claim(b);
      const queued = await b.createRun(runRow(t, "enqueue"));
      const heard: string[] = [];
      b.onCancel(first.run_id, (action) => heard.push(action));
      const last = await b.createRun(runRow(t, "interrupt"));
      await expect.poll(() => heard).toEqual(["interrupt"]);
      expect((await b.getRun(t.thread_id, queued.run_id))?.status).toBe("interrupted");
      expect((await b.getRun(t.thread_id, first.run_id))?.cancel_action).toBe("interrupt");
      expect(await claim(b)).toBeUndefined();
      await b.finishRun(first.run_id, "interrupted", undefined, { status: "idle" });
      expect((await claim(b))?.run_id).toBe(last.run_id);
    });

    it("requeues a claimed run with its attempt and checkpoint_before; waitForRun resolves when it ends", async () => {
      const b = await backend();
      const t = threadRow();
      await b.createThread(t);
      const r = await b.createRun(runRow(t));
      expect((await claim(b))?.checkpoint_before).toBeUndefined();
      await b.markStarted(r.run_id, null);
      await b.requeue(r.run_id);
      expect((await b.getRun(t.thread_id, r.run_id))?.status).toBe("pending");
      const again = await claim(b);
      expect(again).toMatchObject({ attempt: 2, checkpoint_before: null });
      await b.markStarted(r.run_id, "ignored: only the first start counts");
      const done = b.waitForRun(t.thread_id, r.run_id);
      await b.finishRun(r.run_id, "error", { error: "E", message: "m" }, { status: "error" });
      expect(await done).toMatchObject({ status: "error", result: { error: "E" }, checkpoint_before: null });
    });

    it("replays a run's stream events from any position and delivers new ones until the end", async () => {
      const b = await backend();
      const t = threadRow();
      await b.createThread(t);
      const r = await b.createRun(runRow(t));
      await b.publish(r.run_id, { event: "metadata", data: { run_id: r.run_id } });
      await b.publish(r.run_id, { event: "values", data: { a: 1 } });
      const all = collect(b.subscribe(r.run_id, 0, AbortSignal.timeout(5000)));
      const tail = collect(b.subscribe(r.run_id, 1, AbortSignal.timeout(5000)));
      await b.publish(r.run_id, { event: "updates|sub:1", data: {} });
      await b.publish(r.run_id, { event: "end", data: null });
      expect(await all).toEqual(["1:metadata", "2:values", "3:updates|sub:1", "4:end"]);
      expect(await tail).toEqual(["2:values", "3:updates|sub:1", "4:end"]);
    });

    if (options.reopen) {
      const reopen = options.reopen;
      it("after a restart, a run that was running is pending again and claimable, with its attempt", async () => {
        const b = await make();
        const t = threadRow();
        await b.createThread(t);
        const r = await b.createRun(runRow(t));
        await claim(b);
        await b.markStarted(r.run_id, "cp-1");
        const restarted = await reopen(b);
        open.push(restarted);
        expect((await restarted.getRun(t.thread_id, r.run_id))?.status).toBe("pending");
        expect(await claim(restarted)).toMatchObject({ run_id: r.run_id, attempt: 2, checkpoint_before: "cp-1" });
      });
    }
  });
}
