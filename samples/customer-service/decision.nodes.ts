/**
 * Decision (seed 004 §3.3): business rules first — they are certain and free — and the model only for
 * what no rule covers (in the seed, an order query).
 */
import type { NodeContext } from "@graphc/runtime";
import type {
  DecisionRulesRead,
  DecisionRulesUpdate,
  DecisionModelFallbackRead,
  DecisionModelFallbackUpdate,
  DecisionVars,
} from "./decision.graph.ts";
import { decideWithModel, modelFor } from "./llm.ts";

export function applyRules(state: DecisionRulesRead, ctx: NodeContext<DecisionVars>): DecisionRulesUpdate {
  const q = state.query_result;
  if (q.error === "missing_order_id") return { decision: "need_more_info", reason: "缺少订单号" };
  if (q.error) return { decision: "escalate", reason: `查询失败：${q.error}` };
  if (state.intent === "refund") {
    // already refunded: execution's idempotency key returns the first result, nothing is paid twice
    if (q.order_status === "refunded") return { decision: "self_solve", reason: "已退款，返回首次结果" };
    const window = ctx.vars.refundWindowDays;
    if (q.order_status === "delivered" && (q.days_since_delivery ?? Infinity) <= window) {
      return { decision: "self_solve", reason: `签收 ${q.days_since_delivery} 天，在 ${window} 天内` };
    }
    return { decision: "escalate", reason: `不满足自助退款条件（${q.order_status}）` };
  }
  if (state.intent === "query_logistics") return { decision: "self_solve", reason: "物流查询已答复" };
  return { decision: "none", reason: "" };
}

export async function askModel(
  state: DecisionModelFallbackRead,
  ctx: NodeContext<DecisionVars>,
): Promise<DecisionModelFallbackUpdate> {
  return decideWithModel(modelFor(ctx.vars.model), state.intent, state.query_result, ctx.signal);
}
