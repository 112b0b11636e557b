/**
 * Scale-out test (issue 4): two worker processes share threads through one Postgres.
 *  - Alternation: worker A runs a thread until it interrupts, worker B resumes it with Command({ resume }),
 *    then A again, and so on: a thread's state lives in Postgres only, never in a worker.
 *  - Isolation: 200 threads run concurrently, spread over both workers (each request of a thread goes to
 *    the other worker than the last one); every thread must end in the state derived from its own id,
 *    with a history that mentions no other thread.
 * Postgres comes from GRAPHC_PG_URL or .ci/pg.env (test/savers/pg-env.ts: in CI a missing database fails
 * the test, elsewhere .ci/services.sh starts one). Each run uses a fresh schema, dropped afterwards.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresSaver } from "@graphc/checkpoint-postgres";
import { dropSchema, postgresUrl } from "../savers/pg-env.ts";
import { tempDir } from "../temp-dir.ts";
import { Child, ROOT, bundleRunner, compileGraph } from "./child.ts";
import { assertChain, threadHistory } from "./history.ts";
import { answerFor, expectedReview, type Question } from "./fixtures/review.nodes.ts";

const FIXTURES = join(ROOT, "test", "durability", "fixtures");
const THREADS = 200;

interface Reply {
  id: number;
  worker: string;
  thread: string;
  interrupt?: Question;
  output?: Record<string, unknown>;
  error?: string;
}

/** A worker process and its pending requests, matched to replies by id. */
class Worker {
  private readonly pending = new Map<number, (r: Reply) => void>();
  private nextId = 0;
  constructor(
    readonly name: string,
    readonly child: Child,
  ) {
    child.proc.stdout!.on("data", () => {
      // lines are parsed by Child; replies are the lines that are JSON objects
      while (this.read < child.lines.length) {
        const line = child.lines[this.read++]!;
        if (!line.startsWith("{")) continue;
        const reply = JSON.parse(line) as Reply;
        this.pending.get(reply.id)?.(reply);
        this.pending.delete(reply.id);
      }
    });
  }
  private read = 0;

  request(op: "start" | "resume", thread: string, answer?: string): Promise<Reply> {
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      this.pending.set(id, resolve);
      this.child.exited.then((e) => reject(this.child.failure(`exited (${e.signal ?? e.code}) with request ${id} open`)));
      this.child.send({ id, op, thread, answer });
    });
  }

  async stop(): Promise<void> {
    this.child.send({ id: 0, op: "exit" });
    await this.child.success();
  }
}

const tmp = tempDir("scale-out");
const schema = `graphc_durability_${process.pid}_${Date.now().toString(36)}`;
let url = "";
let workers: [Worker, Worker];
let saver: PostgresSaver;

beforeAll(async () => {
  url = postgresUrl();
  await compileGraph(join(FIXTURES, "review.graph"), FIXTURES, tmp.dir);
  const file = await bundleRunner(
    tmp.dir,
    { module: "review.graph.ts", graph: "Review" },
    { file: join(FIXTURES, "review-worker.ts"), name: "runReviewWorker" },
    "review-worker.mjs",
  );
  saver = PostgresSaver.fromConnString(url, { schema });
  await saver.setup(); // the workers' own setup() calls then find the tables
  workers = [new Worker("A", new Child(file, [url, schema, "A"])), new Worker("B", new Child(file, [url, schema, "B"]))];
  await Promise.all(workers.map((w) => w.child.line(/^ready$/)));
});

afterAll(async () => {
  await Promise.all((workers ?? []).map((w) => w.stop().catch(() => w.child.proc.kill("SIGKILL"))));
  await saver?.end();
  if (url) await dropSchema(url, schema);
  tmp.remove();
});

/** Runs one thread to its end, each request on the other worker than the one before. Returns the replies. */
async function drive(thread: string, first: 0 | 1): Promise<Reply[]> {
  const replies: Reply[] = [];
  let turn = first;
  let reply = await workers[turn].request("start", thread);
  for (;;) {
    replies.push(reply);
    if (reply.error !== undefined) throw new Error(`${thread} on worker ${reply.worker}: ${reply.error}`);
    if (reply.interrupt === undefined) return replies;
    turn = turn === 0 ? 1 : 0;
    reply = await workers[turn].request("resume", thread, answerFor(thread, reply.interrupt.round));
  }
}

/** The thread's saved history: one unbroken chain whose every checkpoint holds this thread's values only. */
async function checkHistory(thread: string) {
  const history = await threadHistory(saver, thread);
  expect([...history.keys()]).toEqual([""]);
  const root = history.get("")!;
  assertChain(root, thread);
  const want = expectedReview(thread);
  expect(root[0]!.values).toEqual(want);
  for (const c of root) {
    if (c.values.thread !== undefined) expect(c.values.thread).toBe(thread);
    for (const v of [...((c.values.parts ?? []) as string[]), ...((c.values.answers ?? []) as string[])]) {
      expect(v.startsWith(`${thread}:`) || v.startsWith(`${thread}#`)).toBe(true);
    }
  }
}

describe("scale-out: two worker processes on one Postgres", () => {
  it("alternate on one thread: A runs to an interrupt, B resumes it, A resumes the next one, …", async () => {
    const replies = await drive("alternate", 0);
    expect(replies.map((r) => [r.worker, r.interrupt?.round ?? "end"])).toEqual([
      ["A", 1],
      ["B", 2],
      ["A", 3],
      ["B", "end"],
    ]);
    // each resume continued the state the other worker saved: the answers so far are in the output
    expect(replies.map((r) => r.output?.answers)).toEqual([[], ["alternate#1"], ["alternate#1", "alternate#2"], expectedReview("alternate").answers]);
    expect(replies.at(-1)!.output).toEqual(expectedReview("alternate"));
    await checkHistory("alternate");
  });

  it(`runs ${THREADS} threads concurrently over both workers without any state crossing threads`, async () => {
    const threads = Array.from({ length: THREADS }, (_, i) => `t${i}-${(i * 7919) % 1000}`);
    const all = await Promise.all(threads.map((t, i) => drive(t, (i % 2) as 0 | 1)));
    all.forEach((replies, i) => {
      const thread = threads[i]!;
      expect(replies.map((r) => r.worker)).toEqual(i % 2 === 0 ? ["A", "B", "A", "B"] : ["B", "A", "B", "A"]);
      expect(replies.map((r) => r.interrupt)).toEqual([1, 2, 3, undefined].map((round) => round && { thread, round }));
      expect(replies.at(-1)!.output).toEqual(expectedReview(thread));
    });
    await Promise.all(threads.map((t) => checkHistory(t)));
  });
});
