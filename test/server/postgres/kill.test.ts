/**
 * Issue 11's kill test: one API process and three worker processes (one run at a time each) on
 * Postgres; a worker is SIGKILLed in the middle of a node ten times, a new worker started each time.
 * Every run must still complete, with the final state of an undisturbed run; the node log must show that
 * exactly the nodes cut short ran again and that no node that had completed ran a second time (so no
 * completed superstep, nor a completed task of the fan-out step, was repeated).
 *
 * A kill is aimed at a node that is sure to be asleep (started 40–200 ms ago, of a 400 ms sleep) in a run
 * with no other node near its end, so "cut short" and "completed" are never ambiguous.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@langchain/langgraph-sdk";
import { tempDir } from "../../temp-dir.ts";
import { Cluster } from "./cluster.ts";

const KILLS = 10;
const SLEEP_MS = 400;
const FIXTURE = join(import.meta.dirname, "fixtures", "counted.graph");
const tmp = tempDir("pg-kill");
const log = join(tmp.dir, "nodes.log");
writeFileSync(log, "");
const cluster = new Cluster({
  name: "pgkill",
  files: [FIXTURE],
  dataDir: join(tmp.dir, "data"),
  env: { GRAPHC_COUNT_LOG: log, GRAPHC_COUNT_MS: String(SLEEP_MS) },
  heartbeatMs: 200,
});
let client: Client;

beforeAll(async () => {
  const [api] = await Promise.all([cluster.api(), cluster.worker(1), cluster.worker(1), cluster.worker(1)]);
  client = new Client({ apiUrl: api });
}, 120_000);

afterAll(async () => {
  await cluster.stop();
  tmp.remove();
});

interface Line {
  at: number;
  key: string;
  node: string;
  what: "start" | "end";
}

function lines(): Line[] {
  return readFileSync(log, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => {
      const [at, key, node, what] = l.split(" ");
      return { at: Number(at), key: key!, node: node!, what: what as "start" | "end" };
    });
}

/**
 * A node asleep now and safe to cut: its run's only node in flight, started 40–200 ms ago, the run's last
 * end ≥ 40 ms ago. Starts before the run's last kill are of the attempt that died.
 */
function target(now: number, killedAt: ReadonlyMap<string, number>): { key: string; node: string } | undefined {
  const byKey = new Map<string, Line[]>();
  for (const l of lines()) if (l.at > (killedAt.get(l.key) ?? 0)) byKey.set(l.key, [...(byKey.get(l.key) ?? []), l]);
  for (const [key, ls] of byKey) {
    const open = new Map<string, number>();
    let lastEnd = 0;
    for (const l of ls) {
      if (l.what === "start") open.set(l.node, l.at);
      else {
        open.delete(l.node);
        lastEnd = l.at;
      }
    }
    if (open.size !== 1) continue;
    const [node, at] = [...open][0]!;
    if (now - at >= 40 && now - at <= 200 && now - lastEnd >= 40) return { key, node };
  }
  return undefined;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("SIGKILL a worker mid-run, ten times", () => {
  it("every run completes with an undisturbed run's state; only the nodes cut short ran again", async () => {
    // the undisturbed reference, before any kill
    const refThread = await client.threads.create();
    const reference = (await client.runs.wait(refThread.thread_id, "Counted", { input: { key: "ref" } })) as Record<string, unknown>;
    expect(reference).toEqual({ key: "ref", trail: expect.any(Array), total: expect.any(Number) });
    expect([...(reference["trail"] as string[])].sort()).toEqual(["finish", "join", "long", "short", "start"]);

    const runs: { thread: string; run: string; key: string }[] = [];
    const startRun = async () => {
      const key = `k${runs.length}`;
      const thread = await client.threads.create();
      const run = await client.runs.create(thread.thread_id, "Counted", { input: { key } });
      runs.push({ thread: thread.thread_id, run: run.run_id, key });
    };
    for (let i = 0; i < 4; i++) await startRun();

    const replacements: Promise<unknown>[] = [];
    const killedAt = new Map<string, number>();
    const cut: string[] = []; // "<key> <node>" of every node a kill cut short
    const deadline = Date.now() + 150_000;
    while (cut.length < KILLS) {
      if (Date.now() > deadline) throw new Error(`only ${cut.length} of ${KILLS} kills found a node to cut within 150 s`);
      const active = await cluster.query<{ n: string }>(`SELECT count(*) AS n FROM $schema.graphc_runs WHERE status IN ('pending', 'running')`);
      if (Number(active.rows[0]!.n) < 3) await startRun(); // keep every worker busy until the last kill
      const aim = target(Date.now(), killedAt);
      if (aim === undefined) {
        await sleep(10);
        continue;
      }
      const holder = await cluster.query<{ pid: number }>(
        `SELECT w.pid FROM $schema.graphc_runs r JOIN $schema.graphc_workers w ON w.worker_id = r.worker_id
         WHERE r.status = 'running' AND r.kwargs -> 'input' ->> 'key' = $1`,
        [aim.key],
      );
      const holderChild = cluster.children.find((c) => c.proc.pid === holder.rows[0]?.pid && c.proc.exitCode === null && c.proc.signalCode === null);
      if (holderChild === undefined) continue;
      holderChild.proc.kill("SIGKILL");
      killedAt.set(aim.key, Date.now());
      cut.push(`${aim.key} ${aim.node}`);
      await holderChild.exited;
      // the survivors carry on while it starts; a failed start is reported after the runs
      replacements.push(cluster.worker(1).then(() => undefined, (e: unknown) => e));
    }

    expect((await Promise.all(replacements)).filter((e) => e !== undefined)).toEqual([]);
    const ends = await Promise.all(runs.map((r) => client.runs.join(r.thread, r.run)));
    for (const [i, r] of runs.entries()) {
      expect(ends[i]).toEqual({ ...reference, key: r.key });
      expect((await client.runs.get(r.thread, r.run)).status).toBe("success");
    }

    // the node log: each node of each run ended once; it started once more for each time a kill cut it
    const count = new Map<string, { start: number; end: number }>();
    for (const l of lines()) {
      if (l.key === "ref") continue;
      const c = count.get(`${l.key} ${l.node}`) ?? { start: 0, end: 0 };
      c[l.what]++;
      count.set(`${l.key} ${l.node}`, c);
    }
    expect(count.size).toBe(runs.length * 5);
    for (const [name, c] of count) {
      expect({ name, ...c }).toEqual({ name, start: 1 + cut.filter((x) => x === name).length, end: 1 });
    }
    // the killed runs were claimed again, by another worker
    const attempts = await cluster.query<{ key: string; attempt: number }>(
      `SELECT kwargs -> 'input' ->> 'key' AS key, attempt FROM $schema.graphc_runs WHERE kwargs -> 'input' ->> 'key' <> 'ref'`,
    );
    for (const a of attempts.rows) {
      expect({ key: a.key, attempt: a.attempt }).toEqual({ key: a.key, attempt: 1 + cut.filter((x) => x.startsWith(`${a.key} `)).length });
    }
  }, 240_000);
});
