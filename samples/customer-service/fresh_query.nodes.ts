/**
 * FreshQuery: the fresh-food delivery line. Its orders live in its own system (here a fixed table; ids
 * `FR…`), and its one tool, `get_fresh_order`, also tells the cold-chain delivery slot. Answers in the same
 * QueryResult shape as the e-commerce Query, so the decision and execution subgraphs need no change.
 */
import type { NodeContext } from "@graphc/runtime";
import type { FreshQueryLookupRead, FreshQueryLookupUpdate, FreshQueryReplyRead, FreshQueryReplyUpdate } from "./fresh_query.graph.ts";
import { say } from "./messages.ts";

interface FreshOrder {
  status: "packing" | "out_for_delivery" | "delivered";
  amount: number;
  items: string[];
  /** the delivery slot the customer booked */
  slot: string;
}

/** the fresh-food line's orders (its own store; e-commerce ids such as ORD1001 are not found here) */
export const FRESH_ORDERS: Readonly<Record<string, FreshOrder>> = {
  FR2001: { status: "out_for_delivery", amount: 89, items: ["草莓 500g", "牛奶 1L"], slot: "今天 18:00-19:00" },
  FR2002: { status: "delivered", amount: 45, items: ["三文鱼 300g"], slot: "昨天 10:00-11:00" },
};

const STATUS: Record<FreshOrder["status"], string> = { packing: "拣货中", out_for_delivery: "配送中", delivered: "已送达" };

export function lookupFreshOrder(state: FreshQueryLookupRead, ctx: NodeContext): FreshQueryLookupUpdate {
  const id = state.entities.order_id;
  if (!id) return { query_result: { error: "missing_order_id" } };
  ctx.writer(`get_fresh_order(${id})`);
  const order = FRESH_ORDERS[id];
  if (order === undefined) return { query_result: { error: "order_not_found" } };
  return {
    query_result: {
      order_status: STATUS[order.status],
      amount: order.amount,
      items: order.items,
      logistics_status: STATUS[order.status],
      eta: order.slot,
    },
  };
}

export function replyFresh(state: FreshQueryReplyRead): FreshQueryReplyUpdate {
  const q = state.query_result;
  const id = state.entities.order_id ?? "";
  if (q.error === "missing_order_id") return { messages: [say("fresh_query", "请提供生鲜订单号（如 FR2001），我来帮您查询。")] };
  if (q.error === "order_not_found") return { messages: [say("fresh_query", `生鲜订单中没有 ${id}，请核对订单号。`)] };
  if (q.error || state.intent === "refund") return {};
  return {
    messages: [say("fresh_query", `生鲜订单 ${id}：${q.order_status}，金额 ¥${q.amount}，商品：${(q.items ?? []).join("、")}，配送时段 ${q.eta}。`)],
  };
}
