/**
 * Stream events of a loop: `values`, `updates`, `tasks`, `debug`, `custom` and `messages` chunks and
 * interrupts. Reached only through a run's sink (`stream()`), so `invoke` alone never bundles it. The full loop
 * and the small loops (a lean graph's stream without a checkpointer) push the same events.
 */
import type { StreamLoop as Loop, StreamTask as Task } from "./contracts.ts";
import type { Interrupt } from "./errors.ts";
import { PULL, PUSH } from "./lean/task.ts";
import { taskResult, taskUpdate } from "./results.ts";
import { M_CUSTOM, M_DEBUG, M_MESSAGES, M_TASKS, M_UPDATES, M_VALUES } from "./stream.ts";
import type { Values } from "./spec.ts";
import { inFieldOrder } from "./field-order.ts";

/** the channel that triggered `t`: a small loop's task (no joins) was triggered by its node's, or is a Send's */
function triggerOf(t: Task): string {
  return t.trigger ?? (t.kind === PUSH ? PUSH : t.cn.triggerKey);
}

/** values/updates/tasks/checkpoints/debug of a subgraph reach the stream only with `subgraphs: true` */
export function visible(loop: Loop, bit: number): boolean {
  return loop.isRoot || loop.sink!.subgraphs || (bit & (M_CUSTOM | M_MESSAGES)) !== 0;
}

export function emitValues(loop: Loop): void {
  const sink = loop.sink;
  if (sink && sink.modes & M_VALUES && visible(loop, M_VALUES)) sink.push(loop.nsArr, "values", inFieldOrder(loop.c.spec, loop.values));
}

/** at an interrupt: the state with the finished siblings' writes applied */
export function emitView(loop: Loop, view: Values): void {
  const sink = loop.sink!;
  if (sink.modes & M_VALUES && visible(loop, M_VALUES)) sink.push(loop.nsArr, "values", inFieldOrder(loop.c.spec, view));
}

export function emitInterrupt(loop: Loop, interrupts: Interrupt[]): void {
  const sink = loop.sink;
  if (!sink || !visible(loop, M_UPDATES)) return;
  if (sink.modes & M_UPDATES) sink.push(loop.nsArr, "updates", { __interrupt__: interrupts });
  if (sink.modes & M_VALUES) sink.push(loop.nsArr, "values", { __interrupt__: interrupts });
}

export function emitTaskStart(loop: Loop, t: Task): void {
  const sink = loop.sink;
  if (!sink || !(sink.modes & (M_TASKS | M_DEBUG)) || t.cn === loop.c.start || !visible(loop, M_TASKS)) return;
  const payload = { id: t.id, name: t.cn.name, input: t.input, triggers: [triggerOf(t)], interrupts: [] };
  if (sink.modes & M_TASKS) sink.push(loop.nsArr, "tasks", payload);
  if (sink.modes & M_DEBUG)
    sink.push(loop.nsArr, "debug", { step: t.step, type: "task", timestamp: new Date().toISOString(), payload });
}

/** a small loop's step: its tasks announced before any runs (the full loop announces each with its trace span) */
export function emitStepStart(loop: Loop, tasks: readonly Task[]): void {
  const sink = loop.sink!;
  if (!(sink.modes & (M_TASKS | M_DEBUG))) return;
  const n = tasks.length;
  for (let k = 0; k < n; k++) emitTaskStart(loop, tasks[(k + loop.pullCount) % n]!);
}

export function emitTaskDone(loop: Loop, t: Task, cached: boolean): void {
  const sink = loop.sink;
  if (!sink || t.cn === loop.c.start || !visible(loop, M_UPDATES)) return;
  if (sink.modes & M_UPDATES) {
    const payload: Record<string, unknown> = { [t.cn.name]: taskUpdate(t.updates) };
    if (cached) payload["__metadata__"] = { cached: true };
    sink.push(loop.nsArr, "updates", payload);
  }
  if (sink.modes & (M_TASKS | M_DEBUG))
    emitTaskResult(loop, t, { id: t.id, name: t.cn.name, result: taskResult(t.updates), interrupts: [] });
}

/** `tasks`/`debug` result of a task that failed or was interrupted (no `updates` chunk for those) */
export function emitTaskStopped(loop: Loop, t: Task): void {
  const sink = loop.sink;
  if (!sink || !(sink.modes & (M_TASKS | M_DEBUG)) || t.cn === loop.c.start || !visible(loop, M_TASKS)) return;
  const payload: Record<string, unknown> = { id: t.id, name: t.cn.name, result: {}, interrupts: t.interrupts ?? [] };
  if (t.error !== undefined) payload["error"] = t.error instanceof Error ? t.error.message : String(t.error);
  emitTaskResult(loop, t, payload);
}

export function emitTaskResult(loop: Loop, t: Task, payload: unknown): void {
  const sink = loop.sink!;
  if (sink.modes & M_TASKS) sink.push(loop.nsArr, "tasks", payload);
  if (sink.modes & M_DEBUG)
    sink.push(loop.nsArr, "debug", {
      step: t.step,
      type: "task_result",
      timestamp: new Date().toISOString(),
      payload,
    });
}

/** `custom` mode: a chunk a node gave `ctx.writer` */
export function emitCustom(loop: Loop, chunk: unknown): void {
  const sink = loop.sink!;
  if (sink.modes & M_CUSTOM) sink.push(loop.nsArr, "custom", chunk);
}

/** `messages` mode: a token chunk or a whole message, with LangGraph's metadata */
export function emitMessages(task: Task, chunk: unknown, metadata?: Values): void {
  const sink = task.loop.sink;
  if (!sink || !(sink.modes & M_MESSAGES)) return;
  const ns = task.namespace;
  const nsStr = ns.join("|");
  sink.push(ns, "messages", [
    chunk,
    {
      ...metadata,
      langgraph_step: task.step,
      langgraph_node: task.cn.name,
      langgraph_triggers: [triggerOf(task)],
      langgraph_path: task.kind === PUSH ? [PUSH, task.index] : [PULL, task.cn.name],
      langgraph_checkpoint_ns: nsStr,
      checkpoint_ns: nsStr,
    },
  ]);
}
