/**
 * The query subgraph's tools (seed 004 §3.2): get_order, get_logistics, get_refund_policy, each with its
 * own raw shape, and `normalize`, which turns any of them into the one QueryResult shape the decision
 * rules read.
 */
import type { Db } from "./db.ts";
import type { QueryResult } from "./domain.graph.ts";

export interface RawOrder {
  id: string;
  status: string;
  total: number;
  items: string[];
  delivered_at: string | null;
}

export interface RawLogistics {
  order_id: string;
  state: string;
  carrier: string;
  estimated_arrival: string | null;
}

export interface RawPolicy {
  window_days: number;
  text: string;
}

/** a tool failure the retry policy should retry (a flaky upstream), as opposed to "not found" */
export class ToolUnavailableError extends Error {
  override readonly name = "ToolUnavailableError";
}

export function getOrder(db: Db, orderId: string): RawOrder | undefined {
  const row = db.prepare("SELECT id, status, total, items, delivered_at FROM orders WHERE id = ?").get(orderId) as
    (Omit<RawOrder, "items"> & { items: string }) | undefined;
  return row && { ...row, items: JSON.parse(row.items) as string[] };
}

/** Simulates the carrier API: `fail_next` counts down the calls that fail before one succeeds. */
export function getLogistics(db: Db, orderId: string): RawLogistics | undefined {
  const row = db
    .prepare("SELECT order_id, state, carrier, estimated_arrival, fail_next FROM logistics WHERE order_id = ?")
    .get(orderId) as (RawLogistics & { fail_next: number }) | undefined;
  if (row === undefined) return undefined;
  if (row.fail_next > 0) {
    db.prepare("UPDATE logistics SET fail_next = fail_next - 1 WHERE order_id = ?").run(orderId);
    throw new ToolUnavailableError(`carrier ${row.carrier} API timed out for ${orderId}`);
  }
  const { fail_next: _ignored, ...raw } = row;
  return raw;
}

export function getRefundPolicy(db: Db): RawPolicy {
  return db.prepare("SELECT window_days, text FROM refund_policy WHERE id = 1").get() as RawPolicy;
}

const DAY = 24 * 60 * 60 * 1000;

/** one shape for every tool (seed: order_status/amount/items, logistics_status/eta, policy) */
export function normalize(
  raw: { order?: RawOrder; logistics?: RawLogistics; policy?: RawPolicy },
  now = Date.now(),
): QueryResult {
  const out: QueryResult = {};
  if (raw.order) {
    out.order_status = raw.order.status;
    out.amount = raw.order.total;
    out.items = raw.order.items;
    if (raw.order.delivered_at) {
      out.days_since_delivery = Math.floor((now - Date.parse(raw.order.delivered_at)) / DAY);
    }
  }
  if (raw.logistics) {
    out.logistics_status = `${raw.logistics.carrier}：${raw.logistics.state}`;
    if (raw.logistics.estimated_arrival) out.eta = raw.logistics.estimated_arrival;
  }
  if (raw.policy) out.policy = raw.policy.text;
  return out;
}
