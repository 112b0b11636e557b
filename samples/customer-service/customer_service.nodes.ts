/** The parent graph's own nodes: starting a turn, and handing the user over to a human. */
import type { NodeContext } from "@graphc/runtime";
import type {
  CustomerServiceNewTurnUpdate,
  CustomerServiceHumanHandoffRead,
  CustomerServiceHumanHandoffUpdate,
  CustomerServiceVars,
} from "./customer_service.graph.ts";
import { audit, openDb } from "./db.ts";
import { say } from "./messages.ts";

/** per-turn results start empty, so the routing of this turn never sees the previous turn's */
export function newTurn(): CustomerServiceNewTurnUpdate {
  return { query_result: {}, decision: "none", execution_result: { status: "none" }, need_human: false };
}

/** opens a hand-off ticket (a write, so it is audited) and tells the user */
export function handOff(
  state: CustomerServiceHumanHandoffRead,
  ctx: NodeContext<CustomerServiceVars>,
): CustomerServiceHumanHandoffUpdate {
  const orderId = state.entities.order_id ?? null;
  let ticket = "(dry-run)";
  if (!ctx.vars.dryRun) {
    const db = openDb(ctx.vars.dbPath);
    db.transaction(() => {
      const created_at = new Date().toISOString();
      const row = { user_id: state.user_id, intent: state.intent, order_id: orderId, created_at };
      const id = db
        .prepare(
          "INSERT INTO handoffs (user_id, intent, order_id, created_at) VALUES (@user_id, @intent, @order_id, @created_at)",
        )
        .run(row).lastInsertRowid;
      ticket = `HD${String(id).padStart(4, "0")}`;
      audit(db, {
        actor: "system",
        action: "handoff.create",
        entity: "handoffs",
        entity_id: ticket,
        before: null,
        after: { id: ticket, ...row },
      });
    })();
  }
  return {
    need_human: true,
    messages: [say("handoff", `已为您转接人工客服（工单 ${ticket}），请稍候，人工客服会尽快联系您。`)],
  };
}
