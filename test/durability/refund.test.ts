/**
 * Issue 4's "Done when": a customer-service refund above the limit stops at the human confirmation
 * (an interrupt inside the execution subgraph), the process exits, and a NEW process resumes it — from
 * SQLite and from Postgres — to the same result as a run that does both steps in one process.
 *
 * The sample's .graph files are compiled into this run's temp folder (not beside the sample, which the e2e
 * test builds at the same time), and each scenario gets its own business database.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { CompiledGraph } from "@graphc/runtime";
import { SqliteSaver } from "@graphc/checkpoint-sqlite";
import { dropSchema, postgresUrl } from "../savers/pg-env.ts";
import { tempDir } from "../temp-dir.ts";
import { Child, ROOT, bundleRunner, compileGraph } from "./child.ts";
import { APPROVAL, refundStep, type RefundStep } from "./fixtures/refund.ts";

const SAMPLE = join(ROOT, "samples", "customer-service");
const tmp = tempDir("refund");
const schema = `graphc_refund_${process.pid}_${Date.now().toString(36)}`;
let child = "";
let graph: CompiledGraph;
let url = "";

beforeAll(async () => {
  // the scripted model answers unless a real key is set: keep this offline and deterministic
  vi.stubEnv("OPENAI_API_KEY", "");
  await compileGraph(join(SAMPLE, "customer_service.graph"), SAMPLE, tmp.dir);
  graph = ((await import(join(tmp.dir, "customer_service.graph.ts"))) as { CustomerService: CompiledGraph }).CustomerService;
  child = await bundleRunner(
    tmp.dir,
    { module: "customer_service.graph.ts", graph: "CustomerService" },
    { file: join(ROOT, "test", "durability", "fixtures", "refund.ts"), name: "runRefundChild" },
    "refund-child.mjs",
  );
  url = postgresUrl();
  reference = await inProcess();
});

afterAll(async () => {
  vi.unstubAllEnvs();
  if (url) await dropSchema(url, schema);
  tmp.remove();
});

/** One step in a new process; resolves once that process has exited. */
async function stepInChild(args: string[]): Promise<RefundStep> {
  const c = new Child(child, args, { ...process.env, OPENAI_API_KEY: "" });
  const lines = await c.success();
  return JSON.parse(lines.at(-1)!) as RefundStep;
}

/** What may differ between two runs: message ids and the refund id's time part. */
function normalise(step: RefundStep): unknown {
  const text = JSON.stringify(step)
    .replace(/"id":"[^"]*"/g, '"id":"…"')
    .replace(/RF-(ORD\d+)-[0-9a-z]+/g, "RF-$1-…");
  return JSON.parse(text);
}

/** The reference: both steps in this process, on a SQLite checkpoint file. */
async function inProcess(): Promise<[RefundStep, RefundStep]> {
  const saver = new SqliteSaver(join(tmp.dir, "in-process-checkpoints.db"));
  const dbPath = join(tmp.dir, "in-process-business.db");
  try {
    const ask = await refundStep(graph, saver, { threadId: "refund", dbPath, step: "ask" });
    const confirm = await refundStep(graph, saver, { threadId: "refund", dbPath, step: "confirm" });
    return [JSON.parse(JSON.stringify(ask)), JSON.parse(JSON.stringify(confirm))];
  } finally {
    saver.close();
  }
}

let reference: [RefundStep, RefundStep];

describe("a refund confirmed by a human, resumed in another process", () => {
  it("in one process: stops at the confirmation inside the execution subgraph, resumes in place", async () => {
    const [ask, confirm] = reference;
    expect(ask.interrupt).toEqual(expect.objectContaining({ kind: "refund_confirmation", order_id: "ORD1003", amount: 1299, limit: 500 }));
    expect(ask.next).toEqual(["execution"]);
    expect(ask.audit).toEqual([]);
    expect(ask.refunds).toEqual([]);
    // the resume runs only the interrupted node and what follows it, inside the subgraph
    expect(confirm.updates).toEqual([
      ["execution", "approve"],
      ["execution", "execute"],
      ["", "execution"],
    ]);
    expect(confirm.interrupt).toBeUndefined();
    expect(confirm.next).toEqual([]);
    expect(confirm.values.execution_result).toMatchObject({ status: "done", order_id: "ORD1003", amount: 1299, actor: APPROVAL.actor });
    expect(confirm.refunds).toEqual([{ order_id: "ORD1003", amount: 1299, approved_by: APPROVAL.actor }]);
    expect(confirm.audit.map((a) => [a.actor, a.action])).toEqual([
      [APPROVAL.actor, "refund.create"],
      [APPROVAL.actor, "order.status"],
    ]);
  });

  it("SQLite: the asking process exits, a new process resumes from the checkpoint file to the same result", async () => {
    const file = join(tmp.dir, "sqlite-checkpoints.db");
    const business = join(tmp.dir, "sqlite-business.db");
    const ask = await stepInChild(["sqlite", file, "refund", business, "ask"]);
    const confirm = await stepInChild(["sqlite", file, "refund", business, "confirm"]);
    expect(normalise(ask)).toEqual(normalise(reference[0]));
    expect(normalise(confirm)).toEqual(normalise(reference[1]));
  });

  it("Postgres: the asking process exits, a new process resumes from the database to the same result", async () => {
    const business = join(tmp.dir, "postgres-business.db");
    const ask = await stepInChild(["postgres", url, schema, "refund", business, "ask"]);
    const confirm = await stepInChild(["postgres", url, schema, "refund", business, "confirm"]);
    expect(normalise(ask)).toEqual(normalise(reference[0]));
    expect(normalise(confirm)).toEqual(normalise(reference[1]));
  });
});
