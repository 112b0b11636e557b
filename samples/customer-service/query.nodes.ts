/**
 * Query (seed 004 §3.2): the read side. The guard stops before any tool call when the order id is
 * missing; `callTools` may throw (a flaky carrier API) and is retried by the node's retry policy;
 * `toolsFailed` turns a failure that outlived the retries into an `error` result for the decision.
 */
import type { NodeContext } from "@graphc/runtime";
import type {
  QueryGuardRead,
  QueryGuardUpdate,
  QueryFetchRead,
  QueryFetchUpdate,
  QueryToolsFailedRead,
  QueryToolsFailedUpdate,
  QueryReplyRead,
  QueryReplyUpdate,
  QueryVars,
} from "./query.graph.ts";
import { openDb } from "./db.ts";
import { getLogistics, getOrder, getRefundPolicy, normalize } from "./tools.ts";
import { say } from "./messages.ts";

/** where the long-term store keeps the orders a user asked about: one item per order, keyed by its id */
const ordersOf = (userId: string) => ["users", userId, "orders"];

/**
 * The order id from the message; without one, a query (never a refund: money moves only for an order the
 * user named) takes the order the user asked about last, in any conversation.
 */
export async function guardOrderId(state: QueryGuardRead, ctx: NodeContext<QueryVars>): Promise<QueryGuardUpdate> {
  const orderId = state.entities.order_id;
  if (orderId) return { order_id: orderId };
  if (ctx.store && state.user_id && state.intent !== "refund") {
    const known = await ctx.store.search(ordersOf(state.user_id), { limit: 100 });
    const last = known.sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime())[0];
    if (last) {
      ctx.writer(`memory: last order ${last.key}`);
      return { order_id: last.key };
    }
  }
  return { query_result: { error: "missing_order_id" } };
}

export async function callTools(state: QueryFetchRead, ctx: NodeContext<QueryVars>): Promise<QueryFetchUpdate> {
  const db = openDb(ctx.vars.dbPath);
  const id = state.order_id;
  ctx.writer(`get_order(${id})`);
  const order = getOrder(db, id);
  if (order === undefined) return { query_result: { error: "order_not_found" } };
  // remembered for the user's later conversations (guardOrderId)
  if (ctx.store && state.user_id) await ctx.store.put(ordersOf(state.user_id), id, { intent: state.intent });
  switch (state.intent) {
    case "query_logistics": {
      ctx.writer(`get_logistics(${id})`);
      let logistics;
      try {
        logistics = getLogistics(db, id);
      } catch (e) {
        // rethrown: the node's retry policy decides whether to try again (and on_error what happens after)
        ctx.writer(`get_logistics(${id}) failed: ${(e as Error).message}`);
        throw e;
      }
      return { query_result: normalize(logistics ? { order, logistics } : { order }) };
    }
    case "refund":
      ctx.writer("get_refund_policy()");
      return { query_result: normalize({ order, policy: getRefundPolicy(db) }) };
    default:
      return { query_result: normalize({ order }) };
  }
}

export function toolsFailed(_state: QueryToolsFailedRead): QueryToolsFailedUpdate {
  return { query_result: { error: "tool_unavailable" } };
}

const STATUS: Record<string, string> = { paid: "已付款", shipped: "已发货", delivered: "已签收", refunded: "已退款" };

/** the natural-language answer for query intents (seed: the reply is generated inside the query subgraph) */
export function replyToUser(state: QueryReplyRead): QueryReplyUpdate {
  const q = state.query_result;
  if (q.error === "missing_order_id") return { messages: [say("query", "请提供订单号（如 ORD1001），我来帮您查询。")] };
  if (q.error === "order_not_found")
    return { messages: [say("query", `没有找到订单 ${state.order_id}，请核对订单号。`)] };
  if (q.error) return {};
  const status = STATUS[q.order_status ?? ""] ?? q.order_status;
  if (state.intent === "query_order") {
    return {
      messages: [
        say("query", `订单 ${state.order_id}：${status}，金额 ¥${q.amount}，商品：${(q.items ?? []).join("、")}。`),
      ],
    };
  }
  if (state.intent === "query_logistics") {
    const eta = q.eta ? `，预计 ${q.eta} 送达` : "";
    return { messages: [say("query", `订单 ${state.order_id} 的物流：${q.logistics_status}${eta}。`)] };
  }
  return {}; // refunds are answered by the execution subgraph
}
