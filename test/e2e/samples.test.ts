/**
 * End to end over samples/: every .graph file is compiled, the samples are type-checked together with the
 * generated code (samples/tsconfig.json), and every sample runs with its printed result / final state
 * asserted. Samples are imported dynamically, after the build, because they import the generated files
 * (which is also why the root tsconfig leaves samples/ out and tsc runs over them here).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const load = (path: string): Promise<any> => import(pathToFileURL(join(ROOT, "samples", path)).href);

// ---- the shapes the tests read (the samples' real types are checked by the tsc run below)
interface Build {
  ok: boolean;
  files: string[];
  report: string;
}
interface Update {
  path: string[];
  node: string;
  fields: string[];
  cached?: boolean;
}
interface ExecutionResult {
  status: string;
  order_id?: string;
  amount?: number;
  refund_id?: string;
  idempotency_key?: string;
  replayed?: boolean;
  actor?: string;
}
interface Turn {
  step: { user: string } | { resume: { approved: boolean; actor: string } };
  updates: Update[];
  notes: string[];
  interrupt?: { kind: string; order_id: string; amount: number; limit: number };
  next: string[];
  state: {
    intent: string;
    decision: string;
    entities: { order_id?: string };
    query_result: { error?: string; order_status?: string };
    execution_result: ExecutionResult;
    need_human: boolean;
    unknown_streak: number;
  };
  replies: string[];
}
interface AuditRow {
  actor: string;
  action: string;
  entity: string;
  entity_id: string;
  idempotency_key: string | null;
  before: string | null;
  after: string | null;
}
type Conversation = { turns: Turn[]; audit: AuditRow[] };

const tmp = mkdtempSync(join(tmpdir(), "graphc-samples-"));
let build: Build;

beforeAll(async () => {
  // the samples' scripted models answer unless a real key is set: keep this test offline and deterministic
  vi.stubEnv("OPENAI_API_KEY", "");
  const { buildSamples } = await load("build.ts");
  // graphc's own TS pass is skipped: the tsc run below checks the same node functions and more
  build = await buildSamples({ typecheck: false });
});

afterAll(() => {
  vi.unstubAllEnvs();
  rmSync(tmp, { recursive: true, force: true });
});

describe("samples build", () => {
  it("compiles every .graph file without diagnostics", () => {
    expect(build.report).toBe("");
    expect(build.ok).toBe(true);
    expect(build.files.length).toBe(17);
  });

  it("type-checks the samples with their generated code", () => {
    const tsc = join(ROOT, "node_modules", ".bin", "tsc");
    // throws with tsc's output on a type error
    execFileSync(tsc, ["--noEmit", "-p", join(ROOT, "samples", "tsconfig.json")], { cwd: ROOT, encoding: "utf8" });
  });
});

describe("multi-schema (seed 001)", () => {
  it("returns only the output schema's field", async () => {
    const { run } = await load("multi-schema/main.ts");
    expect(await run()).toEqual({ graph_output: "Dear 小黄, 早上好~ 很高兴认识你" });
  });
});

describe("research-writer (seed 000)", () => {
  const ARTICLE =
    "短文（基于 3 条要点）：LangGraph 流式输出的价值让用户尽早看到进展，缩短感知等待时间；" +
    "LangGraph 流式输出的价值暴露中间步骤，便于调试与观测；LangGraph 流式输出的价值支持按子图命名空间渲染层级进度。";

  it("streams subgraph updates under their namespaces; private messages never reach the parent", async () => {
    const lines: string[] = [];
    const { run } = await load("research-writer/main.ts");
    const { updates, shared, renamed } = await run((l: string) => lines.push(l));
    expect(updates).toEqual([
      { path: ["research"], node: "search", fields: ["notes", "messages"] },
      { path: [], node: "research", fields: ["notes"] },
      { path: ["writer"], node: "write", fields: ["article", "messages"] },
      { path: [], node: "writer", fields: ["article"] },
    ]);
    expect(lines.some((l) => /^\[research:[0-9a-f-]{8}\] search → /.test(l))).toBe(true);
    expect(lines.some((l) => /^\[writer:[0-9a-f-]{8}\] write → /.test(l))).toBe(true);
    expect(shared.article).toBe(ARTICLE);
    expect(shared).not.toHaveProperty("messages");
    // the renamed parent (user_query -> topic through `in { topic <- user_query }`) produces the same
    expect(renamed).toEqual({ notes: shared.notes, article: ARTICLE });
  });
});

describe("chatdev demos", () => {
  it("runs the file subgraph, the inline subgraph, the ReAct loop and the bounded loop", async () => {
    const { run } = await load("chatdev/main.ts");
    const r = await run(() => {});
    // three critics in parallel inside the file subgraph, the editor after them, the reviser once at the end
    expect(r.pathEvents.slice(0, 1)).toEqual(["writer"]);
    expect(new Set(r.pathEvents.slice(1, 4))).toEqual(
      new Set(["discuss/romanticism", "discuss/realism", "discuss/magical_realism"]),
    );
    expect(r.pathEvents.slice(4)).toEqual(["discuss/editor", "discuss", "reviser"]);
    expect(r.path.final.split("\n")[0]).toBe("终稿（采纳 3 处修改）");
    expect(r.inline.final.split("\n")[0]).toBe("终稿（采纳 1 处修改）");
    // QA sends the first answer back (no unit); the second pass of the subgraph fixes it
    expect(r.react).toMatchObject({ answer: "晴，22°C，适合散步", reviews: 2 });
    expect(r.loop).toMatchObject({
      iterations: 3,
      drafts: ["产品介绍 草稿 v1", "产品介绍 草稿 v2", "产品介绍 草稿 v3"],
      final: "定稿：产品介绍 草稿 v3（共 3 轮）",
    });
  });
});

describe("customer-service (seed 004)", () => {
  const conversation = async (name: string, options: Record<string, unknown> = {}): Promise<Conversation> => {
    const { runConversation } = await load("customer-service/conversation.ts");
    return runConversation({
      dbPath: join(tmp, `${name}.db`),
      checkpointPath: join(tmp, `${name}-checkpoints.db`),
      ...options,
    });
  };
  const summary = (t: Turn) => [t.state.intent, t.state.decision, t.state.execution_result.status, t.state.need_human];

  it("compiles the seed's limits: recursion 15, a 10 s timeout per subgraph call, retry and cache on the tools", async () => {
    const { CustomerServiceSpec } = await load("customer-service/customer_service.graph.ts");
    expect(CustomerServiceSpec.recursionLimit).toBe(15);
    const subgraphs = CustomerServiceSpec.nodes.filter((n: { subgraph?: unknown }) => n.subgraph !== undefined);
    expect(subgraphs.map((n: { name: string; timeout?: unknown }) => [n.name, n.timeout])).toEqual(
      ["reception", "query", "decide", "execution"].map((name) => [name, { runTimeout: 10_000 }]),
    );
    const { QuerySpec } = await load("customer-service/query.graph.ts");
    const fetch = QuerySpec.nodes.find((n: { name: string }) => n.name === "fetch");
    expect(fetch.retry).toEqual({ maxAttempts: 3, initialInterval: 200, backoffFactor: 2, jitter: false });
    expect(fetch.cache.ttl).toBe(300);
    expect(fetch.onError).toBe("tools_failed");
  });

  it("runs the scripted conversation: queries, refunds, confirmation, idempotent repeat, hand-off", async () => {
    const { turns, audit } = await conversation("demo");
    expect(turns.map(summary)).toEqual([
      ["query_order", "self_solve", "none", false],
      ["query_logistics", "self_solve", "none", false],
      ["refund", "self_solve", "done", false],
      ["refund", "self_solve", "none", false], // paused for confirmation
      ["refund", "self_solve", "done", false], // resumed
      ["refund", "self_solve", "done", false], // replayed
      ["human", "none", "none", true],
    ]);
    const [order, logistics, small, large, resumed, repeat, handoff] = turns as [
      Turn,
      Turn,
      Turn,
      Turn,
      Turn,
      Turn,
      Turn,
    ];

    // no rule covers an order query: the (scripted) model decides
    expect(order.updates.some((u) => u.path.join("/") === "decide" && u.node === "model_fallback")).toBe(true);
    expect(order.replies).toEqual(["订单 ORD1001：已签收，金额 ¥199，商品：蓝牙耳机。"]);

    // the carrier API fails once; the retry policy calls the tool again
    expect(logistics.notes.filter((n) => n.startsWith("get_logistics(ORD1004)"))).toEqual([
      "get_logistics(ORD1004)",
      "get_logistics(ORD1004) failed: carrier 圆通 API timed out for ORD1004",
      "get_logistics(ORD1004)",
    ]);
    expect(logistics.replies[0]).toMatch(/^订单 ORD1004 的物流：圆通：运输中/);

    expect(small.state.execution_result).toMatchObject({
      status: "done",
      order_id: "ORD1002",
      amount: 89,
      idempotency_key: "u1001_refund_ORD1002",
      actor: "user:u1001",
    });

    expect(large.interrupt).toEqual(
      expect.objectContaining({ kind: "refund_confirmation", order_id: "ORD1003", amount: 1299, limit: 500 }),
    );
    expect(large.replies).toEqual([]);
    expect(large.next).toEqual(["execution"]);
    expect(resumed.next).toEqual([]);
    // resuming re-runs only the interrupted node and what follows, inside the execution subgraph
    expect(resumed.updates.map((u) => [u.path.join("/"), u.node])).toEqual([
      ["execution", "approve"],
      ["execution", "execute"],
      ["", "execution"],
    ]);
    expect(resumed.state.execution_result).toMatchObject({
      status: "done",
      order_id: "ORD1003",
      amount: 1299,
      actor: "human:王经理",
    });

    // the same refund again: the query comes from the 5-minute cache and the idempotency key returns the first result
    expect(repeat.updates.find((u) => u.node === "fetch")?.cached).toBe(true);
    expect(repeat.state.execution_result).toEqual({ ...small.state.execution_result, replayed: true });
    expect(repeat.updates.some((u) => u.node === "execute")).toBe(false);

    expect(handoff.replies[0]).toMatch(/工单 HD0001/);

    expect(audit.map((a) => [a.actor, a.action, a.entity_id.replace(/^RF-(ORD\d+)-.*$/, "RF-$1")])).toEqual([
      ["user:u1001", "refund.create", "RF-ORD1002"],
      ["user:u1001", "order.status", "ORD1002"],
      ["human:王经理", "refund.create", "RF-ORD1003"],
      ["human:王经理", "order.status", "ORD1003"],
      ["system", "handoff.create", "HD0001"],
    ]);
    expect(JSON.parse(audit[1]!.before!)).toEqual({ id: "ORD1002", status: "delivered" });
    expect(JSON.parse(audit[1]!.after!)).toEqual({ id: "ORD1002", status: "refunded" });
    expect(audit[0]!.before).toBeNull();
    expect(audit[0]!.idempotency_key).toBe("u1001_refund_ORD1002");

    const { openDb } = await load("customer-service/db.ts");
    const db = openDb(join(tmp, "demo.db"));
    expect(db.prepare("SELECT order_id, amount, approved_by FROM refunds ORDER BY order_id").all()).toEqual([
      { order_id: "ORD1002", amount: 89, approved_by: "user:u1001" },
      { order_id: "ORD1003", amount: 1299, approved_by: "human:王经理" },
    ]);
  });

  it("asks for a missing order id, hands off after two unknowns, on tool failure, outside the refund window, and honours a rejection", async () => {
    const { turns, audit } = await conversation("edges", {
      steps: [
        { user: "我要退款" },
        { user: "今天天气不错" },
        { user: "哈哈哈" },
        { user: "ORD1006 的物流呢" },
        { user: "ORD1005 申请退款" },
        { user: "ORD1003 申请退款" },
        { resume: { approved: false, actor: "human:王经理" } },
      ],
    });
    expect(turns.map(summary)).toEqual([
      ["refund", "need_more_info", "none", false],
      ["unknown", "none", "none", false],
      ["unknown", "none", "none", true],
      ["query_logistics", "escalate", "none", true],
      ["refund", "escalate", "none", true],
      ["refund", "self_solve", "none", false],
      ["refund", "self_solve", "rejected", false],
    ]);
    const [missing, unknown1, unknown2, broken, , , rejected] = turns as Turn[] as [
      Turn,
      Turn,
      Turn,
      Turn,
      Turn,
      Turn,
      Turn,
    ];
    expect(missing.state.query_result).toEqual({ error: "missing_order_id" });
    expect(missing.updates.some((u) => u.node === "fetch")).toBe(false); // the guard stops before any tool call
    expect(missing.replies).toEqual(["请提供订单号（如 ORD1001），我来帮您查询。"]);
    expect(unknown1.state.unknown_streak).toBe(1);
    expect(unknown1.replies[0]).toMatch(/^抱歉，我没太明白/);
    expect(unknown2.state.unknown_streak).toBe(2);
    // 3 attempts, then on_error: tools_failed records the error and the decision escalates
    expect(broken.notes.filter((n) => n.includes("failed"))).toHaveLength(3);
    expect(broken.state.query_result).toEqual({ error: "tool_unavailable" });
    expect(rejected.state.execution_result).toMatchObject({ status: "rejected", actor: "human:王经理" });
    // only hand-off tickets were written: the rejected refund wrote nothing
    expect(audit.map((a) => a.action)).toEqual(["handoff.create", "handoff.create", "handoff.create"]);
  });

  it("remembers a user's orders across conversations in the long-term store (SQLite), never for a refund", async () => {
    const first = await conversation("memory", { threadId: "monday", steps: [{ user: "ORD1004 的快递到哪了？" }] });
    const asked = first.turns[0]!.state.query_result;
    expect(asked).toMatchObject({ order_status: "shipped" });
    // a new conversation (another thread) without an order id: the query takes the one asked about before
    const later = await conversation("memory", { threadId: "tuesday", steps: [{ user: "我的快递到哪了？" }, { user: "我要退款" }] });
    const [where, refund] = later.turns as Turn[] as [Turn, Turn];
    expect(where.notes).toContain("memory: last order ORD1004");
    expect(where.state.query_result).toEqual(asked);
    expect(where.replies[0]).toMatch(/^订单 ORD1004 的物流/);
    expect(refund.state.query_result).toEqual({ error: "missing_order_id" });
    // another user has no memory of it
    const stranger = await conversation("memory", { threadId: "wednesday", userId: "u2002", steps: [{ user: "我的快递到哪了？" }] });
    expect(stranger.turns[0]!.state.query_result).toEqual({ error: "missing_order_id" });
  });

  it("switches business lines by binding the query slot: each line answers its own orders, the parent unchanged", async () => {
    const { FreshQuery } = await load("customer-service/fresh_query.graph.ts");
    const { Query } = await load("customer-service/query.graph.ts");
    const steps = [{ user: "帮我查一下订单 ORD1001 的状态" }, { user: "帮我查一下订单 FR2001 的状态" }];
    const lines = {
      default: await conversation("line-default", { steps }),
      ecommerce: await conversation("line-ecommerce", { steps, query: Query }),
      fresh: await conversation("line-fresh", { steps, query: FreshQuery }),
    };
    for (const line of [lines.default, lines.ecommerce]) {
      const [ord, fr] = line.turns as [Turn, Turn];
      expect(ord.replies[0]).toMatch(/^订单 ORD1001：/);
      expect(fr.state.query_result).toEqual({ error: "order_not_found" }); // not an e-commerce order
      expect(ord.updates.filter((u) => u.path[0] === "query").map((u) => u.node)).toEqual(["guard", "fetch", "reply"]);
    }
    const [ord, fr] = lines.fresh.turns as [Turn, Turn];
    expect(ord.state.query_result).toEqual({ error: "order_not_found" }); // not a fresh-food order
    expect(fr.replies[0]).toBe("生鲜订单 FR2001：配送中，金额 ¥89，商品：草莓 500g、牛奶 1L，配送时段 今天 18:00-19:00。");
    expect(fr.notes).toContain("get_fresh_order(FR2001)");
    expect(fr.updates.filter((u) => u.path[0] === "query").map((u) => u.node)).toEqual(["lookup", "reply"]);
    // the rest of the parent runs as before: the decision answers a found order itself
    expect(summary(fr)).toEqual(["query_order", "self_solve", "none", false]);
  });

  it("writes nothing in dry-run mode and reads refundLimit from the run's vars", async () => {
    const dry = await conversation("dry", { vars: { dryRun: true }, steps: [{ user: "ORD1002 申请退款" }] });
    expect(dry.turns[0]!.state.execution_result).toMatchObject({ status: "dry_run", order_id: "ORD1002", amount: 89 });
    expect(dry.audit).toEqual([]);
    const { openDb } = await load("customer-service/db.ts");
    expect(openDb(join(tmp, "dry.db")).prepare("SELECT status FROM orders WHERE id = 'ORD1002'").get()).toEqual({
      status: "delivered",
    });

    const raised = await conversation("limit", { vars: { refundLimit: 2000 }, steps: [{ user: "ORD1003 申请退款" }] });
    expect(raised.turns[0]!.interrupt).toBeUndefined();
    expect(raised.turns[0]!.state.execution_result).toMatchObject({
      status: "done",
      amount: 1299,
      actor: "user:u1001",
    });
  });
});
