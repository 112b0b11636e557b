/**
 * The customer-service model: the two questions the graph asks a model — "what does the user want?"
 * (reception) and "self-solve or escalate?" when no business rule applies (decision) — as prompts with
 * JSON answers, over the samples' ChatModel interface.
 *
 * Default: `scriptedModel`, deterministic keyword rules, no network. With OPENAI_API_KEY set (and
 * optionally OPENAI_BASE_URL, OPENAI_MODEL) the same prompts go to an OpenAI-compatible endpoint.
 */
import { modelFromEnv, ScriptedModel, lastUserText, type ChatModel, type ChatTurn } from "../shared/chat-model.ts";
import type { Entities, Intent, QueryResult, Verdict } from "./domain.graph.ts";

export const INTENTS: readonly Intent[] = ["query_order", "query_logistics", "refund", "human", "unknown"];

const CLASSIFY_SYSTEM = `你是电商客服的接待员。只输出 JSON：{"intent": one of ${INTENTS.join("|")}, "order_id": "ORD 或 FR（生鲜）开头的订单号或 null", "amount": 数字或 null, "reason": "退款原因或 null"}。
"上周买的" 之类的描述不是订单号。`;

const DECIDE_SYSTEM = `你是客服决策员。根据意图和查询结果判断能否自助解决。只输出 JSON：{"decision": "self_solve" | "escalate", "reason": "..."}`;

export interface Classification {
  intent: Intent;
  entities: Entities;
}

/** The deterministic stand-in: the answers a well-behaved model would give to the prompts above. */
/** an order id of either business line: e-commerce `ORD…`, fresh food `FR…` (fresh_query.graph) */
const ORDER_ID = /(?:ORD|FR)\d+/i;

export const scriptedModel = new ScriptedModel("scripted-cs", (turns) => {
  const system = turns[0]?.content ?? "";
  const text = lastUserText(turns);
  if (system === DECIDE_SYSTEM) {
    const q = JSON.parse(text) as { intent: Intent; query_result: QueryResult };
    const found = q.query_result.order_status !== undefined && q.query_result.error === undefined;
    return JSON.stringify(
      found
        ? { decision: "self_solve", reason: "订单信息完整，可直接答复" }
        : { decision: "escalate", reason: "信息不足，交给人工" },
    );
  }
  const intent: Intent = /人工|真人|客服经理|投诉/.test(text)
    ? "human"
    : /退款|退货|退钱|退一次/.test(text)
      ? "refund"
      : /物流|快递|到哪|发货|配送/.test(text)
        ? "query_logistics"
        : /订单|查一下|状态/.test(text)
          ? "query_order"
          : "unknown";
  const orderId = ORDER_ID.exec(text)?.[0]?.toUpperCase() ?? null;
  const amount = /(\d+(?:\.\d+)?)\s*元/.exec(text)?.[1];
  const reason = /(?:因为|原因[是：:]?)(.+?)(?:[，。,.]|$)/.exec(text)?.[1] ?? null;
  return JSON.stringify({ intent, order_id: orderId, amount: amount === undefined ? null : Number(amount), reason });
});

export function modelFor(model: string): ChatModel {
  return modelFromEnv(model, scriptedModel);
}

function parseJson(text: string): Record<string, unknown> {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start < 0 || end < start) throw new Error(`model answer is not JSON: ${text.slice(0, 120)}`);
  return JSON.parse(text.slice(start, end + 1)) as Record<string, unknown>;
}

/** Reception: intent + entities from the conversation (temperature 0, JSON answer). */
export async function classify(
  model: ChatModel,
  history: readonly ChatTurn[],
  signal?: AbortSignal,
): Promise<Classification> {
  const answer = parseJson(
    await model.complete(
      [{ role: "system", content: CLASSIFY_SYSTEM }, ...history],
      signal ? { json: true, signal } : { json: true },
    ),
  );
  const intent = INTENTS.includes(answer["intent"] as Intent) ? (answer["intent"] as Intent) : "unknown";
  const entities: Entities = {};
  if (typeof answer["order_id"] === "string" && new RegExp(`^${ORDER_ID.source}$`, "i").test(answer["order_id"])) {
    entities.order_id = answer["order_id"].toUpperCase();
  }
  if (typeof answer["amount"] === "number") entities.amount = answer["amount"];
  if (typeof answer["reason"] === "string") entities.reason = answer["reason"];
  return { intent, entities };
}

/** Decision fallback: only asked when no business rule covers the case. */
export async function decideWithModel(
  model: ChatModel,
  intent: Intent,
  queryResult: QueryResult,
  signal?: AbortSignal,
): Promise<{ decision: Verdict; reason: string }> {
  const answer = parseJson(
    await model.complete(
      [
        { role: "system", content: DECIDE_SYSTEM },
        { role: "user", content: JSON.stringify({ intent, query_result: queryResult }) },
      ],
      signal ? { json: true, signal } : { json: true },
    ),
  );
  const decision: Verdict = answer["decision"] === "self_solve" ? "self_solve" : "escalate";
  return { decision, reason: `model: ${String(answer["reason"] ?? "")}` };
}
