/**
 * What the `messages` reducer accepts, as LangGraph's messagesStateReducer does, turned into graphc's plain
 * messages (`{ id, role, content, … }`): strings, `{ role, content }` and `{ type, content }` objects,
 * `[role, content]` tuples, graphc's RemoveMessage and `@langchain/core` message instances (AIMessage,
 * HumanMessage, ToolMessage, RemoveMessage, chunks …). Instances are recognised by shape, so the runtime
 * needs no dependency on @langchain/core; they become plain data so checkpoints can store them, and
 * LangChain chat models accept the plain form back as input.
 */

export interface Message {
  id?: string;
  role?: string;
  content?: unknown;
  [key: string]: unknown;
}

/** LangChain message types as the roles of plain messages (what chat models accept as `{ role }`) */
const ROLE_OF_TYPE: Readonly<Record<string, string>> = {
  human: "user",
  ai: "assistant",
  system: "system",
  developer: "developer",
  tool: "tool",
  function: "function",
  remove: "remove",
};

/** fields of a LangChain message worth keeping, when they carry something */
const KEPT_FIELDS = [
  "name",
  "tool_calls",
  "invalid_tool_calls",
  "tool_call_id",
  "status",
  "artifact",
  "usage_metadata",
  "response_metadata",
  "additional_kwargs",
] as const;

const isEmpty = (v: unknown): boolean =>
  v === undefined ||
  v === null ||
  (Array.isArray(v) && v.length === 0) ||
  (typeof v === "object" && !Array.isArray(v) && Object.keys(v as object).length === 0);

/** a `@langchain/core` message instance: serializable, in the `messages` namespace, with a string `type` */
export function isLangChainMessage(m: unknown): m is Record<string, unknown> & { type: string } {
  if (typeof m !== "object" || m === null) return false;
  const o = m as { lc_namespace?: unknown; type?: unknown };
  return Array.isArray(o.lc_namespace) && o.lc_namespace.includes("messages") && typeof o.type === "string";
}

function fromLangChain(m: Record<string, unknown> & { type: string }): Message {
  const generic = m.type === "generic" && typeof m["role"] === "string";
  const out: Message = { role: generic ? (m["role"] as string) : (ROLE_OF_TYPE[m.type] ?? m.type), content: m["content"] };
  if (typeof m["id"] === "string") out.id = m["id"];
  for (const k of KEPT_FIELDS) if (!isEmpty(m[k])) out[k] = m[k];
  if (out.role === "remove") out["type"] = "remove";
  return out;
}

/**
 * One message-like value as a plain message (or the value itself when it already is one). Throws a
 * TypeError naming what it got when the value cannot be a message.
 */
export function toMessage(m: unknown): Message {
  if (typeof m === "string") return { role: "user", content: m };
  if (Array.isArray(m)) {
    if (m.length === 2 && typeof m[0] === "string") return { role: ROLE_OF_TYPE[m[0]] ?? m[0], content: m[1] };
    throw new TypeError(`a message tuple is [role, content], got an array of ${m.length}`);
  }
  if (typeof m !== "object" || m === null) throw new TypeError(`a message must be a string, an object or a [role, content] tuple, got ${m === null ? "null" : typeof m}`);
  if (isLangChainMessage(m)) return fromLangChain(m);
  const o = m as Message;
  // `{ type: "human", content }` (LangChain's dict form) names the role by message type
  const role = o.role === undefined && typeof o["type"] === "string" && o["type"] !== "remove" ? ROLE_OF_TYPE[o["type"]] : undefined;
  if (role !== undefined) {
    const { type: _type, ...rest } = o;
    return { ...rest, role };
  }
  return o;
}
