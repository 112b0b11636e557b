/**
 * One run per thread in one process (issue 8, defect 3) on MemorySaver, which has no `lockThread`: the
 * runtime's in-process lock alone. The cross-process tests are test/durability/multitask.test.ts.
 */
import { describe, expect, it } from "vitest";
import { Command, MemorySaver, ThreadBusyError, compileGraph } from "@graphc/runtime";
import { compileThreads, threadGraph } from "../durability/fixtures/thread-graph.ts";

/** A gate the test opens: the node of a run waits in it, so the run holds its thread until `open()`. */
function gate() {
  let open!: () => void;
  let entered!: () => void;
  const inside = new Promise<void>((r) => (entered = r));
  const opened = new Promise<void>((r) => (open = r));
  return {
    wait: async () => {
      entered();
      await opened;
    },
    inside,
    open: () => open(),
  };
}

const thread = (id: string, extra: object = {}) => ({ configurable: { thread_id: id }, ...extra });

/** A thread interrupted in `work`, and a resume of it holding the thread inside the node. */
async function held(saver: MemorySaver, id: string) {
  const g = gate();
  const app = compileThreads(saver, g.wait);
  await compileThreads(saver).invoke({ log: [] }, thread(id));
  const run = app.invoke(new Command({ resume: "first" }), thread(id));
  await g.inside;
  return { app, run, open: g.open };
}

describe("one run per thread (in process)", () => {
  it("reject (default): a second run, resume, stream or updateState on a busy thread is THREAD_BUSY naming graph and thread", async () => {
    const saver = new MemorySaver();
    const { run, open } = await held(saver, "t");
    const other = compileThreads(saver);
    const calls = [
      () => other.invoke(new Command({ resume: "second" }), thread("t")),
      () => other.invoke({ log: [] }, thread("t")),
      async () => {
        for await (const _ of other.stream(new Command({ resume: "second" }), thread("t")));
      },
      () => other.updateState(thread("t"), { log: ["x"] }),
    ];
    for (const call of calls) {
      const e = await call().catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ThreadBusyError);
      expect(e).toMatchObject({ code: "THREAD_BUSY", graph: "Threads", threadId: "t" });
      expect((e as Error).message).toContain('Thread "t" is busy');
    }
    // another thread of the same saver is free
    await expect(other.invoke({ log: ["other"] }, thread("u"))).resolves.toMatchObject({ log: ["other"] });
    open();
    await run;
    expect((await other.getState(thread("t"))).values).toEqual({ log: ["first"] });
    // free again once the run is over
    await expect(other.updateState(thread("t"), { log: ["after"] })).resolves.toBeDefined();
  });

  it("enqueue: runs and updates wait their turn, in order, and none is lost", async () => {
    const saver = new MemorySaver();
    const { run, open } = await held(saver, "t");
    const other = compileThreads(saver, undefined, { multitask: "enqueue" });
    const order: string[] = [];
    const waiting = [
      other.updateState(thread("t"), { log: ["u1"] }).then(() => order.push("u1")),
      other.updateState(thread("t"), { log: ["u2"] }).then(() => order.push("u2")),
    ];
    open();
    await run.then(() => order.push("run"));
    await Promise.all(waiting);
    expect(order).toEqual(["run", "u1", "u2"]);
    expect((await other.getState(thread("t"))).values).toEqual({ log: ["first", "u1", "u2"] });
  });

  it("the per-call option wins over the compile option", async () => {
    const saver = new MemorySaver();
    const { run, open } = await held(saver, "t");
    const queued = compileThreads(saver, undefined, { multitask: "enqueue" });
    await expect(queued.updateState(thread("t", { multitask: "reject" }), { log: ["x"] })).rejects.toBeInstanceOf(
      ThreadBusyError,
    );
    const late = compileThreads(saver).updateState(thread("t", { multitask: "enqueue" }), { log: ["late"] });
    open();
    await run;
    await late;
    expect((await queued.getState(thread("t"))).values).toEqual({ log: ["first", "late"] });
  });

  it("two graphs on one saver share the thread; a waiting run stops when its signal aborts", async () => {
    const saver = new MemorySaver();
    const { run, open } = await held(saver, "t");
    const other = compileGraph(threadGraph(undefined, "Other"), { checkpointer: saver });
    await expect(other.invoke({ log: [] }, thread("t"))).rejects.toMatchObject({ code: "THREAD_BUSY", graph: "Other" });
    const ctl = new AbortController();
    const waiting = other
      .invoke({ log: [] }, thread("t", { multitask: "enqueue", signal: ctl.signal }))
      .catch((e: unknown) => e);
    ctl.abort(new Error("gave up"));
    expect(await waiting).toMatchObject({ code: "ABORTED" });
    // a run whose signal is aborted before it asks is not queued, and queues no one out
    const queued = other.updateState(thread("t", { multitask: "enqueue" }), { log: ["queued"] });
    await expect(
      other.invoke({ log: [] }, thread("t", { multitask: "enqueue", signal: AbortSignal.abort() })),
    ).rejects.toMatchObject({ code: "ABORTED" });
    open();
    await run;
    await queued;
    expect((await other.getState(thread("t"))).values).toEqual({ log: ["first", "queued"] });
    // the aborted waiters left no trace: the thread is free
    await expect(other.updateState(thread("t"), { log: ["next"] })).resolves.toBeDefined();
  });

  it("a run that fails, or a stream the consumer leaves, gives the thread back", async () => {
    const saver = new MemorySaver();
    const failing = compileThreads(saver, () => {
      throw new Error("node failed");
    });
    await compileThreads(saver).invoke({ log: [] }, thread("t"));
    await expect(failing.invoke(new Command({ resume: "x" }), thread("t"))).rejects.toMatchObject({
      code: "NODE_ERROR",
    });
    const app = compileThreads(saver);
    for await (const _ of app.stream({ log: [] }, thread("t"))) break;
    // the left run stops at its next step boundary and gives the thread back after its last save
    await expect(app.updateState(thread("t", { multitask: "enqueue" }), { log: ["ok"] })).resolves.toBeDefined();
    await expect(app.updateState(thread("t"), { log: ["free"] })).resolves.toBeDefined();
  });

  it("a multitask that is neither reject nor enqueue is INVALID_CONFIG", async () => {
    const app = compileThreads(new MemorySaver());
    await expect(app.invoke({ log: [] }, thread("t", { multitask: "interrupt" }) as never)).rejects.toMatchObject({
      code: "INVALID_CONFIG",
      field: "multitask",
      graph: "Threads",
    });
  });
});
