/**
 * The narrow contracts between the superstep loop and its optional parts (issue 9). The loop (loop.ts) calls
 * durable execution, stream events, node policies and Command input only through these interfaces, reached
 * through its run (`run.d`, `run.sink.ev`, `run.policy`, `run.input`); the parts implement them (durable.ts,
 * stream-events.ts, policy.ts, command-input.ts) and are put into a run by graph.ts from the feature table
 * (features.ts). So the loop never imports a part, a part is bundled only when something installs it, and
 * runtime/'s import graph stays a DAG (test/runtime/import-dag.test.ts).
 *
 * The hooks are generic in the loop (`L`) and task (`T`) types, so that this module imports neither:
 * loop.ts instantiates them with its own `Loop` and `Task<Loop>`.
 */
import type { Command } from "./command.ts";
import type { CNode } from "./compiled.ts";
import type { Interrupt } from "./errors.ts";
import type { CheckpointSource } from "./checkpoint/types.ts";
import type { CheckpointState } from "./checkpoint-state.ts";
import type { GraphSpec, Send, TaskUpdate, Values } from "./spec.ts";
import type { StreamMode } from "./stream.ts";

export type Outcome = { interrupted: false } | { interrupted: true; interrupts: Interrupt[] };

/** the resume values of a run: one plain value for the next interrupt, or a map by interrupt id */
export interface ResumeState {
  hasValue: boolean;
  value: unknown;
  map: Record<string, unknown> | undefined;
}

/** A finished task's writes, as cached and as restored from pending writes. */
export interface WriteRecord {
  updates: TaskUpdate[] | undefined;
  trig: CNode[] | undefined;
  joinW: readonly number[] | undefined;
  sends: Send[] | undefined;
}

/** A task's writes as LangGraph channel writes: `[channel, value]` */
export type ChannelWrite = [string, unknown];

/** Checkpoints, pending writes, interrupts/resume and durable subgraph runs (durable.ts), when a run has a saver. */
export interface DurableHooks<L, T> {
  /** a loop's checkpoint state; a subgraph's shares its parent's queue of saver calls */
  checkpointState(parent: CheckpointState | undefined): CheckpointState;
  /** a root run: take the thread, load, take the input, drive, flush */
  start(loop: L, input: unknown): Promise<Outcome>;
  /** a subgraph run with its own checkpoints */
  startChild(loop: L, input: Values): Promise<Values | undefined>;
  /** `invoke(null)` on a thread with a checkpoint */
  beginResume(loop: L): void | Promise<unknown>;
  /** a new input cancels the unfinished tasks of the loaded checkpoint */
  discardPending(loop: L): void;
  /** the pending writes of an earlier run attached to this step's tasks (finished ones are not run again) */
  attachPending(loop: L, tasks: T[]): T[];
  /** saves a checkpoint closing `step` (per durability) */
  saveCheckpoint(loop: L, source: CheckpointSource, step: number): Promise<unknown> | undefined;
  /** saves a task's writes against the current checkpoint */
  putWritesRaw(loop: L, taskId: string, writes: ChannelWrite[]): void;
  /** a finished task's writes as channel writes */
  flatWrites(loop: L, t: T): ChannelWrite[];
  /** exit durability: persist the last checkpoint; every mode: wait for queued saves */
  flush(loop: L): Promise<unknown>;
  /** `ctx.interrupt(value)` */
  interrupt(task: T, value: unknown): unknown;
  /** a task's deterministic id: `name` (namespace, step, node, trigger) within `namespace` (the checkpoint id); ids.ts */
  taskId(name: string, namespace: string): string;
}

/** A `Command` given as `invoke` input: resume values, update and goto (command-input.ts). */
export interface CommandInputHooks<L> {
  takeCommand(loop: L, input: Command): void | Promise<unknown>;
}

/** The cache, retry, timeout and error-route policies of a node (policy.ts); never rejects. */
export interface PolicyHooks<T> {
  runWithPolicy(t: T): Promise<void>;
}

/**
 * What the stream events read of a loop: the full loop (loop.ts) and the small loops (small-loop.ts), which
 * run a lean graph's streams without a checkpointer, both have it.
 */
export interface StreamLoop {
  readonly sink: Sink<never, never> | undefined;
  /** the step's PULL tasks come first in its list, PUSH tasks start first */
  readonly pullCount: number;
  readonly nsArr: readonly string[];
  readonly isRoot: boolean;
  readonly values: Values;
  readonly c: { readonly start: CNode; readonly spec: GraphSpec };
}

/** What the stream events read of a task (task.ts's `Task`, lean/task.ts's `LeanTask`). */
export interface StreamTask {
  readonly loop: StreamLoop;
  readonly id: string;
  readonly cn: CNode;
  readonly input: unknown;
  /**
   * the first available trigger channel (LangGraph's `triggers[0]`); a small loop's task has none, as it has
   * no joins: its node's (PULL) or PUSH (stream-events.ts triggerOf)
   */
  readonly trigger?: string | undefined;
  readonly kind: string;
  /** PUSH: index of the Send packet */
  readonly index: number;
  readonly step: number;
  readonly updates: readonly TaskUpdate[] | undefined;
  readonly error?: unknown;
  readonly interrupts?: Interrupt[] | undefined;
  readonly namespace: readonly string[];
}

/** The stream events of a loop (stream-events.ts), carried by the run's sink. */
export interface StreamEvents<L, T> {
  emitValues(loop: L): void;
  /** at an interrupt: the state with the finished siblings' writes applied */
  emitView(loop: L, view: Values): void;
  emitInterrupt(loop: L, interrupts: Interrupt[]): void;
  emitTaskStart(loop: L, t: T): void;
  /** every task of a small loop's step (`tasks`/`debug` modes) before any of them runs, as LangGraph announces them */
  emitStepStart(loop: L, tasks: readonly T[]): void;
  emitTaskDone(loop: L, t: T, cached: boolean): void;
  /** `tasks`/`debug` result of a task that failed or was interrupted */
  emitTaskStopped(loop: L, t: T): void;
  emitMessages(task: T, chunk: unknown, metadata?: Values): void;
  /** `custom` mode: what a node gave `ctx.writer` */
  emitCustom(loop: L, chunk: unknown): void;
}

/** Where a run's stream events go (streaming.ts builds it for `stream()`); none for `invoke`. */
export interface Sink<L, T> {
  /** bit set of the enabled modes (stream.ts) */
  readonly modes: number;
  readonly subgraphs: boolean;
  push(ns: readonly string[], mode: StreamMode, payload: unknown): void;
  /** the event code, carried by the sink so that `invoke` alone never bundles it */
  readonly ev: StreamEvents<L, T>;
}

/** the sink `stream()` (streaming.ts) hands a run: its events are stream-events.ts's, for either loop */
export type StreamSink = Sink<StreamLoop, StreamTask>;

/** `x` has a `then` method: the loop stays synchronous for as long as nothing returns a promise */
export function isThenable(x: unknown): x is PromiseLike<unknown> {
  return typeof x === "object" && x !== null && typeof (x as { then?: unknown }).then === "function";
}
