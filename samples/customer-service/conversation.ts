/**
 * The scripted customer-service conversation (what `npm start` shows and the e2e test asserts): one
 * thread, one graph run per user message, progress streamed per subgraph namespace, and the final state
 * of every turn read back from the SQLite checkpoints.
 */
import { Command } from "@graphc/runtime";
import { SqliteSaver, SqliteStore } from "@graphc/checkpoint-sqlite";
import { CustomerService, type CustomerServiceSlots, type CustomerServiceState } from "./customer_service.graph.ts";
import type { Approval } from "./domain.graph.ts";
import type { ConfirmationRequest } from "./execution.nodes.ts";
import { auditRows, dataFile, openDb, type AuditRow } from "./db.ts";
import { asStreamEvent, describeEvent, nodePath, nodeUpdates, type StreamEvent } from "../shared/progress.ts";

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
  /** replayed from the node cache instead of run */
  cached: boolean;
}

/** the confirmation request when the root graph reports an interrupt */
function interruptOf(event: StreamEvent): ConfirmationRequest | undefined {
  if (event.namespace.length > 0 || event.mode !== "updates") return undefined;
  const interrupts = (event.payload as { __interrupt__?: { value: ConfirmationRequest }[] }).__interrupt__;
  return interrupts?.[0]?.value;
}

export interface TurnReport {
  step: Step;
  updates: StreamedUpdate[];
  /** the nodes' progress notes (`custom` stream events), e.g. tool calls and failures */
  notes: string[];
  /** set when the turn stopped at the refund confirmation */
  interrupt?: ConfirmationRequest;
  /** the thread's state after the turn */
  state: CustomerServiceState;
  /** nodes still to run (non-empty while paused at the interrupt) */
  next: string[];
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
  /** the business line answering queries: CustomerService's `query` slot (default: the e-commerce Query) */
  query?: CustomerServiceSlots["query"];
  log?: (line: string) => void;
}

/** the turn's final state in one line: the routing fields, and the execution result when there is one */
export function describeState(state: CustomerServiceState): string {
  const parts = [
    `intent=${state.intent}`,
    `entities=${JSON.stringify(state.entities)}`,
    `decision=${state.decision}`,
    `need_human=${state.need_human}`,
    `messages=${state.messages.length}`,
  ];
  const { status, ...rest } = state.execution_result;
  if (status !== "none") {
    const { message: _message, ...fields } = rest;
    parts.push(`execution_result=${JSON.stringify({ status, ...fields })}`);
  }
  return parts.join(" ");
}

export async function runConversation(options: ConversationOptions = {}) {
  const dbPath = options.dbPath ?? "customer-service.db";
  const log = options.log ?? (() => {});
  const userId = options.userId ?? "u1001";
  const saver = new SqliteSaver(dataFile(options.checkpointPath ?? "checkpoints.db"));
  // the long-term memory (the user's orders, across conversations) lives beside the business data
  const store = new SqliteStore(openDb(dbPath));
  const bound = options.query ? CustomerService.bind({ query: options.query }) : CustomerService;
  const graph = bound.withConfig({ checkpointer: saver, store });
  const config = {
    configurable: { thread_id: options.threadId ?? `conversation-${Date.now()}` },
    vars: { dbPath, ...options.vars },
  };

  const turns: TurnReport[] = [];
  try {
    let seen = 0;
    for (const step of options.steps ?? SCRIPT) {
      log("");
      log(
        "user" in step
          ? `👤 ${step.user}`
          : `🧑‍💼 ${step.resume.actor} ${step.resume.approved ? "approves" : "rejects"} the refund`,
      );
      const input =
        "user" in step
          ? { messages: [{ role: "user", content: step.user }], user_id: userId }
          : new Command({ resume: step.resume });
      const updates: StreamedUpdate[] = [];
      const notes: string[] = [];
      let interrupt: ConfirmationRequest | undefined;
      // updates: what each node wrote; custom: the tools' progress notes (ctx.writer), e.g. a retried call
      for await (const chunk of graph.stream(input, {
        ...config,
        streamMode: ["updates", "custom"],
        subgraphs: true,
      })) {
        const event = asStreamEvent(chunk);
        for (const line of describeEvent(event)) log(`  ${line}`);
        const pending = interruptOf(event);
        if (pending) interrupt = pending;
        if (event.mode === "custom") notes.push(String(event.payload));
        const cached = (event.payload as { __metadata__?: { cached?: boolean } }).__metadata__?.cached === true;
        for (const [node, update] of nodeUpdates(event)) {
          updates.push({ path: nodePath(event.namespace), node, fields: Object.keys(update ?? {}), cached });
        }
      }
      const snapshot = await graph.getState(config);
      const state = snapshot.values as CustomerServiceState;
      const replies = state.messages
        .slice(seen)
        .filter((m) => m.role === "assistant")
        .map((m) => String(m.content));
      seen = state.messages.length;
      for (const reply of replies) log(`🤖 ${reply}`);
      if (interrupt) log(`⏸  waiting for a human: ${interrupt.question}`);
      log(`   state after the turn: ${describeState(state)}`);
      if (snapshot.next.length > 0) log(`   the run is paused; next: ${snapshot.next.join(", ")}`);
      const next = snapshot.next;
      turns.push(
        interrupt
          ? { step, updates, notes, interrupt, state, next, replies }
          : { step, updates, notes, state, next, replies },
      );
    }
  } finally {
    saver.close();
  }
  const audit: AuditRow[] = auditRows(openDb(dbPath));
  return { turns, audit };
}
