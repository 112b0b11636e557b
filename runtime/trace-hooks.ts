/**
 * What the loop calls when a run is traced (tracing.ts implements it for OpenTelemetry). A leaf module of
 * types only: the loop depends on these hooks, not on the tracer, so a program that never passes `tracing`
 * bundles none of it.
 */

// LangGraph's config keys `tags`, `metadata`, `runName`
/** What a run level says about itself. */
export interface TraceRunInfo {
  readonly graph: string;
  /** checkpoint namespace of this level ("" for the root) */
  readonly namespace: string;
  readonly threadId: string | undefined;
  readonly tags?: readonly string[] | undefined;
  readonly metadata?: Readonly<Record<string, unknown>> | undefined;
  readonly runName?: string | undefined;
}

/** The spans of one run level (a root run, or a subgraph's run under its parent's task). */
export interface LevelTrace {
  stepStart(step: number): void;
  stepEnd(): void;
  taskStart(id: string, node: string, subgraph: boolean, step: number): void;
  /** runs a node function inside its task's span */
  inTask<R>(id: string, fn: () => R): R;
  taskEnd(id: string, outcome?: { error?: unknown; interrupted?: boolean }): void;
  runEnd(outcome?: { error?: unknown; interrupted?: boolean }): void;
}

/** The `tracing` option: starts a level's trace, under the parent level's task for a subgraph. */
export interface Tracing {
  start(info: TraceRunInfo, parent: { readonly trace: LevelTrace; readonly taskId: string } | undefined): LevelTrace;
}
