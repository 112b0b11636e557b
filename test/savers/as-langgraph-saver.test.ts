/**
 * graphc's savers under LangGraph.js graphs (issue 13 §5): `asLangGraphSaver` makes a graphc saver a
 * BaseCheckpointSaver. A LangGraph StateGraph with Send fan-out, an interrupt and LangChain messages runs,
 * resumes and time-travels on it; the same thread read back through graphc's own API shows the checkpoints.
 */
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { Annotation, Command, END, MessagesAnnotation, Send, START, StateGraph, interrupt } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { MemorySaver, type CheckpointSaver } from "@graphc/runtime";
import { asLangGraphSaver } from "@graphc/langgraph";

const S = Annotation.Root({
  ...MessagesAnnotation.spec,
  parts: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
});

function build(saver: CheckpointSaver) {
  return new StateGraph(S)
    .addNode("plan", () => ({}))
    .addNode("work", (arg: { n: number }) => ({ parts: [`w${arg.n}`] }))
    .addNode("ask", () => ({ messages: [new HumanMessage(interrupt("go on?") as string)] }))
    .addConditionalEdges(START, () => [new Send("work", { n: 1 }), new Send("work", { n: 2 })])
    .addEdge("work", "ask")
    .addEdge("ask", END)
    .compile({ checkpointer: asLangGraphSaver(saver) });
}

describe("a LangGraph.js graph on a graphc saver", () => {
  it("fans out with Send, interrupts, resumes, keeps messages as LangChain messages, and replays", async () => {
    const saver = new MemorySaver();
    const g = build(saver);
    const cfg = { configurable: { thread_id: "lg" } };
    const first = await g.invoke({ messages: [new HumanMessage("hi")] }, cfg);
    expect(first.parts).toEqual(["w1", "w2"]);
    expect((await g.getState(cfg)).next).toEqual(["ask"]);
    const done = await g.invoke(new Command({ resume: "yes" }), cfg);
    expect(done.messages.map((m: BaseMessage) => [m.getType(), m.content])).toEqual([
      ["human", "hi"],
      ["human", "yes"],
    ]);
    const history = [];
    for await (const h of g.getStateHistory(cfg)) history.push(h);
    expect(history.map((h) => h.next)).toEqual([[], ["ask"], ["work", "work"], ["__start__"]]);
    const replayed = await g.invoke(null, history[1]!.config);
    expect(replayed.parts).toEqual(["w1", "w2"]);
    // graphc's saver holds the thread: every checkpoint LangGraph wrote is there
    const stored = [];
    for await (const t of saver.list({ configurable: { thread_id: "lg" } })) stored.push(t.metadata.step);
    expect(stored.length).toBeGreaterThanOrEqual(4);
  });
});
