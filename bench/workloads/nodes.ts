/**
 * Node functions of the benchmark workloads (peer-baseline.md W1–W6). The same step functions are called by
 * graphc's generated code, by the LangGraph.js graphs and by the hand-written loops (bench/hand.ts), so the
 * three sides do exactly the same user work and only the runtime differs.
 */
import type { NodeContext } from "@graphc/runtime";

export interface Counted {
  count: number;
  log: string[];
}

/** What every chain node does: count one step and log its own name (the log is append-reduced). */
export function stepOf(name: string, s: { count: number }): { count: number; log: string[] } {
  return { count: s.count + 1, log: [name] };
}

/** The graphc binding of `stepOf`: the node's name comes from its context. */
export function step(s: { count: number }, ctx: NodeContext): { count: number; log: string[] } {
  return stepOf(ctx.node, s);
}

/** W2 worker `wK` appends K + 1. */
export function workOf(name: string): { results: number[] } {
  return { results: [Number(name.slice(1)) + 1] };
}

export function work(_s: Record<string, never>, ctx: NodeContext): { results: number[] } {
  return workOf(ctx.node);
}

/** W2 join: the sum of the workers' results. */
export function collect(s: { results: number[] }): { total: number } {
  let total = 0;
  for (const r of s.results) total += r;
  return { total };
}

/** W4's reply: one message per turn, with a stable id so every side ends with the same messages. */
export function replyOf(turns: number): { id: string; role: string; content: string } {
  return { id: `m${turns}`, role: "ai", content: `reply ${turns}` };
}

/** W4 node (graphc): append a plain message object through the `messages` reducer. */
export function reply(s: { turns: number }): {
  messages: { id: string; role: string; content: string }[];
  turns: number;
} {
  return { messages: [replyOf(s.turns)], turns: s.turns + 1 };
}
