/**
 * OpenTelemetry tracing (`@graphc/runtime/tracing`) with the real SDK and its in-memory exporter: run → superstep →
 * task spans, a subgraph's run under its task's span, a node's own span under its task (through an
 * AsyncLocalStorage context manager, as a Node service registers one), graph/node/thread attributes, the
 * run config's tags and metadata, errors and interrupts; nothing is recorded without `tracing`.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import * as otel from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { MemorySaver } from "@graphc/runtime";
import { otelTracing } from "@graphc/runtime/tracing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { run } from "../cli/harness.ts";
import { tempDir } from "../temp-dir.ts";

/** The smallest AsyncLocalStorage context manager (what @opentelemetry/context-async-hooks provides). */
class AlsContextManager implements otel.ContextManager {
  private readonly als = new AsyncLocalStorage<otel.Context>();
  active(): otel.Context {
    return this.als.getStore() ?? otel.ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(ctx: otel.Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    return this.als.run(ctx, () => fn.call(thisArg, ...args));
  }
  bind<T>(_ctx: otel.Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    this.als.disable();
    return this;
  }
}

const exporter = new InMemorySpanExporter();
const tmp = tempDir("tracing");
interface Graph {
  invoke(input: unknown, config?: object): Promise<Record<string, unknown>>;
}
let Parent: Graph;

beforeAll(async () => {
  otel.context.setGlobalContextManager(new AlsContextManager());
  otel.trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
  writeFileSync(
    join(tmp.dir, "nodes.ts"),
    `import * as otel from "@opentelemetry/api";
export async function prep(s: { topic: string }) {
  // a node's own span (a model call, say): it should nest under the node's span
  const span = otel.trace.getTracer("app").startSpan("model call");
  await new Promise((r) => setTimeout(r, 1));
  span.end();
  if (s.topic === "boom") throw new Error("the model is down");
  return { notes: [s.topic] };
}
export const inner = (s: { notes: string[] }) => ({ summary: s.notes.join(", ") });
export function ask(_s: unknown, ctx: { interrupt(v: unknown): unknown }) {
  return { answer: String(ctx.interrupt("approve?")) };
}
`,
  );
  writeFileSync(
    join(tmp.dir, "traced.graph"),
    `import { prep, inner, ask } from "./nodes.ts"
graph Child {
  state { notes: string[] = [], summary: string = "" }
  input { notes }
  output { summary }
  node inner({ notes }) -> { summary } = inner
  START -> inner -> END
}
graph Parent {
  state { topic: string, notes: string[] = [] reduce append, summary: string = "", answer: string = "" }
  input { topic }
  output { summary, answer }
  node prep({ topic }) -> { notes } = prep
  subgraph child = Child
  node ask() -> { answer } = ask
  START -> prep -> child -> {
    topic == "ask" => ask
    _              => END
  }
  ask -> END
}
`,
  );
  const built = await run(tmp.dir, ["build", "traced.graph", "--no-typecheck"]);
  expect(built.code, built.stderr).toBe(0);
  Parent = (await import(pathToFileURL(join(tmp.dir, "traced.graph.ts")).href)).Parent as Graph;
}, 120_000);
afterAll(() => tmp.remove());
beforeEach(() => exporter.reset());

const spans = () => exporter.getFinishedSpans();
const named = (name: string | RegExp): ReadableSpan => {
  const s = spans().find((x) => (typeof name === "string" ? x.name === name : name.test(x.name)));
  if (s === undefined) throw new Error(`no span ${name}; spans: ${spans().map((x) => x.name).join(", ")}`);
  return s;
};
const parentOf = (s: ReadableSpan) => spans().find((x) => x.spanContext().spanId === s.parentSpanContext?.spanId);

describe("tracing", () => {
  it("records run → superstep → task spans, the subgraph's run under its task, the node's own span under its task", async () => {
    const out = await Parent.invoke({ topic: "otel" }, { tracing: otelTracing(otel), tags: ["beta"], metadata: { user: "ada", plan: 3 } });
    expect(out).toEqual({ summary: "otel", answer: "" });
    const root = named("Parent");
    expect(parentOf(root)).toBeUndefined();
    expect(root.attributes).toMatchObject({ "graphc.graph": "Parent", "graphc.namespace": "", "graphc.tags": ["beta"], "graphc.metadata.user": "ada", "graphc.metadata.plan": 3 });

    const prep = named("node prep");
    expect(prep.attributes).toMatchObject({ "graphc.graph": "Parent", "graphc.node": "prep" });
    expect(parentOf(prep)!.name).toMatch(/^step \d+$/);
    expect(parentOf(parentOf(prep)!)).toBe(root);
    expect(parentOf(named("model call"))).toBe(prep);

    const child = named("subgraph child");
    const childRun = named(/^Child \(child:/);
    expect(parentOf(childRun)).toBe(child);
    expect(childRun.attributes["graphc.namespace"]).toMatch(/^child:[0-9a-f-]+$/);
    const innerTask = named("node inner");
    expect(parentOf(parentOf(innerTask)!)).toBe(childRun);
    expect(innerTask.attributes["graphc.namespace"]).toBe(childRun.attributes["graphc.namespace"]);
    // one trace, every span ended (exported), none an error; the SDK anchors start times to the millisecond,
    // so their order at finer grain is not asserted
    expect(new Set(spans().map((s) => s.spanContext().traceId)).size).toBe(1);
    expect(spans().map((s) => s.name).filter((n) => n.startsWith("node ")).sort()).toEqual(["node __start__", "node __start__", "node inner", "node prep"]);
    for (const s of spans()) expect(s.status.code).not.toBe(otel.SpanStatusCode.ERROR);
  });

  it("marks a failing node and its run as errors, with the exception", async () => {
    await expect(Parent.invoke({ topic: "boom" }, { tracing: otelTracing(otel) })).rejects.toThrow("the model is down");
    for (const s of [named("node prep"), named("Parent")]) {
      expect(s.status).toMatchObject({ code: otel.SpanStatusCode.ERROR });
      expect(s.events.map((e) => e.name)).toContain("exception");
    }
  });

  it("records an interrupt as an event, with the thread id, and the resumed run as a new trace", async () => {
    const graph = { tracing: otelTracing(otel), checkpointer: new MemorySaver(), configurable: { thread_id: "t-1" } };
    const first = await Parent.invoke({ topic: "ask" }, graph);
    expect(first["__interrupt__"]).toBeDefined();
    const root = named("Parent");
    expect(root.attributes["graphc.thread_id"]).toBe("t-1");
    expect(root.events.map((e) => e.name)).toContain("interrupt");
    expect(named("node ask").events.map((e) => e.name)).toContain("interrupt");
    exporter.reset();
    const { Command } = await import("@graphc/runtime");
    expect(await Parent.invoke(new Command({ resume: "yes" }), graph)).toEqual({ summary: "ask", answer: "yes" });
    expect(named("node ask").status.code).not.toBe(otel.SpanStatusCode.ERROR);
  });

  it("records the task spans of a streamed run whose tasks the stream announces (tasks and debug modes)", async () => {
    interface Streaming {
      stream(input: unknown, options: object): AsyncIterable<unknown>;
    }
    const chunks: unknown[] = [];
    for await (const c of (Parent as unknown as Streaming).stream({ topic: "s" }, { tracing: otelTracing(otel), streamMode: ["tasks", "debug"] })) chunks.push(c);
    expect(chunks.length).toBeGreaterThan(0);
    expect(spans().map((s) => s.name).filter((n) => n.startsWith("node ")).sort()).toEqual(["node __start__", "node __start__", "node inner", "node prep"]);
    expect(parentOf(named("node prep"))!.name).toMatch(/^step \d+$/);
  });

  it("records nothing without the tracing option", async () => {
    await Parent.invoke({ topic: "quiet" });
    expect(spans().filter((s) => s.name !== "model call")).toEqual([]);
  });
});
