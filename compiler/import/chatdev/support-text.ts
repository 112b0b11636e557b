/**
 * The support module written beside imported graphs (`chatdev.ts`): the model hook agent nodes call, ChatDev's
 * keyword conditions, and its two built-in verdict conditions. Written once per output folder; the user's
 * to edit (an existing one is kept).
 */
export const SUPPORT_FILE = "chatdev.ts";

export const SUPPORT_TEXT = `/**
 * Support for graphs imported from ChatDev 2.0 by \`graphc import chatdev\`: yours to edit (re-importing keeps
 * this file). Connect a model once, before running a graph: \`connectAgent((call) => myModel(call))\`.
 */

/** What an agent node hands the model. */
export interface AgentCall {
  /** the graph and the ChatDev node id */
  readonly graph: string;
  readonly node: string;
  /** the node's system prompt (ChatDev's 'config.role') */
  readonly role: string;
  readonly provider?: string;
  /** ChatDev's 'config.name' */
  readonly model?: string;
  /** the messages delivered to the node: the task (start nodes) and its predecessors' latest messages */
  readonly inputs: readonly string[];
  /** the node's own earlier messages (ChatDev's context window; empty when 'context_window' is 0) */
  readonly history: readonly string[];
}

export type Agent = (call: AgentCall) => string | Promise<string>;

let connected: Agent | undefined;

/** Sets the model every agent node calls. */
export function connectAgent(agent: Agent): void {
  connected = agent;
}

export function runAgent(call: AgentCall): string | Promise<string> {
  if (connected === undefined) {
    throw new Error(\`agent node "\${call.node}" of \${call.graph}: no model is connected; call connectAgent() (chatdev.ts) before running the graph\`);
  }
  return connected(call);
}

/** The latest message of a node ("" before it ran). */
export function last(messages: readonly string[]): string {
  return messages.at(-1) ?? "";
}

/** A node's inputs: the task and its predecessors' latest messages, those not yet written left out. */
export function inputs(...parts: (string | readonly string[] | undefined)[]): string[] {
  const out: string[] = [];
  for (const p of parts) {
    if (typeof p === "string") out.push(p);
    else if (p !== undefined && p.length > 0) out.push(p[p.length - 1]!);
  }
  return out;
}

export interface Keywords {
  readonly any: readonly string[];
  readonly none: readonly string[];
  readonly regex: readonly string[];
  readonly caseSensitive: boolean;
}

/**
 * ChatDev's keyword condition: false when a 'none' word occurs; else true when an 'any' word or a 'regex'
 * matches; with neither 'any' nor 'regex' given, true.
 */
export function keyword(text: string, k: Keywords): boolean {
  const fold = (s: string) => (k.caseSensitive ? s : s.toLowerCase());
  const t = fold(text);
  if (k.none.some((w) => t.includes(fold(w)))) return false;
  if (k.any.length === 0 && k.regex.length === 0) return true;
  return k.any.some((w) => t.includes(fold(w))) || k.regex.some((r) => new RegExp(r, k.caseSensitive ? "" : "i").test(text));
}

const verdict = (text: string) => /verdict\\s*:\\s*(continue|stop)/i.exec(text)?.[1]?.toLowerCase();

/** ChatDev's 'need_reflection_loop': the message says 'Verdict: CONTINUE'. */
export function needReflectionLoop(text: string): boolean {
  return verdict(text) === "continue";
}

/** ChatDev's 'should_stop_loop': the message says 'Verdict: STOP'. */
export function shouldStopLoop(text: string): boolean {
  return verdict(text) === "stop";
}
`;
