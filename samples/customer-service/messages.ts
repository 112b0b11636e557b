/** Chat messages as the graphs store them (@graphc/runtime's Message: role + content, ids added by the reducer). */
import type { Message } from "@graphc/runtime";
import type { ChatTurn } from "../shared/chat-model.ts";

/** an assistant message, tagged with the part of the system that wrote it */
export function say(from: string, content: string): Message {
  return { role: "assistant", name: from, content };
}

/** the conversation as model turns (tool and system messages are not shown to the model) */
export function toTurns(messages: readonly Message[]): ChatTurn[] {
  const turns: ChatTurn[] = [];
  for (const m of messages) {
    if (m.role === "user" || m.role === "assistant") turns.push({ role: m.role, content: String(m.content ?? "") });
  }
  return turns;
}
