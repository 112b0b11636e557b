/**
 * OpenTelemetry spans for runs, supersteps, node tasks and subgraph calls (docs/runtime.md, "Tracing"):
 * `@graphc/runtime/tracing`, `{ tracing: otelTracing(otel) }` as a compile or run option.
 *
 * Opt-in and dependency-free: the caller passes the OpenTelemetry API it already loaded
 * (`import * as otel from "@opentelemetry/api"`); this module only calls it through the structural types
 * below, so `@opentelemetry/api` is an optional peer that is never imported, and a program that does not
 * trace bundles none of this (the loop knows only trace-hooks.ts).
 *
 * Spans nest as the run does: run → superstep → task; a subgraph task's child run is a child of the task's
 * span. A node function runs inside its task's span as the active context, so spans the node opens itself
 * (a model call) nest under it.
 */

/** The part of `@opentelemetry/api`'s `Span` this module calls. */
export interface OtelSpan {
  setAttribute(key: string, value: string | number | boolean | string[]): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  recordException(exception: Error | string): unknown;
  addEvent(name: string, attributes?: Record<string, string | number | boolean>): unknown;
  end(): void;
}

/** The part of `@opentelemetry/api` this module calls (pass the module itself). */
export interface TracingApi {
  readonly trace: {
    getTracer(name: string, version?: string): {
      startSpan(name: string, options?: { attributes?: Record<string, string | number | boolean | string[]> }, context?: unknown): OtelSpan;
    };
    setSpan(context: unknown, span: OtelSpan): unknown;
  };
  readonly context: {
    active(): unknown;
    with<R>(context: unknown, fn: () => R): R;
  };
}

// from the install entry, which the published tracing.js imports as it is (an entry importing another keeps
// the package's shared chunks as they are; scripts/bundle-js.mjs)
import { installFullGraph } from "./install.ts";
import type { LevelTrace, TraceRunInfo, Tracing } from "./trace-hooks.ts";

/** OpenTelemetry's SpanStatusCode.ERROR (a stable protocol value, so the enum need not be imported). */
const STATUS_ERROR = 2;

/** The `tracing` option for OpenTelemetry: pass `@opentelemetry/api` itself. */
export function otelTracing(api: TracingApi): Tracing {
  // a traced run of a lean graph runs on the full graph: the tracer brings it
  installFullGraph();
  return {
    start: (info, parent) => new RunTrace(api, info, parent ? (parent.trace as RunTrace).taskContext(parent.taskId) : undefined),
  };
}

type Attrs = Record<string, string | number | boolean | string[]>;

/** One level's spans (a root run, or a subgraph's run under its parent's task). */
class RunTrace implements LevelTrace {
  private readonly tracer: ReturnType<TracingApi["trace"]["getTracer"]>;
  private readonly runSpan: OtelSpan;
  private readonly runCtx: unknown;
  private stepSpan: OtelSpan | undefined;
  private stepCtx: unknown;
  private readonly tasks = new Map<string, { span: OtelSpan; ctx: unknown }>();

  constructor(
    private readonly api: TracingApi,
    private readonly info: TraceRunInfo,
    parentCtx: unknown,
  ) {
    this.tracer = api.trace.getTracer("graphc");
    const attrs: Attrs = { "graphc.graph": info.graph, "graphc.namespace": info.namespace };
    if (info.threadId !== undefined) attrs["graphc.thread_id"] = info.threadId;
    if (info.tags !== undefined && info.tags.length > 0) attrs["graphc.tags"] = [...info.tags];
    for (const [k, v] of Object.entries(info.metadata ?? {})) {
      if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") attrs[`graphc.metadata.${k}`] = v;
    }
    const name = info.namespace === "" ? (info.runName ?? info.graph) : `${info.graph} (${info.namespace})`;
    this.runSpan = this.tracer.startSpan(name, { attributes: attrs }, parentCtx ?? api.context.active());
    this.runCtx = api.trace.setSpan(parentCtx ?? api.context.active(), this.runSpan);
  }

  stepStart(step: number): void {
    this.stepSpan = this.tracer.startSpan(
      `step ${step}`,
      { attributes: { "graphc.graph": this.info.graph, "graphc.namespace": this.info.namespace, "graphc.step": step } },
      this.runCtx,
    );
    this.stepCtx = this.api.trace.setSpan(this.runCtx, this.stepSpan);
  }

  stepEnd(): void {
    this.stepSpan?.end();
    this.stepSpan = undefined;
  }

  taskStart(id: string, node: string, subgraph: boolean, step: number): void {
    const attrs: Attrs = {
      "graphc.graph": this.info.graph,
      "graphc.namespace": this.info.namespace,
      "graphc.node": node,
      "graphc.task_id": id,
      "graphc.step": step,
    };
    if (this.info.threadId !== undefined) attrs["graphc.thread_id"] = this.info.threadId;
    const span = this.tracer.startSpan(`${subgraph ? "subgraph" : "node"} ${node}`, { attributes: attrs }, this.stepCtx ?? this.runCtx);
    this.tasks.set(id, { span, ctx: this.api.trace.setSpan(this.stepCtx ?? this.runCtx, span) });
  }

  /** Runs a node function with its task's span as the active context. */
  inTask<R>(id: string, fn: () => R): R {
    const t = this.tasks.get(id);
    return t === undefined ? fn() : this.api.context.with(t.ctx, fn);
  }

  /** The context a subgraph's run starts its spans under. */
  taskContext(id: string): unknown {
    return this.tasks.get(id)?.ctx;
  }

  taskEnd(id: string, outcome: { error?: unknown; interrupted?: boolean } = {}): void {
    const t = this.tasks.get(id);
    if (t === undefined) return;
    this.tasks.delete(id);
    if (outcome.interrupted) t.span.addEvent("interrupt");
    else if (outcome.error !== undefined) fail(t.span, outcome.error);
    t.span.end();
  }

  runEnd(outcome: { error?: unknown; interrupted?: boolean } = {}): void {
    for (const id of [...this.tasks.keys()]) this.taskEnd(id);
    this.stepEnd();
    if (outcome.interrupted) this.runSpan.addEvent("interrupt");
    else if (outcome.error !== undefined) fail(this.runSpan, outcome.error);
    this.runSpan.end();
  }
}

function fail(span: OtelSpan, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: STATUS_ERROR, message: error instanceof Error ? error.message : String(error) });
}
