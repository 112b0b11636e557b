/** Reference §8 group B (input/output/private schemas) and §2.3–§2.6, plus API misuse errors. */
import { describe, expect, it } from "vitest";
import {
  EmptyInputError,
  GraphInputError,
  GraphValueError,
  NodeError,
  compileGraph,
  type Values,
} from "@graphc/runtime";
import { concat, graph, nodeFactory } from "./helpers.ts";

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe("input and output schemas", () => {
  it("custom output: nodes see the full state, the result only output fields that were written (C-12)", async () => {
    const seen: Values[] = [];
    const n = nodeFactory("G", ["hello", "bye", "messages", "extraOutput"]);
    const rec = (u: Values | null) => (s: Values) => (seen.push(s), u);
    const g = compileGraph(
      graph({
        fields: { hello: null, bye: null, messages: concat as never, extraOutput: null },
        output: ["messages", "extraOutput"],
        nodes: [
          n("a", rec(null), { reads: ["hello", "bye", "messages"], edges: ["b"] }),
          n("b", rec({ hello: "again" }), { reads: ["hello", "bye", "messages"], edges: ["c"] }),
          n("c", rec(null), { reads: ["hello", "bye", "messages"] }),
        ],
        start: { edges: ["a"] },
      }),
    );
    expect(await g.invoke({ hello: "there", bye: "world", messages: ["hello"] })).toEqual({ messages: ["hello"] });
    expect(seen).toEqual([
      { hello: "there", bye: "world", messages: ["hello"] },
      { hello: "there", bye: "world", messages: ["hello"] },
      { hello: "again", bye: "world", messages: ["hello"] },
    ]);
    expect(await collect(g.stream({ hello: "there", bye: "world", messages: ["hello"] }))).toEqual([
      { a: {} },
      { b: { hello: "again" } },
      { c: {} },
    ]);
  });

  it("private state: a node reads a field outside the state schema (C-13)", async () => {
    let got: unknown;
    const n = nodeFactory("G", ["hello", "privateProp"]);
    const g = compileGraph(
      graph({
        fields: { hello: null, privateProp: null },
        input: ["hello"],
        output: ["hello"],
        nodes: [
          n("a", () => ({ privateProp: "secret" }), { edges: ["b"] }),
          n("b", (s: Values) => ((got = s), { hello: "again" }), { reads: ["hello", "privateProp"] }),
        ],
        start: { edges: ["a"] },
      }),
    );
    expect(await g.invoke({ hello: "there" })).toEqual({ hello: "again" });
    expect(got).toEqual({ privateProp: "secret", hello: "there" });
    // stream values show every field, private ones included (§8.3 #7)
    expect((await collect(g.stream({ hello: "there" }, { streamMode: "values" }))).at(-1)).toEqual({
      hello: "again",
      privateProp: "secret",
    });
  });

  it("three schemas (C-14): input {question}, output {answer}", async () => {
    const n = nodeFactory("G", ["question", "answer", "internal"]);
    const g = compileGraph(
      graph({
        fields: { question: null, answer: null, internal: null },
        input: ["question"],
        output: ["answer"],
        nodes: [
          n("think", (s: { question: string }) => ({ internal: `Answer: ${s.question}` }), { edges: ["say"] }),
          n("say", (s: { internal: string }) => ({ answer: s.internal })),
        ],
        start: { edges: ["think"] },
      }),
    );
    expect(await g.invoke({ question: "test" })).toEqual({ answer: "Answer: test" });
  });

  it("an unknown input key is a GraphInputError naming graph and field (graphc's choice)", async () => {
    const n = nodeFactory("G", ["a"]);
    const g = compileGraph(graph({ fields: { a: null }, nodes: [n("x", () => null)], start: { edges: ["x"] } }));
    const e = (await g.invoke({ a: 1, secret: "x" }).catch((x: unknown) => x)) as GraphInputError;
    expect(e).toBeInstanceOf(GraphInputError);
    expect([e.graph, e.field]).toEqual(["G", "secret"]);
  });

  it("invoke({}) that writes nothing returns undefined (§8.3 #9); null on a new thread is EmptyInputError", async () => {
    const n = nodeFactory("G", ["a"]);
    const g = compileGraph(graph({ fields: { a: null }, nodes: [n("x", () => null)], start: { edges: ["x"] } }));
    expect(await g.invoke({})).toBeUndefined();
    const e = await g.invoke(null).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(EmptyInputError);
    expect((e as Error).message).toBe('Received no input writes for "__start__"');
  });

  it("only writes to output fields count: private writes alone give undefined", async () => {
    const n = nodeFactory("G", ["a", "p"]);
    const g = compileGraph(
      graph({
        fields: { a: null, p: null },
        input: ["p"],
        output: ["a"],
        nodes: [n("x", () => ({ p: 2 }))],
        start: { edges: ["x"] },
      }),
    );
    expect(await g.invoke({ p: 1 })).toBeUndefined();
  });
});

describe("errors name graph and node", () => {
  it("a throwing node fails the run with NodeError wrapping the cause", async () => {
    const n = nodeFactory("Shop", ["a"]);
    const g = compileGraph(
      graph({
        name: "Shop",
        fields: { a: null },
        nodes: [
          n("pay", () => {
            throw new TypeError("card declined");
          }),
        ],
        start: { edges: ["pay"] },
      }),
    );
    const e = (await g.invoke({ a: 1 }).catch((x: unknown) => x)) as NodeError;
    expect(e).toBeInstanceOf(NodeError);
    expect([e.code, e.graph, e.node, e.message]).toEqual([
      "NODE_ERROR",
      "Shop",
      "pay",
      'Node "pay" of graph "Shop" failed: card declined',
    ]);
    expect(e.cause).toBeInstanceOf(TypeError);
  });

  it("code generated by an incompatible graphc is refused", () => {
    const n = nodeFactory("Old", ["a"]);
    const spec = {
      ...graph({ name: "Old", fields: { a: null }, nodes: [n("x", () => null)], start: { edges: ["x"] } }),
      compilerVersion: "9.0.0",
    };
    expect(() => compileGraph(spec)).toThrow(GraphValueError);
  });

  it("getState without a checkpointer: No checkpointer set", async () => {
    const n = nodeFactory("G", ["a"]);
    const g = compileGraph(graph({ fields: { a: null }, nodes: [n("x", () => null)], start: { edges: ["x"] } }));
    await expect(g.getState({ configurable: { thread_id: "1" } })).rejects.toThrow(/^No checkpointer set/);
  });
});
