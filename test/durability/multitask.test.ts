/**
 * One run per thread across processes (issue 8, defect 3), on SqliteSaver and PostgresSaver: child
 * processes (fixtures/thread-worker.ts) share one thread. Process A resumes the thread and holds it inside
 * its node; process B then resumes or updates the same thread:
 *  - multitask "reject": B gets THREAD_BUSY and changes nothing;
 *  - multitask "enqueue": B waits, then applies its update after A's: both land, in order, on one unbroken
 *    chain of checkpoints (before the lock, B's update forked the thread and one of the two was lost);
 *  - A killed with SIGKILL while it holds the thread releases it.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CheckpointSaver } from "@graphc/runtime";
import { SqliteSaver } from "@graphc/checkpoint-sqlite";
import { PostgresSaver } from "@graphc/checkpoint-postgres";
import { dropSchema, postgresUrl } from "../savers/pg-env.ts";
import { tempDir } from "../temp-dir.ts";
import { Child, ROOT, bundle } from "./child.ts";
import { compileThreads } from "./fixtures/thread-graph.ts";

const tmp = tempDir("multitask");
const schema = `graphc_multitask_${process.pid}_${Date.now().toString(36)}`;
let worker = "";
let url = "";

beforeAll(async () => {
  const entry = [
    `import { runThreadWorker } from ${JSON.stringify(join(ROOT, "test/durability/fixtures/thread-worker.ts"))};`,
    `await runThreadWorker(process.argv.slice(2));`,
  ].join("\n");
  worker = await bundle(entry, tmp.dir, join(tmp.dir, "thread-worker.mjs"));
  url = postgresUrl();
});

afterAll(async () => {
  if (url) await dropSchema(url, schema);
  tmp.remove();
});

interface Backend {
  name: string;
  /** the saver of this test process */
  open(): Promise<CheckpointSaver>;
  close(saver: CheckpointSaver): Promise<void>;
  /** the worker's arguments before the thread */
  args(): string[];
  /**
   * What B uses to take the thread once A was killed: SQLite sees the dead holder at once, so "reject"
   * proves the release; Postgres frees the lock when its backend notices the closed socket, a moment
   * after the kill, so B waits ("enqueue") and the test's timeout bounds the wait.
   */
  afterKill: "reject" | "enqueue";
}

const backends: Backend[] = [
  {
    name: "SqliteSaver",
    open: async () => new SqliteSaver(join(tmp.dir, "threads.db")),
    close: async (s) => (s as SqliteSaver).close(),
    args: () => ["sqlite", join(tmp.dir, "threads.db"), "-"],
    afterKill: "reject",
  },
  {
    name: "PostgresSaver",
    open: async () => {
      const s = PostgresSaver.fromConnString(url, { schema });
      await s.setup();
      return s;
    },
    close: (s) => (s as PostgresSaver).end(),
    args: () => ["postgres", url, schema],
    afterKill: "enqueue",
  },
];

type Step = { op: "start" | "resume" | "update"; value?: string; multitask?: "reject" | "enqueue"; hold?: boolean };

function results(lines: readonly string[]): { op: string; ok?: true; code?: string }[] {
  return lines.filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as { op: string; ok?: true; code?: string });
}

let threads = 0;

describe.each(backends)("one run per thread across processes: $name", (backend) => {
  let saver: CheckpointSaver;
  beforeAll(async () => {
    saver = await backend.open();
  });
  afterAll(async () => {
    await backend.close(saver);
  });

  const spawnWorker = (thread: string, steps: Step[]) =>
    new Child(worker, [...backend.args(), thread, JSON.stringify(steps)]);

  /** A fresh thread, interrupted in `work` (log []), and process A resuming it, holding it inside its node. */
  async function holdNewThread(): Promise<{ thread: string; a: Child }> {
    const thread = `${backend.name}-${++threads}`;
    await compileThreads(saver).invoke({ log: [] }, { configurable: { thread_id: thread } });
    const a = spawnWorker(thread, [{ op: "resume", value: "A", hold: true }]);
    await a.line(/^holding$/);
    return { thread, a };
  }

  async function logOf(thread: string): Promise<unknown> {
    return (await compileThreads(saver).getState({ configurable: { thread_id: thread } })).values.log;
  }

  it("reject: a resume and an updateState from a second process get THREAD_BUSY while the first holds the thread", async () => {
    const { thread, a } = await holdNewThread();
    const b = spawnWorker(thread, [
      { op: "resume", value: "B", multitask: "reject" },
      { op: "update", value: "B", multitask: "reject" },
    ]);
    expect(results(await b.success())).toEqual([
      { op: "resume", code: "THREAD_BUSY" },
      { op: "update", code: "THREAD_BUSY" },
    ]);
    a.send("go");
    expect(results(await a.success())).toEqual([{ op: "resume", ok: true }]);
    expect(await logOf(thread)).toEqual(["A"]);
  }, 20_000);

  it("enqueue: the second process waits, then applies its update after the first: nothing lost, no fork", async () => {
    const { thread, a } = await holdNewThread();
    const b = spawnWorker(thread, [{ op: "update", value: "B", multitask: "enqueue" }]);
    // B found the thread taken by A and waits (before the lock, B never asked and forked the thread)
    await b.line(/^queued$/);
    a.send("go");
    expect(results(await a.success())).toEqual([{ op: "resume", ok: true }]);
    expect(results(await b.success())).toEqual([{ op: "update", ok: true }]);
    expect(await logOf(thread)).toEqual(["A", "B"]);
    // one chain: every checkpoint's parent is the next older one
    const history = [];
    for await (const t of saver.list({ configurable: { thread_id: thread, checkpoint_ns: "" } })) history.push(t);
    for (let i = 0; i + 1 < history.length; i++) {
      expect(history[i]!.parentConfig?.configurable?.checkpoint_id).toBe(history[i + 1]!.checkpoint.id);
    }
  }, 20_000);

  it("a holder killed with SIGKILL releases the thread", async () => {
    const { thread, a } = await holdNewThread();
    const before = spawnWorker(thread, [{ op: "update", value: "early", multitask: "reject" }]);
    expect(results(await before.success())).toEqual([{ op: "update", code: "THREAD_BUSY" }]);
    a.proc.kill("SIGKILL");
    expect((await a.exited).signal).toBe("SIGKILL");
    const b = spawnWorker(thread, [{ op: "update", value: "B", multitask: backend.afterKill }]);
    expect(results(await b.success())).toEqual([{ op: "update", ok: true }]);
    expect(await logOf(thread)).toEqual(["B"]);
  }, 20_000);
});
