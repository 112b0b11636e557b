/**
 * W4's hand-written loops, apart from hand.ts so that the small hand-written apps bundled for the size
 * comparison do not pull in @langchain/core's message classes.
 */
import { AIMessage } from "@langchain/core/messages";
import { replyOf } from "./nodes.ts";

/** W4's steps (as in the baseline), and the history sizes of its growth row (µs per step at 800 ÷ at 50) */
export const W4_STEPS = 200;
export const W4_GROWTH = [50, 200, 800];

/** W4's hand-written base (as in the baseline): append an AIMessage per turn to an immutable list. */
export function messagesLoop(limit: number): { messages: AIMessage[]; turns: number } {
  let messages: AIMessage[] = [];
  let turns = 0;
  while (turns < limit) {
    messages = messages.concat([new AIMessage(replyOf(turns))]);
    turns++;
  }
  return { messages, turns };
}

/** The same loop with plain message objects (no message class). */
export function messagesLoopPlain(limit: number): { messages: ReturnType<typeof replyOf>[]; turns: number } {
  let messages: ReturnType<typeof replyOf>[] = [];
  let turns = 0;
  while (turns < limit) {
    messages = messages.concat([replyOf(turns)]);
    turns++;
  }
  return { messages, turns };
}
