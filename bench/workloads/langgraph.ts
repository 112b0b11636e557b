/** The workloads built with LangGraph.js (@langchain/langgraph), node for node as the `.graph` files. */
import { AIMessage } from "@langchain/core/messages";
import {
  Annotation,
  END,
  MessagesAnnotation,
  START,
  StateGraph,
  type BaseCheckpointSaver,
} from "@langchain/langgraph";
import { collect, replyOf, stepOf, workOf } from "./nodes.ts";
import { W1_NAMES, W2_WORKERS, W5_NAMES } from "./hand.ts";

const Counted = Annotation.Root({
  count: Annotation<number>(),
  log: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
});

// LangGraph's builder types track every added node name; a chain built in a loop cannot name them.
type LooseBuilder = {
  addNode(name: string, fn: unknown): LooseBuilder;
  addEdge(from: string | string[], to: string): LooseBuilder;
  compile(options?: { checkpointer?: BaseCheckpointSaver }): {
    invoke(input: unknown, config?: unknown): Promise<unknown>;
  };
};

function chainGraph(names: readonly string[], inner?: { after: string; name: string; graph: unknown }) {
  let b = new StateGraph(Counted) as unknown as LooseBuilder;
  for (const n of names) b = b.addNode(n, (s: { count: number }) => stepOf(n, s));
  if (inner) b = b.addNode(inner.name, inner.graph);
  const order = inner
    ? [
        ...names.slice(0, names.indexOf(inner.after) + 1),
        inner.name,
        ...names.slice(names.indexOf(inner.after) + 1),
      ]
    : names;
  let prev = START as string;
  for (const n of order) {
    b = b.addEdge(prev, n);
    prev = n;
  }
  return b.addEdge(prev, END);
}

export function w1(checkpointer?: BaseCheckpointSaver) {
  return chainGraph(W1_NAMES).compile(checkpointer ? { checkpointer } : {});
}

export function w5() {
  return chainGraph(W5_NAMES).compile();
}

export function w2() {
  const S = Annotation.Root({
    results: Annotation<number[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
    total: Annotation<number>(),
  });
  let b = new StateGraph(S) as unknown as LooseBuilder;
  for (const w of W2_WORKERS) b = b.addNode(w, () => workOf(w));
  b = b.addNode("collect", (s: { results: number[] }) => collect(s));
  for (const w of W2_WORKERS) b = b.addEdge(START, w);
  return b
    .addEdge([...W2_WORKERS], "collect")
    .addEdge("collect", END)
    .compile();
}

export function w3() {
  const grandchild = chainGraph(["g1", "g2", "g3"]).compile();
  const child = chainGraph(["c1", "c3"], { after: "c1", name: "gc", graph: grandchild }).compile();
  return chainGraph(["p1", "p3"], { after: "p1", name: "ch", graph: child }).compile();
}

/** W4 as in the baseline: MessagesAnnotation (messagesStateReducer) and AIMessage objects. */
export function w4() {
  const S = Annotation.Root({
    ...MessagesAnnotation.spec,
    turns: Annotation<number>(),
    limit: Annotation<number>(),
  });
  return new StateGraph(S)
    .addNode("agent", (s: { turns: number }) => ({
      messages: [new AIMessage(replyOf(s.turns))],
      turns: s.turns + 1,
    }))
    .addEdge(START, "agent")
    .addConditionalEdges("agent", (s: { turns: number; limit: number }) =>
      s.turns < s.limit ? "agent" : END,
    )
    .compile();
}
