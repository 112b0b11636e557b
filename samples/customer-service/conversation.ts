/**
 * The scripted customer-service conversation (what `npm start` shows and the e2e test asserts): one
 * thread, one graph run per user message, progress streamed per subgraph namespace, and the final state
 * of every turn read back from the SQLite checkpoints.
 */
import { Command } from "graphc/runtime";
import { SqliteSaver } from "graphc/runtime/sqlite";
import { CustomerService, type CustomerServiceState } from "./customer_service.graph.ts";
import type { Approval } from "./domain.graph.ts";
import type { ConfirmationRequest } from "./execution.nodes.ts";
import { auditRows, openDb, resolveDbPath, type AuditRow } from "./db.ts";
import { describeUpdates, nodePath } from "../shared/progress.ts";

export type Step = { user: string } | { resume: Approval };

/** the demo: order query, logistics query, small refund, large refund (confirmed), repeat, hand-off */
export const SCRIPT: readonly Step[] = [
  { user: "帮我查一下订单 ORD1001 的状态" },
  { user: "ORD1004 的快递到哪了？" },
  { user: "订单 ORD1002 申请退款，因为买错了型号" },
  { user: "ORD1003 也要退款" },
  { resume: { approved: true, actor: "human:王经理" } },
  { user: "ORD1002 的退款好像没成功，再帮我退一次" },
  { user: "算了，帮我转人工" },
];

export interface StreamedUpdate {
  /** namespace as node names, root = [] */
  path: string[];
  node: string;
  fields: string[];
}

export interface TurnReport {
  step: Step;
  updates: StreamedUpdate[];
  /** set when the turn stopped at the refund confirmation */
  interrupt?: ConfirmationRequest;
  /** the thread's state after the turn */
  state: CustomerServiceState;
  /** assistant messages added by this turn */
  replies: string[];
}

export interface ConversationOptions {
  /** business database (relative paths live in samples/customer-service/data/) */
  dbPath?: string;
  /** checkpoint database for the conversation state */
  checkpointPath?: string;
  threadId?: string;
  userId?: string;
  steps?: readonly Step[];
  vars?: { refundLimit?: number; dryRun?: boolean };
  log?: (line: string) => void;
}

export async function runConversation(options: ConversationOptions = {}) {
  const dbPath = options.dbPath ?? "customer-service.db";
  const log = options.log ?? (() => {});
  const userId = options.userId ?? "u1001";
  const saver = SqliteSaver.fromConnString(resolveDbPath(options.checkpointPath ?? "checkpoints.db"));
  const graph = CustomerService.withConfig({ checkpointer: saver });
  const config = {
    configurable: { thread_id: options.threadId ?? `conversation-${Date.now()}` },
    vars: { dbPath, ...options.vars },
  };

  const turns: TurnReport[] = [];
  let seen = 0;
  for (const step of options.steps ?? SCRIPT) {
    log("");
    log("user" in step ? `👤 ${step.user}` : `🧑‍💼 ${step.resume.actor} ${step.resume.approved ? "approves" : "rejects"} the refund`);
    const input = "user" in step ? { messages: [{ role: "user", content: step.user }], user_id: userId } : new Command({ resume: step.resume });
    const updates: StreamedUpdate[] = [];
    let interrupt: ConfirmationRequest | undefined;
    for await (const [namespace, payload] of await graph.stream(input, { ...config, streamMode: "updates", subgraphs: true })) {
      for (const line of describeUpdates(namespace, payload)) log(`  ${line}`);
      for (const [node, update] of Object.entries(payload as Record<string, unknown>)) {
        if (node === "__interrupt__") {
          if (namespace.length === 0) interrupt = (update as { value: ConfirmationRequest }[])[0]?.value;
          continue;
        }
        updates.push({ path: nodePath(namespace), node, fields: Object.keys(update ?? {}) });
      }
    }
    const state = (await graph.getState(config)).values as CustomerServiceState;
    const replies = state.messages
      .slice(seen)
      .filter((m) => m.role === "assistant")
      .map((m) => String(m.content));
    seen = state.messages.length;
    for (const reply of replies) log(`🤖 ${reply}`);
    if (interrupt) log(`⏸  waiting for a human: ${interrupt.question}`);
    log(
      `   state: intent=${state.intent} decision=${state.decision} execution=${state.execution_result.status}` +
        `${state.execution_result.replayed ? " (replayed)" : ""} need_human=${state.need_human}`,
    );
    turns.push(interrupt ? { step, updates, interrupt, state, replies } : { step, updates, state, replies });
  }
  const audit: AuditRow[] = auditRows(openDb(dbPath));
  return { turns, audit };
}
