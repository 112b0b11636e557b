/**
 * Key order of a graph's values (runtime/field-order.ts): LangGraph reads its channels in declaration order,
 * so a stream's `values` chunks and `getState().values` list the fields as declared, whatever order they
 * were first written in. The same graph in LangGraph.js and in graphc must print the same JSON, on the
 * small loop (no saver) and on the full loop (a MemorySaver).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Annotation, END as LG_END, MemorySaver as LgMemorySaver, START as LG_START, StateGraph } from "@langchain/langgraph";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemorySaver } from "@graphc/runtime";
import { buildFiles } from "../../compiler/index.ts";
import { tempDir } from "../temp-dir.ts";

// `topic` and `late` have no initial value: `topic` comes with the input, `late` is written by `plan`
const GRAPH = `import { plan, finish, plainPlan } from "./nodes.ts"

graph Ordered {
  state {
    topic: string
    items: string[] = []
    late: number
    answer: string = ""
  }
  node plan({ topic }) -> { late, items } = plan
  node finish({ items }) -> { answer } = finish
  START -> plan -> finish -> END
}

graph Defaults {
  state {
    a: number = 0
    b: string[] = [] reduce append
    c: string
  }
  node plan({ a }) -> { c, a } = plainPlan
  START -> plan -> END
}
`;
const NODES = `export const plan = (s: { topic: string }) => ({ late: 1, items: [s.topic + "1"] });
export const finish = (s: { items: string[] }) => ({ answer: s.items.join(",") });
export const plainPlan = (s: { a: number }) => ({ c: "x", a: s.a + 1 });
`;

type Streamable = {
  stream(input: object, config: object): Promise<AsyncIterable<unknown>> | AsyncIterable<unknown>;
  getState(config: object): Promise<{ values: unknown }>;
  invoke(input: object, config?: object): Promise<unknown>;
};

/**
 * every `values` chunk of a run on thread "t", then (with a saver) the thread's `getState().values`, then an
 * invoke's output (thread "u"), as JSON lines; `config` is graphc's (`checkpointer` in it) or LangGraph's
 */
async function printed(graph: Streamable, config: { configurable?: object }): Promise<string[]> {
  const out: string[] = [];
  const on = (thread: string) => (config.configurable === undefined ? config : { ...config, configurable: { thread_id: thread } });
  for await (const chunk of await graph.stream({ topic: "x" }, { ...on("t"), streamMode: "values" })) out.push(JSON.stringify(chunk));
  if (config.configurable !== undefined) out.push(JSON.stringify((await graph.getState(on("t"))).values));
  out.push(JSON.stringify(await graph.invoke({ topic: "y" }, on("u"))));
  return out;
}

const tmp = tempDir("field-order");
let generated = "";
let Ordered: Streamable;
beforeAll(async () => {
  writeFileSync(join(tmp.dir, "app.graph"), GRAPH);
  writeFileSync(join(tmp.dir, "nodes.ts"), NODES);
  const { outputs, diagnostics } = await buildFiles([join(tmp.dir, "app.graph")], { cwd: tmp.dir, importExt: "ts" });
  expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  for (const o of outputs) writeFileSync(o.path, o.text);
  generated = outputs[0]!.text;
  ({ Ordered } = (await import(pathToFileURL(join(tmp.dir, "app.graph.ts")).href)) as { Ordered: Streamable });
}, 120_000);
afterAll(() => tmp.remove());

function langGraph(saver: boolean): Streamable {
  const S = Annotation.Root({
    topic: Annotation<string>(),
    items: Annotation<string[]>({ reducer: (_a, b) => b, default: () => [] }),
    late: Annotation<number>(),
    answer: Annotation<string>({ reducer: (_a, b) => b, default: () => "" }),
  });
  const g = new StateGraph(S)
    .addNode("plan", (s) => ({ late: 1, items: [s.topic + "1"] }))
    .addNode("finish", (s) => ({ answer: s.items.join(",") }))
    .addEdge(LG_START, "plan")
    .addEdge("plan", "finish")
    .addEdge("finish", LG_END);
  return g.compile(saver ? { checkpointer: new LgMemorySaver() } : {}) as unknown as Streamable;
}

describe("values in declaration order", () => {
  it("the compiler gives the order only where the values' own order can differ", () => {
    expect(generated).toContain('fields: ["topic", "items", "late", "answer"],');
    // Defaults: its one field without an initial value is declared last
    expect(generated.match(/fields: \[/g)).toHaveLength(1);
  });

  it("stream values chunks and invoke print as LangGraph.js's (small loop, no saver)", async () => {
    const ours = await printed(Ordered, {});
    expect(ours[1]).toBe('{"topic":"x","items":["x1"],"late":1,"answer":""}');
    expect(ours).toEqual(await printed(langGraph(false), {}));
  });

  it("stream values chunks, getState().values and invoke print as LangGraph.js's (full loop, MemorySaver)", async () => {
    const ours = await printed(Ordered, { checkpointer: new MemorySaver(), configurable: {} } as { configurable: object });
    expect(ours).toEqual(await printed(langGraph(true), { configurable: {} }));
    expect(ours.at(-2)).toBe('{"topic":"x","items":["x1"],"late":1,"answer":"x1"}');
  });
});
