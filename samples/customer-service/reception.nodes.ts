/** Reception (seed 004 §3.1): intent and entities, and whether to hand the user over to a human. */
import type { NodeContext } from "@graphc/runtime";
import type {
  ReceptionClassifyRead,
  ReceptionClassifyUpdate,
  ReceptionHandoffCheckRead,
  ReceptionHandoffCheckUpdate,
  ReceptionClarifyRead,
  ReceptionClarifyUpdate,
  ReceptionVars,
} from "./reception.graph.ts";
import { classify as classifyWithModel, modelFor } from "./llm.ts";
import { say, toTurns } from "./messages.ts";

export async function classify(
  state: ReceptionClassifyRead,
  ctx: NodeContext<ReceptionVars>,
): Promise<ReceptionClassifyUpdate> {
  const { intent, entities } = await classifyWithModel(modelFor(ctx.vars.model), toTurns(state.messages), ctx.signal);
  return { intent, entities };
}

/** seed: hand off when the user asks for a human, or after two `unknown` turns in a row */
export function checkHandoff(state: ReceptionHandoffCheckRead): ReceptionHandoffCheckUpdate {
  const streak = state.intent === "unknown" ? state.unknown_streak + 1 : 0;
  return { unknown_streak: streak, need_human: state.intent === "human" || streak >= 2 };
}

/** one clarifying question; the turn ends here and the user's answer starts the next one */
export function askToClarify(_state: ReceptionClarifyRead): ReceptionClarifyUpdate {
  return {
    messages: [
      say(
        "reception",
        "抱歉，我没太明白。您是想查询订单、查询物流，还是申请退款？方便的话请附上订单号（如 ORD1001）。",
      ),
    ],
  };
}
