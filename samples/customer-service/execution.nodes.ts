/**
 * Execution (seed 004 §3.4): the only part that writes business data.
 * - idempotency key `user_id + intent + order_id`: a repeated request returns the first result;
 * - refunds above `refundLimit` stop at a human confirmation (`ctx.interrupt`) and resume with the answer;
 * - every write goes to the audit log with the row before and after and the actor;
 * - `dryRun` computes and reports the write without doing it.
 */
import type { NodeContext } from "@graphc/runtime";
import type {
  ExecutionPrepareRead,
  ExecutionPrepareUpdate,
  ExecutionApproveRead,
  ExecutionApproveUpdate,
  ExecutionExecuteRead,
  ExecutionExecuteUpdate,
  ExecutionVars,
} from "./execution.graph.ts";
import type { Approval, ExecutionResult } from "./domain.graph.ts";
import { audit, openDb, recordResult, recordedResult, type Db } from "./db.ts";
import { say } from "./messages.ts";

export const idempotencyKey = (userId: string, intent: string, orderId: string) => `${userId}_${intent}_${orderId}`;

/** what a human is asked when a refund is above the limit (the interrupt's value) */
export interface ConfirmationRequest {
  kind: "refund_confirmation";
  order_id: string;
  amount: number;
  limit: number;
  question: string;
}

export function prepare(state: ExecutionPrepareRead, ctx: NodeContext<ExecutionVars>): ExecutionPrepareUpdate {
  const orderId = state.entities.order_id ?? "";
  const key = idempotencyKey(state.user_id, state.intent, orderId);
  const amount = state.entities.amount ?? state.query_result.amount ?? 0;
  const first = recordedResult<ExecutionResult>(openDb(ctx.vars.dbPath), key);
  if (first !== undefined) {
    return {
      idempotency_key: key,
      amount,
      replayed: true,
      execution_result: { ...first, replayed: true },
      messages: [say("execution", `该请求已处理过（${key}）：${first.message ?? first.status}`)],
    };
  }
  return { idempotency_key: key, amount, replayed: false };
}

export function approve(state: ExecutionApproveRead, ctx: NodeContext<ExecutionVars>): ExecutionApproveUpdate {
  const limit = ctx.vars.refundLimit;
  if (state.amount <= limit) return { approval: { approved: true, actor: `user:${state.user_id}` } };
  const orderId = state.entities.order_id ?? "";
  // pauses the run here; on resume this node runs again and interrupt() returns the human's answer
  const answer = ctx.interrupt<Approval>({
    kind: "refund_confirmation",
    order_id: orderId,
    amount: state.amount,
    limit,
    question: `订单 ${orderId} 退款 ¥${state.amount} 超过 ¥${limit}，请人工确认。`,
  } satisfies ConfirmationRequest);
  return { approval: answer };
}

export function execute(state: ExecutionExecuteRead, ctx: NodeContext<ExecutionVars>): ExecutionExecuteUpdate {
  const orderId = state.entities.order_id ?? "";
  const base = {
    action: "refund",
    order_id: orderId,
    amount: state.amount,
    idempotency_key: state.idempotency_key,
    actor: state.approval.actor,
  };
  if (!state.approval.approved) {
    const message = `退款申请未通过人工确认（${state.approval.actor}），如有疑问可转人工。`;
    return { execution_result: { ...base, status: "rejected", message }, messages: [say("execution", message)] };
  }
  if (ctx.vars.dryRun) {
    const message = `[dry-run] 将为订单 ${orderId} 退款 ¥${state.amount}，未实际执行。`;
    return { execution_result: { ...base, status: "dry_run", message }, messages: [say("execution", message)] };
  }
  const result = refundOnce(openDb(ctx.vars.dbPath), { ...base, order_id: orderId });
  return { execution_result: result, messages: [say("execution", result.message ?? "")] };
}

interface RefundRequest {
  order_id: string;
  amount: number;
  idempotency_key: string;
  actor: string;
}

/** One transaction: the refund, the order status, both audit rows and the idempotency key, or nothing. */
function refundOnce(db: Db, req: RefundRequest): ExecutionResult {
  return db.transaction((): ExecutionResult => {
    // checked again inside the transaction: two concurrent runs cannot both pass `prepare` and pay twice
    const first = recordedResult<ExecutionResult>(db, req.idempotency_key);
    if (first !== undefined) return { ...first, replayed: true };

    const refundId = `RF-${req.order_id}-${Date.now().toString(36)}`;
    const refund = {
      id: refundId,
      order_id: req.order_id,
      amount: req.amount,
      idempotency_key: req.idempotency_key,
      approved_by: req.actor,
      created_at: new Date().toISOString(),
    };
    db.prepare(
      `INSERT INTO refunds (id, order_id, amount, idempotency_key, approved_by, created_at)
       VALUES (@id, @order_id, @amount, @idempotency_key, @approved_by, @created_at)`,
    ).run(refund);
    audit(db, {
      ...auditBase(req),
      action: "refund.create",
      entity: "refunds",
      entity_id: refundId,
      before: null,
      after: refund,
    });

    const before = db.prepare("SELECT id, status FROM orders WHERE id = ?").get(req.order_id);
    db.prepare("UPDATE orders SET status = 'refunded' WHERE id = ?").run(req.order_id);
    const after = db.prepare("SELECT id, status FROM orders WHERE id = ?").get(req.order_id);
    audit(db, { ...auditBase(req), action: "order.status", entity: "orders", entity_id: req.order_id, before, after });

    const result: ExecutionResult = {
      status: "done",
      action: "refund",
      order_id: req.order_id,
      amount: req.amount,
      refund_id: refundId,
      idempotency_key: req.idempotency_key,
      actor: req.actor,
      message: `已为订单 ${req.order_id} 退款 ¥${req.amount}（退款单 ${refundId}），1-3 个工作日原路退回。`,
    };
    recordResult(db, req.idempotency_key, result);
    return result;
  })();
}

const auditBase = (req: RefundRequest) => ({ actor: req.actor, idempotency_key: req.idempotency_key });
