/**
 * The `messages` reducer as LangGraph users have it (issue 13 §7): what messagesStateReducer coerces, and
 * `@langchain/core` message instances (a dev dependency here; the runtime only recognises them by shape),
 * stored in checkpoints as plain messages, and a chat model's token stream in the `messages` stream mode.
 */
import {
  AIMessage,
  AIMessageChunk,
  HumanMessage,
  RemoveMessage as LcRemoveMessage,
  ToolMessage,
  type BaseMessageLike,
} from "@langchain/core/messages";
import { FakeListChatModel } from "@langchain/core/utils/testing";
import { describe, expect, it } from "vitest";
import {
  MemorySaver,
  REMOVE_ALL_MESSAGES,
  RemoveMessage,
  compileGraph,
  messages,
  relayMessageChunks,
  type Message,
  type NodeContext,
  type Values,
} from "@graphc/runtime";
import { graph, nodeFactory } from "./helpers.ts";

const strip = (ms: readonly Message[]) => ms.map(({ id: _id, ...rest }) => rest);

describe("messages reducer coercion (messagesStateReducer's inputs)", () => {
  it("strings, [role, content] tuples, { role } and { type } objects become plain messages with ids", () => {
    const out = messages([], ["hi", ["assistant", "hello"], ["human", "again"], { role: "system", content: "s" }, { type: "ai", content: "t" }]);
    expect(strip(out)).toEqual([
      { role: "user", content: "hi" },
      { role: "assistant", content: "hello" },
      { role: "user", content: "again" },
      { role: "system", content: "s" },
      { role: "assistant", content: "t" },
    ]);
    expect(out.every((m) => typeof m.id === "string" && m.id.length > 0)).toBe(true);
  });

  it("LangChain instances keep their id, content and tool fields; empty fields are dropped", () => {
    const ai = new AIMessage({ id: "a1", content: "", tool_calls: [{ name: "lookup", args: { q: 1 }, id: "c1", type: "tool_call" }] });
    const tool = new ToolMessage({ id: "t1", content: "42", tool_call_id: "c1" });
    const out = messages([new HumanMessage({ id: "h1", content: "q?" })], [ai, tool]);
    expect(out).toEqual([
      { id: "h1", role: "user", content: "q?" },
      { id: "a1", role: "assistant", content: "", tool_calls: [{ name: "lookup", args: { q: 1 }, id: "c1", type: "tool_call" }] },
      { id: "t1", role: "tool", content: "42", tool_call_id: "c1" },
    ]);
  });

  it("LangChain's RemoveMessage removes by id, and with REMOVE_ALL_MESSAGES clears the history", () => {
    const start = messages([], [{ id: "1", role: "user", content: "a" }, { id: "2", role: "user", content: "b" }]);
    expect(messages(start, new LcRemoveMessage({ id: "1" }))).toEqual([{ id: "2", role: "user", content: "b" }]);
    expect(messages(start, [new LcRemoveMessage({ id: REMOVE_ALL_MESSAGES }), "fresh"]).map((m) => m.content)).toEqual(["fresh"]);
    expect(messages(start, new RemoveMessage("2")).map((m) => m.id)).toEqual(["1"]);
  });

  it("a value that cannot be a message is a TypeError saying what it got", () => {
    expect(() => messages([], [42])).toThrow(/a message must be a string, an object or a \[role, content\] tuple, got number/);
    expect(() => messages([], [["a", "b", "c"]])).toThrow(/\[role, content\], got an array of 3/);
  });
});

const n = nodeFactory("Chat", ["messages"]);
const chatGraph = (fn: (s: Values, ctx: NodeContext) => unknown) =>
  compileGraph(graph({ name: "Chat", fields: { messages: messages as never }, nodes: [n("model", fn)], start: { edges: ["model"] } }), {
    checkpointer: new MemorySaver(),
  });

describe("a LangChain chat model in a node", () => {
  it("its AIMessage is stored in checkpoints as a plain message; input instances too", async () => {
    const model = new FakeListChatModel({ responses: ["hello there"] });
    const g = chatGraph(async (s) => ({ messages: [await model.invoke(s.messages as BaseMessageLike[])] }));
    const cfg = { configurable: { thread_id: "lc" } };
    const out = await g.invoke({ messages: [new HumanMessage({ id: "h1", content: "hi" })] }, cfg);
    expect(strip(out!.messages as Message[])).toEqual([
      { role: "user", content: "hi" },
      { role: "assistant", content: "hello there" },
    ]);
    const st = await g.getState(cfg);
    expect(st.values).toEqual(out);
    expect(Object.getPrototypeOf((st.values["messages"] as object[])[1])).toBe(Object.prototype);
  });

  it("relayMessageChunks streams the model's tokens in `messages` mode and returns the whole message", async () => {
    const model = new FakeListChatModel({ responses: ["abc"] });
    const g = chatGraph(async (s, ctx) => ({ messages: [await relayMessageChunks(ctx, model.stream(s.messages as BaseMessageLike[]))] }));
    const chunks: unknown[] = [];
    for await (const c of g.stream({ messages: ["hi"] }, { configurable: { thread_id: "tok" }, streamMode: "messages" })) chunks.push(c);
    const tokens = chunks as [AIMessageChunk, Values][];
    expect(tokens.map(([c]) => c.content)).toEqual(["a", "b", "c"]);
    expect(tokens.every(([c, meta]) => c instanceof AIMessageChunk && meta["langgraph_node"] === "model")).toBe(true);
    const st = await g.getState({ configurable: { thread_id: "tok" } });
    expect(strip(st.values["messages"] as Message[]).map((m) => [m.role, m.content])).toEqual([
      ["user", "hi"],
      ["assistant", "abc"],
    ]);
  });

  it("relayMessageChunks joins plain string tokens and refuses an empty stream", async () => {
    async function* words() {
      yield "a";
      yield "b";
    }
    async function* none(): AsyncGenerator<string> {}
    const ctx = { graph: "G", node: "n", messages: () => undefined };
    expect(await relayMessageChunks(ctx, words())).toBe("ab");
    await expect(relayMessageChunks(ctx, none())).rejects.toThrow('node "n" of graph "G": the model stream ended without a chunk');
  });
});
