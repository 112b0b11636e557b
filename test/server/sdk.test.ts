/**
 * The official client (`@langchain/langgraph-sdk`'s `Client`) against `graphc serve` (SQLite, a child
 * process on 127.0.0.1): the customer-service refund with its confirmation interrupt, streamed with
 * subgraphs and resumed; multitask strategies; cancel; owners' isolation; 422, 413 and 501 answers; and
 * restart safety (a run in flight when the server is killed is resumed from its last checkpoint at the next
 * start without running its finished node again; one still running after the drain time of a graceful stop
 * is requeued).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { Client } from "@langchain/langgraph-sdk";
import { tempDir, type TempDir } from "../temp-dir.ts";
import { CUSTOMER_SERVICE, SLOW, startServer, type ServerProcess } from "./server-process.ts";

let tmp: TempDir;
let server: ServerProcess;
let args: string[];
let env: Record<string, string>;

const client = (token: string | undefined) =>
  new Client({
    apiUrl: server.url,
    apiKey: null,
    defaultHeaders: token ? { Authorization: `Bearer ${token}` } : {},
    callerOptions: { maxRetries: 0 },
  });

beforeAll(async () => {
  tmp = tempDir("server-sdk");
  const tokens = join(tmp.dir, "tokens.txt");
  writeFileSync(tokens, "# token owner\nalice-token alice\nbob-token bob\n");
  env = { CS_DB: join(tmp.dir, "business.db"), SLOW_LOG: join(tmp.dir, "slow.log") };
  writeFileSync(env["SLOW_LOG"]!, "");
  args = [CUSTOMER_SERVICE, SLOW, "--data", join(tmp.dir, "data"), "--tokens", tokens, "--max-body", "65536", "--drain", "200"];
  server = await startServer(args, env);
});

afterAll(async () => {
  await server?.stop("SIGKILL");
  tmp?.remove();
});

const refund = { messages: [{ role: "user", content: "ORD1003 也要退款" }], user_id: "u1001" };
const slowRun = (topic: string, delayMs: number) => ({ input: { topic }, config: { configurable: { delayMs } } });

describe("graphc serve with the official SDK client", () => {
  it("lists one assistant per served graph, with the input schema from the .graph types", async () => {
    const alice = client("alice-token");
    const assistants = await alice.assistants.search();
    expect(assistants.map((a) => a.graph_id).sort()).toEqual(["CustomerService", "Slow"]);
    const schemas = await alice.assistants.getSchemas("CustomerService");
    expect(schemas.input_schema).toMatchObject({ type: "object", required: ["user_id"], properties: { user_id: { type: "string" } } });
    expect((await alice.assistants.get("Slow")).assistant_id).toBe("Slow");
  });

  it("streams the refund with subgraph namespaces, stops at the confirmation, resumes, and reads the history", async () => {
    const alice = client("alice-token");
    const thread = await alice.threads.create({ metadata: { purpose: "refund" } });
    const events: { event: string; data: unknown }[] = [];
    for await (const part of alice.runs.stream(thread.thread_id, "CustomerService", {
      input: refund,
      streamMode: ["updates", "values"],
      streamSubgraphs: true,
    })) {
      events.push({ event: part.event, data: part.data });
    }
    const names = events.map((e) => e.event);
    expect(names[0]).toBe("metadata");
    expect(names.some((n) => /^updates\|reception:/.test(n))).toBe(true);
    expect(names.some((n) => /^updates\|execution:/.test(n))).toBe(true);
    const interrupt = events.find((e) => e.event === "updates" && "__interrupt__" in (e.data as object));
    expect(interrupt?.data).toMatchObject({ __interrupt__: [{ value: { kind: "refund_confirmation", order_id: "ORD1003", amount: 1299 } }] });

    const paused = await alice.threads.getState(thread.thread_id);
    expect(paused.next).toEqual(["execution"]);
    expect(paused.tasks[0]?.interrupts[0]?.value).toMatchObject({ kind: "refund_confirmation" });
    expect((await alice.threads.get(thread.thread_id)).status).toBe("interrupted");
    // the execution subgraph's own state, paused before approve's confirmation is answered
    const withSubgraphs = await alice.threads.getState(thread.thread_id, undefined, { subgraphs: true });
    expect(withSubgraphs.tasks[0]?.state).toMatchObject({ next: ["approve"], values: { amount: 1299 } });

    const done = (await alice.runs.wait(thread.thread_id, "CustomerService", {
      command: { resume: { approved: true, actor: "human:sdk-test" } },
    })) as { execution_result: { status: string; actor: string } };
    expect(done.execution_result).toMatchObject({ status: "done", actor: "human:sdk-test" });

    const after = await alice.threads.get(thread.thread_id);
    expect(after.status).toBe("idle");
    expect(after.metadata).toMatchObject({ purpose: "refund", graph_id: "CustomerService" });
    const history = await alice.threads.getHistory(thread.thread_id, { limit: 50 });
    expect(history.length).toBeGreaterThan(4);
    expect((history[0]!.values as { execution_result: { status: string } }).execution_result.status).toBe("done");
    expect(history.some((s) => s.next.includes("execution"))).toBe(true);
    const older = history[3]!;
    const atCheckpoint = await alice.threads.getState(thread.thread_id, older.checkpoint.checkpoint_id!);
    expect(atCheckpoint.values).toEqual(older.values);
    expect(atCheckpoint.checkpoint.checkpoint_id).toBe(older.checkpoint.checkpoint_id);
    const runs = await alice.runs.list(thread.thread_id);
    expect(runs.map((r) => r.status)).toEqual(["success", "success"]);
  });

  it("updates a thread's state as a node, joins a run's stream, runs stateless, deletes a thread", async () => {
    const alice = client("alice-token");
    const thread = await alice.threads.create({ graphId: "Slow" });
    expect(await alice.threads.getState(thread.thread_id)).toMatchObject({ values: {}, next: [], tasks: [] });
    const run = await alice.runs.create(thread.thread_id, "Slow", { ...slowRun("a", 300), streamMode: ["updates"] });
    const joined: string[] = [];
    for await (const part of alice.runs.joinStream(thread.thread_id, run.run_id)) joined.push(part.event);
    expect(joined).toEqual(["metadata", "updates", "updates"]);
    // graphc checks an update against what the node declares: `slow` writes only `log`
    await expect(alice.threads.updateState(thread.thread_id, { values: { topic: "edited" }, asNode: "slow" })).rejects.toMatchObject({
      status: 422,
      message: expect.stringMatching(/cannot write .*topic.*"field":"topic"/),
    });
    const { checkpoint } = (await alice.threads.updateState(thread.thread_id, { values: { log: ["by hand"] }, asNode: "slow" })) as unknown as {
      checkpoint: { checkpoint_id: string };
    };
    const state = await alice.threads.getState(thread.thread_id);
    expect(state.values).toEqual({ topic: "a", log: ["first:a", "slow:a", "by hand"] });
    expect(state.checkpoint.checkpoint_id).toBe(checkpoint.checkpoint_id);
    expect(state.metadata).toMatchObject({ source: "update" });
    expect((await alice.threads.get(thread.thread_id)).values).toEqual(state.values);

    const stateless = (await alice.runs.wait(null, "Slow", slowRun("solo", 0))) as { log: string[] };
    expect(stateless.log).toEqual(["first:solo", "slow:solo"]);

    await alice.threads.delete(thread.thread_id);
    await expect(alice.threads.get(thread.thread_id)).rejects.toMatchObject({ status: 404 });
  });

  it("reports a run whose node fails: an error event, status error, and runs.wait throws", async () => {
    const alice = client("alice-token");
    const thread = await alice.threads.create();
    const failing = { input: { topic: "f" }, config: { configurable: { delayMs: 0, fail: true } } };
    const events: { event: string; data: unknown }[] = [];
    for await (const part of alice.runs.stream(thread.thread_id, "Slow", { ...failing, streamMode: ["updates"] })) events.push(part);
    expect(events.at(-1)).toMatchObject({ event: "error", data: { error: "NodeError", message: expect.stringContaining("slow failed on purpose (f)") } });
    expect((await alice.runs.list(thread.thread_id))[0]?.status).toBe("error");
    expect((await alice.threads.get(thread.thread_id)).status).toBe("error");
    await expect(alice.runs.wait(thread.thread_id, "Slow", failing)).rejects.toThrow(/NodeError: .*slow failed on purpose/);
  });

  it("rejects a second run on a busy thread (409) and runs enqueued ones after it, in order", async () => {
    const alice = client("alice-token");
    const thread = await alice.threads.create();
    const first = await alice.runs.create(thread.thread_id, "Slow", slowRun("a", 1500));
    await expect(alice.runs.create(thread.thread_id, "Slow", { ...slowRun("x", 0), multitaskStrategy: "reject" })).rejects.toMatchObject({ status: 409 });
    const second = await alice.runs.create(thread.thread_id, "Slow", { ...slowRun("b", 0), multitaskStrategy: "enqueue" });
    const values = (await alice.runs.join(thread.thread_id, second.run_id)) as { log: string[] };
    expect(values.log).toEqual(["first:a", "slow:a", "first:b", "slow:b"]);
    expect((await alice.runs.get(thread.thread_id, first.run_id)).status).toBe("success");
    expect((await alice.runs.list(thread.thread_id)).map((r) => r.status)).toEqual(["success", "success"]);
  });

  it("interrupt stops the running run (its finished node's writes stay); rollback deletes it and its writes", async () => {
    const alice = client("alice-token");
    const thread = await alice.threads.create();
    const long = await alice.runs.create(thread.thread_id, "Slow", slowRun("a", 30_000));
    await waitFor(async () => ((await alice.threads.getState(thread.thread_id)).values as { log?: string[] }).log?.includes("first:a") === true);
    const next = await alice.runs.create(thread.thread_id, "Slow", { ...slowRun("b", 0), multitaskStrategy: "interrupt" });
    expect(((await alice.runs.join(thread.thread_id, next.run_id)) as { log: string[] }).log).toEqual(["first:a", "first:b", "slow:b"]);
    expect((await alice.runs.get(thread.thread_id, long.run_id)).status).toBe("interrupted");

    const doomed = await alice.runs.create(thread.thread_id, "Slow", slowRun("c", 30_000));
    await waitFor(async () => ((await alice.threads.getState(thread.thread_id)).values as { log: string[] }).log.includes("first:c"));
    const kept = await alice.runs.create(thread.thread_id, "Slow", { ...slowRun("d", 0), multitaskStrategy: "rollback" });
    expect(((await alice.runs.join(thread.thread_id, kept.run_id)) as { log: string[] }).log).toEqual(["first:a", "first:b", "slow:b", "first:d", "slow:d"]);
    await expect(alice.runs.get(thread.thread_id, doomed.run_id)).rejects.toMatchObject({ status: 404 });
  });

  it("cancels a running run", async () => {
    const alice = client("alice-token");
    const thread = await alice.threads.create();
    const run = await alice.runs.create(thread.thread_id, "Slow", slowRun("a", 30_000));
    await waitFor(async () => (await alice.runs.get(thread.thread_id, run.run_id)).status === "running");
    await alice.runs.cancel(thread.thread_id, run.run_id, true);
    expect((await alice.runs.get(thread.thread_id, run.run_id)).status).toBe("interrupted");
    expect((await alice.threads.get(thread.thread_id)).status).not.toBe("busy");
  });

  it("cancels a streamed run whose client goes away, with onDisconnect: cancel (and keeps it running without)", async () => {
    const alice = client("alice-token");
    const thread = await alice.threads.create();
    const runIds: string[] = [];
    for (const onDisconnect of ["cancel", "continue"] as const) {
      const ac = new AbortController();
      const parts = alice.runs.stream(thread.thread_id, "Slow", {
        ...slowRun(onDisconnect, 2000),
        multitaskStrategy: "enqueue",
        onDisconnect,
        signal: ac.signal,
        onRunCreated: ({ run_id }) => void runIds.push(run_id),
      });
      for await (const part of parts) {
        if (part.event === "metadata") ac.abort();
      }
    }
    const [cancelled, continued] = runIds;
    await waitFor(async () => (await alice.runs.get(thread.thread_id, cancelled!)).status === "interrupted");
    expect(((await alice.runs.join(thread.thread_id, continued!)) as { log: string[] }).log).toContain("slow:continue");
    expect((await alice.runs.get(thread.thread_id, continued!)).status).toBe("success");
  });

  it("keeps each owner's threads private: another owner gets 404, no token 401", async () => {
    const alice = client("alice-token");
    const bob = client("bob-token");
    const thread = await alice.threads.create({ metadata: { secret: "alice" } });
    await expect(bob.threads.get(thread.thread_id)).rejects.toMatchObject({ status: 404 });
    await expect(bob.threads.getState(thread.thread_id)).rejects.toMatchObject({ status: 404 });
    await expect(bob.runs.create(thread.thread_id, "Slow", slowRun("x", 0))).rejects.toMatchObject({ status: 404 });
    await expect(bob.threads.delete(thread.thread_id)).rejects.toMatchObject({ status: 404 });
    expect((await bob.threads.search({ metadata: { secret: "alice" } })).length).toBe(0);
    expect((await alice.threads.search({ metadata: { secret: "alice" } })).map((t) => t.thread_id)).toEqual([thread.thread_id]);
    await expect(client(undefined).threads.search()).rejects.toMatchObject({ status: 401 });
    await expect(client("wrong").assistants.search()).rejects.toMatchObject({ status: 401 });
  });

  it("answers 422 naming the field for input that does not fit the graph's input type", async () => {
    const alice = client("alice-token");
    const thread = await alice.threads.create();
    const wrongType = alice.runs.wait(thread.thread_id, "CustomerService", { input: { ...refund, user_id: 5 } });
    await expect(wrongType).rejects.toMatchObject({ status: 422, message: expect.stringContaining("input.user_id must be a string") });
    const missing = alice.runs.create(thread.thread_id, "CustomerService", { input: { messages: [] } });
    await expect(missing).rejects.toMatchObject({ status: 422, message: expect.stringContaining("input.user_id is required") });
    const unknown = alice.runs.create(thread.thread_id, "Slow", { input: { topic: "a", tpoic: "b" } });
    await expect(unknown).rejects.toMatchObject({ status: 422, message: expect.stringContaining("input.tpoic is not a field") });
    const mode = alice.runs.create(thread.thread_id, "Slow", { input: { topic: "a" }, streamMode: ["events"] as never });
    await expect(mode).rejects.toMatchObject({ status: 422, message: expect.stringContaining("stream_mode") });
    expect(await alice.runs.list(thread.thread_id)).toEqual([]);
  });

  it("answers 501 with a JSON error for endpoints it does not implement, 404 for unknown paths, 413 for large bodies", async () => {
    const headers = { Authorization: "Bearer alice-token", "content-type": "application/json" };
    for (const [method, path] of [
      ["POST", "/runs/crons"],
      ["POST", "/assistants"],
      ["GET", "/assistants/Slow/graph"],
      ["POST", "/store/items/search"],
    ] as const) {
      const res = await fetch(`${server.url}${path}`, { method, headers, ...(method === "POST" ? { body: "{}" } : {}) });
      expect(res.status, path).toBe(501);
      expect(await res.json()).toMatchObject({ error: "NotImplemented" });
    }
    await expect(client("alice-token").crons.create("Slow", { schedule: "* * * * *" })).rejects.toMatchObject({ status: 501 });
    const unknown = await fetch(`${server.url}/nope`, { headers });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: "NotFound" });
    const big = await fetch(`${server.url}/threads`, { method: "POST", headers, body: JSON.stringify({ metadata: { pad: "x".repeat(70_000) } }) });
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ error: "PayloadTooLarge" });
    // the server is still up
    expect((await client("alice-token").assistants.search()).length).toBe(2);
  });

  it("resumes a run in flight when the server was killed, from its last checkpoint (its finished node does not run again)", async () => {
    const alice = client("alice-token");
    const thread = await alice.threads.create();
    const run = await alice.runs.create(thread.thread_id, "Slow", slowRun("crash", 3000));
    await waitFor(async () => ((await alice.threads.getState(thread.thread_id)).values as { log?: string[] }).log?.includes("first:crash") === true);
    await server.stop("SIGKILL");
    server = await startServer(args, env);
    const values = (await client("alice-token").runs.join(thread.thread_id, run.run_id)) as { log: string[] };
    expect(values.log).toEqual(["first:crash", "slow:crash"]);
    expect(readFileSync(env["SLOW_LOG"]!, "utf8").match(/first crash/g)).toHaveLength(1);
  });

  it("at SIGTERM requeues a run that does not finish within the drain time (pending again on disk, for the next start)", async () => {
    const alice = client("alice-token");
    const thread = await alice.threads.create();
    const run = await alice.runs.create(thread.thread_id, "Slow", slowRun("term", 3000));
    await waitFor(async () => (await alice.runs.get(thread.thread_id, run.run_id)).status === "running");
    expect(await server.stop("SIGTERM")).toBe(0);
    expect(server.output()).toContain("shutting down");
    // read the file itself: opening it as a backend would requeue a run left running, hiding a missed requeue
    const db = new Database(join(tmp.dir, "data", "graphc.db"), { readonly: true });
    try {
      const row = db.prepare("SELECT status, attempt FROM server_runs WHERE run_id = ?").get(run.run_id);
      expect(row).toEqual({ status: "pending", attempt: 1 });
    } finally {
      db.close();
    }
  });
});

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}
