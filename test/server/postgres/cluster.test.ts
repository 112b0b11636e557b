/**
 * Issue 11's scale-out tests with the official `@langchain/langgraph-sdk` Client against two API
 * processes (`graphc serve --postgres`) and three worker processes (`graphc worker --postgres`, four runs
 * at a time each), on one Postgres schema of this file's own:
 *  - the customer-service refund: a run streamed with subgraphs from API process A stops at the human
 *    confirmation inside the execution subgraph; a client of API process B sees the interrupt, resumes it
 *    and the refund is made; the history read from A holds both runs' checkpoints;
 *  - a cancel sent to B stops a run streamed from A;
 *  - 500 runs on 100 threads at once, from both API processes: none lost or run twice, each thread's runs
 *    one at a time in the order they were queued, `reject` refused (409) while a thread is busy;
 *  - the kill test: a worker is SIGKILLed in the middle of nodes ten times (a new one started each time);
 *    every run completes with an undisturbed run's final state, and every node of every run completed
 *    exactly once — a node ran again only when a kill had cut it short, never after it had completed.
 * One cluster for all four: a process start (compiling the graphs included) is the costly part.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@langchain/langgraph-sdk";
import { ROOT } from "../../durability/child.ts";
import { APPROVAL, REFUND_REQUEST } from "../../durability/fixtures/refund.ts";
import { tempDir } from "../../temp-dir.ts";
import { Cluster } from "./cluster.ts";
import { nodeCounts, readNodeLog, runActivity, safeToCut } from "./node-log.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const THREADS = 100;
const RUNS_PER_THREAD = 5;
const tmp = tempDir("pg-cluster");
const log = join(tmp.dir, "tally.log");
const nodeLog = join(tmp.dir, "nodes.log");
const KILLS = 10;
const SLEEP_MS = 600;
const gate = join(tmp.dir, "gate");
writeFileSync(log, "");
writeFileSync(nodeLog, "");
const cluster = new Cluster({
  name: "pgsdk",
  files: [join(ROOT, "samples", "customer-service", "customer_service.graph"), join(import.meta.dirname, "fixtures", "tally.graph"), join(import.meta.dirname, "fixtures", "counted.graph")],
  dataDir: join(tmp.dir, "data"),
  // the scripted model answers (offline, deterministic); one business database for every worker
  env: { OPENAI_API_KEY: "", CS_DB: join(tmp.dir, "business.db"), GRAPHC_TALLY_LOG: log, GRAPHC_GATE: gate, GRAPHC_COUNT_LOG: nodeLog, GRAPHC_COUNT_MS: String(SLEEP_MS) },
});
let a: Client;
let b: Client;

beforeAll(async () => {
  const [apiA, apiB] = await Promise.all([cluster.api(), cluster.api(), cluster.worker(4), cluster.worker(4), cluster.worker(4)]);
  a = new Client({ apiUrl: apiA });
  b = new Client({ apiUrl: apiB });
}, 120_000);

afterAll(async () => {
  await cluster.stop();
  tmp.remove();
});

describe("2 API processes and 3 workers on Postgres, through the LangGraph SDK", () => {
  it("refund: streamed with subgraphs from A, interrupted in a subgraph, resumed from B, history read from A", async () => {
    const thread = await a.threads.create();
    const events: { event: string; data: unknown }[] = [];
    for await (const e of a.runs.stream(thread.thread_id, "CustomerService", {
      input: { messages: [{ role: "user", content: REFUND_REQUEST }], user_id: "u1001" },
      streamMode: ["updates"],
      streamSubgraphs: true,
    })) {
      events.push(e as { event: string; data: unknown });
    }
    const names = events.map((e) => e.event);
    expect(names[0]).toBe("metadata");
    // chunks of the subgraphs' own nodes, under their namespaces
    expect(names.some((n) => n.startsWith("updates|execution:"))).toBe(true);
    expect(names.some((n) => n.startsWith("updates|reception:"))).toBe(true);
    const interrupt = events.find((e) => e.event === "updates" && (e.data as Record<string, unknown>)["__interrupt__"] !== undefined);
    expect(interrupt?.data).toEqual({
      __interrupt__: [expect.objectContaining({ value: expect.objectContaining({ kind: "refund_confirmation", order_id: "ORD1003", amount: 1299 }) })],
    });

    // the other API process sees the thread stopped at the confirmation
    const paused = await b.threads.getState(thread.thread_id);
    expect(paused.next).toEqual(["execution"]);
    expect((await b.threads.get(thread.thread_id)).status).toBe("interrupted");

    const resumed: { event: string; data: unknown }[] = [];
    for await (const e of b.runs.stream(thread.thread_id, "CustomerService", { command: { resume: APPROVAL }, streamMode: ["values"] })) {
      resumed.push(e as { event: string; data: unknown });
    }
    const last = resumed.filter((e) => e.event === "values").at(-1)?.data as Record<string, unknown>;
    expect(last["execution_result"]).toMatchObject({ status: "done", order_id: "ORD1003", amount: 1299, actor: APPROVAL.actor });

    const done = await a.threads.getState(thread.thread_id);
    expect(done.next).toEqual([]);
    expect(done.values).toEqual(last);
    const history = await a.threads.getHistory(thread.thread_id, { limit: 100 });
    // newest first, one chain: every checkpoint's parent is the next one in the list
    expect(history[0]!.checkpoint.checkpoint_id).toBe(done.checkpoint.checkpoint_id);
    for (let i = 0; i + 1 < history.length; i++) {
      expect(history[i]!.parent_checkpoint?.checkpoint_id).toBe(history[i + 1]!.checkpoint.checkpoint_id);
    }
    expect(history.some((h) => h.next.includes("execution"))).toBe(true); // the stop at the confirmation
    const runs = await a.runs.list(thread.thread_id);
    expect(runs.map((r) => r.status)).toEqual(["success", "success"]);
  });

  it("a cancel sent to API process B stops a run streamed from A", async () => {
    const thread = await a.threads.create();
    const run = await a.runs.create(thread.thread_id, "Counted", { input: { key: "cancel-me" } });
    // once the run has started on a worker, cancel it through the other process
    for (let i = 0; i < 1000 && !readFileSync(nodeLog, "utf8").includes(" cancel-me start"); i++) await sleep(10);
    await b.runs.cancel(thread.thread_id, run.run_id);
    await a.runs.join(thread.thread_id, run.run_id);
    expect((await a.runs.get(thread.thread_id, run.run_id)).status).toBe("interrupted");
    const state = await a.threads.getState(thread.thread_id);
    expect((state.values as { trail?: string[] }).trail ?? []).not.toContain("finish");
  });

  it(`${THREADS * RUNS_PER_THREAD} runs on ${THREADS} threads at once: none lost or doubled, one at a time per thread, in order`, async () => {
    const clients = [a, b];
    const threads = await Promise.all(Array.from({ length: THREADS }, (_, i) => clients[i % 2]!.threads.create()));
    const rejected: number[] = [];
    // per thread: a first run held at the gate, a `reject` run (refused: the thread is busy), four `enqueue` runs
    const queued = await Promise.all(
      threads.map(async (t, i) => {
        const via = (k: number) => clients[(i + k) % 2]!;
        const ids: string[] = [];
        const first = await via(0).runs.create(t.thread_id, "Tally", { input: { token: `${i}#0`, gate: true } });
        ids.push(first.run_id);
        await via(1)
          .runs.create(t.thread_id, "Tally", { input: { token: `${i}#x`, gate: false }, multitaskStrategy: "reject" })
          .then(
            () => undefined,
            (e: { status?: number }) => rejected.push(e.status ?? -1),
          );
        for (let k = 1; k < RUNS_PER_THREAD; k++) {
          const r = await via(k).runs.create(t.thread_id, "Tally", { input: { token: `${i}#${k}`, gate: false }, multitaskStrategy: "enqueue" });
          ids.push(r.run_id);
        }
        return ids;
      }),
    );
    expect(rejected).toEqual(Array.from({ length: THREADS }, () => 409));
    writeFileSync(gate, "open");
    expect(existsSync(gate)).toBe(true);

    await Promise.all(threads.map((t, i) => clients[i % 2]!.runs.join(t.thread_id, queued[i]!.at(-1)!)));
    for (const [i, t] of threads.entries()) {
      const state = await clients[(i + 1) % 2]!.threads.getState(t.thread_id);
      expect(state.values).toMatchObject({ seen: Array.from({ length: RUNS_PER_THREAD }, (_, k) => `${i}#${k}`), count: RUNS_PER_THREAD });
      const runs = await a.runs.list(t.thread_id, { limit: 20 });
      expect(runs.map((r) => [r.run_id, r.status])).toEqual([...queued[i]!].reverse().map((id) => [id, "success"]));
    }

    // the node log of every worker process: per thread, each run's node ran once, never beside another run's
    const spans = new Map<string, { token: string; start: number; end: number }[]>();
    for (const line of readFileSync(log, "utf8").split("\n")) {
      const [at, token, what] = line.split(" ");
      if (token === undefined || !token.includes("#")) continue;
      const list = spans.get(token.split("#")[0]!) ?? [];
      if (what === "start") list.push({ token, start: Number(at), end: Number.NaN });
      else list.find((s) => s.token === token && Number.isNaN(s.end))!.end = Number(at);
      spans.set(token.split("#")[0]!, list);
    }
    expect(spans.size).toBe(THREADS);
    for (const [thread, list] of spans) {
      expect(list.map((s) => s.token)).toEqual(Array.from({ length: RUNS_PER_THREAD }, (_, k) => `${thread}#${k}`));
      for (let k = 1; k < list.length; k++) expect(list[k]!.start).toBeGreaterThanOrEqual(list[k - 1]!.end);
    }
  }, 120_000);

  it(`SIGKILL a worker in the middle of nodes ${KILLS} times: every run completes as if undisturbed, no completed node runs again`, async () => {
    const refThread = await a.threads.create();
    const reference = (await a.runs.wait(refThread.thread_id, "Counted", { input: { key: "reference" } })) as Record<string, unknown>;
    expect([...(reference["trail"] as string[])].sort()).toEqual(["finish", "join", "long", "short", "start"]);

    const runs: { thread: string; run: string; key: string }[] = [];
    const startRun = async () => {
      const key = `kill${runs.length}`;
      const via = runs.length % 2 === 0 ? a : b;
      const thread = await via.threads.create();
      const run = await via.runs.create(thread.thread_id, "Counted", { input: { key } });
      runs.push({ thread: thread.thread_id, run: run.run_id, key });
    };
    for (let i = 0; i < 6; i++) await startRun();

    const killedAt = new Map<string, number>(); // run key → time of the last kill that hit it
    const replacements: Promise<unknown>[] = [];
    let kills = 0;
    const started = Date.now();
    const deadline = started + 200_000;
    while (kills < KILLS) {
      if (Date.now() > deadline) throw new Error(`only ${kills} of ${KILLS} kills found a worker to kill within 200 s`);
      const active = await cluster.query<{ n: string }>(`SELECT count(*) AS n FROM $schema.graphc_runs WHERE status IN ('pending', 'running')`);
      if (Number(active.rows[0]!.n) < 6) await startRun(); // keep the workers busy until the last kill
      const held = await cluster.query<{ pid: number; key: string }>(
        `SELECT w.pid, r.kwargs -> 'input' ->> 'key' AS key FROM $schema.graphc_runs r
         JOIN $schema.graphc_workers w ON w.worker_id = r.worker_id WHERE r.status = 'running'`,
      );
      const lines = readNodeLog(nodeLog, (k) => k.startsWith("kill"));
      const now = Date.now();
      // a victim: a live worker with a node asleep, and every run it holds safe to cut (node-log.ts)
      const victim = cluster.children.find((c) => {
        if (c.proc.exitCode !== null || c.proc.signalCode !== null) return false;
        const keys = held.rows.filter((h) => h.pid === c.proc.pid).map((h) => h.key);
        const activity = keys.map((k) => runActivity(lines, k, killedAt.get(k) ?? 0));
        return activity.some((x) => x.open.size > 0) && activity.every((x) => safeToCut(x, now, SLEEP_MS));
      });
      if (victim === undefined) {
        await sleep(10);
        continue;
      }
      victim.proc.kill("SIGKILL");
      kills++;
      for (const h of held.rows) if (h.pid === victim.proc.pid) killedAt.set(h.key, Date.now());
      await victim.exited;
      // the survivors carry on while it starts; a failed start is reported after the runs
      replacements.push(cluster.worker(2).then(() => undefined, (e: unknown) => e));
    }

    // a replacement that fails to start fails the test now (its runs would otherwise wait until the timeout),
    // and runs still unfinished near the timeout fail it with what the cluster was doing
    const failedStart = Promise.all(replacements.map((p) => p.then((e) => (e === undefined ? undefined : Promise.reject(e)))));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stuck = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const alive = cluster.children.filter((c) => c.proc.exitCode === null && c.proc.signalCode === null).length;
        cluster
          .query(`SELECT status, count(*)::int AS n FROM $schema.graphc_runs GROUP BY status ORDER BY status`)
          .then((r) => reject(new Error(`runs unfinished after 280 s: ${JSON.stringify(r.rows)}; ${alive} processes alive; ${kills} kills`)), reject);
      }, Math.max(0, started + 280_000 - Date.now()));
    });
    const joined = Promise.all(runs.map((r, i) => [a, b][i % 2]!.runs.join(r.thread, r.run)));
    const ends = await Promise.race([Promise.all([joined, failedStart]).then(([e]) => e), stuck]).finally(() => clearTimeout(timer));
    expect((await Promise.all(replacements)).filter((e) => e !== undefined)).toEqual([]);
    for (const [i, r] of runs.entries()) {
      expect(ends[i]).toEqual({ ...reference, key: r.key });
      expect((await a.runs.get(r.thread, r.run)).status).toBe("success");
    }
    // every node of every run completed exactly once; the extra starts are the executions kills cut short
    const counts = nodeCounts(readNodeLog(nodeLog, (k) => k.startsWith("kill")));
    expect(counts.size).toBe(runs.length * 5);
    let cut = 0;
    for (const [name, c] of counts) {
      expect({ name, end: c.end }).toEqual({ name, end: 1 });
      cut += c.start - c.end;
    }
    expect(cut).toBeGreaterThanOrEqual(KILLS);
    // and the runs the kills hit were claimed again, by other workers
    const attempts = await cluster.query<{ n: string }>(
      `SELECT sum(attempt - 1) AS n FROM $schema.graphc_runs WHERE kwargs -> 'input' ->> 'key' LIKE 'kill%'`,
    );
    expect(Number(attempts.rows[0]!.n)).toBeGreaterThanOrEqual(KILLS);
  }, 300_000);
});
