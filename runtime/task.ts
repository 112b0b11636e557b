/**
 * One task of a superstep: a node run (PULL) or a Send packet (PUSH). The task object is also the node's
 * `NodeContext`, so running a node allocates a single object; ids and namespaces are computed lazily
 * because only checkpoints, subgraphs, interrupts and some stream modes need them.
 */
import type { Store } from "./store/types.ts";
import type { CNode } from "./compiled.ts";
import { GraphValueError, ParentCommand, childName, missingCheckpointer, undeclaredChild } from "./errors.ts";
import type { ErrorSite, Interrupt } from "./errors.ts";
import type { Command } from "./command.ts";
import { randomUuid } from "./random-id.ts";
import type { Compiled } from "./compiled.ts";
import type { GraphSpec, NodeContext, RunnableChild, Send, TaskUpdate, Values } from "./spec.ts";
import { isThenable, type StreamSink } from "./contracts.ts";
import { TaskBase } from "./task-base.ts";

/**
 * What a task (and the writes of its node, writes.ts) uses of the loop that runs it: loop.ts's `Loop`
 * implements it, and instantiates `Task<Loop>` so that the optional parts see the whole loop.
 */
export interface TaskLoop {
  readonly c: Compiled;
  readonly step: number;
  readonly durable: boolean;
  readonly ns: string;
  readonly nsArr: readonly string[];
  readonly vars: Values;
  readonly values: Values;
  readonly isRoot: boolean;
  /** the stream events read these (contracts.ts StreamLoop) */
  readonly sink: StreamSink | undefined;
  readonly pullCount: number;
  /** writes.ts WriteTask: what carries a Command.PARENT out of a subgraph (none at the root) */
  toParent(cmd: Command, site: ErrorSite): Error | undefined;
  readonly run: {
    readonly store: Store | undefined;
    readonly saver: unknown;
    readonly sink: StreamSink | undefined;
    readonly d: { interrupt(task: Task, value: unknown): unknown; taskId(name: string, namespace: string): string } | undefined;
  };
  /** the id base of a run with a saver: the checkpoint id */
  baseId(): string;
  /** the signal handed to a node */
  taskController(): AbortController;
  runChild(task: Task, child: GraphSpec, input: Values, checked?: true): Values | undefined | Promise<Values | undefined>;
}

/** A router's fresh read: the state after `updates` (the first `count` of them), and the fields they wrote. */
export interface FreshRead {
  readonly values: Values;
  readonly written: string[];
  readonly updates: readonly TaskUpdate[];
  readonly count: number;
}

export const PULL = "__pregel_pull";
export const PUSH = "__pregel_push";

export class Task<L extends TaskLoop = TaskLoop> extends TaskBase implements NodeContext {
  // Fields that most tasks never set are `declare`d: no own property until written (a missing one reads as
  // undefined), which keeps the object a step allocates per node small (fewer fields to fill and collect).
  /** the task's update while it is its only one and nothing read `updates`: a step of one task applies it bare */
  one: Values | undefined = undefined;
  /** the list, once there is one (a second update, or a reader of `updates`) */
  ups: TaskUpdate[] | undefined = undefined;
  /**
   * What this task's routers saw: the step's state with this task's own updates applied (a copy). When
   * these updates are the step's only ones, the step takes its fields from here instead of folding the
   * same updates again (a `messages` history would be copied twice per step).
   */
  declare fresh: FreshRead | undefined;
  /** nodes this task triggers (static edges, goto, routers) */
  trig: CNode[] | undefined;
  /** static edge targets (shared, never mutated) */
  edgeTrig: readonly CNode[] | undefined;
  /** join barriers this task writes its name to (may be the node's own list: never mutated) */
  declare joinW: readonly number[] | undefined;
  declare sends: Send[] | undefined;
  /** finished in an earlier run (pending writes) or from the cache: not run again (unset: false) */
  declare cached: boolean | undefined;
  declare error: unknown;
  declare interrupts: Interrupt[] | undefined;
  /** a Command.PARENT raised by this task's own node, to re-throw after the step */
  declare bubble: ParentCommand | undefined;
  /** ctx.run ran the declared child in this attempt (unset: false) */
  declare ranChild: boolean | undefined;
  /** resume values delivered to this task's interrupts so far, in call order */
  declare resumes: unknown[] | undefined;
  /** interrupts called so far in this attempt (unset: 0) */
  declare interruptCount: number | undefined;
  /**
   * Supersteps run so far by the subgraphs this task called: how far the task got, the "time" by which
   * failures of one step are ordered (a plain node's failure happens at 0). See `Loop.fail`.
   */
  ticks = 0;
  /** `ticks` at this task's failure when the failure is genuine (not caused by a sibling's), else -1 */
  failedAt = -1;
  /** refreshes an idle timeout; set while a timeout is armed */
  declare onProgress: (() => void) | undefined;
  declare controller: AbortController | undefined;
  declare private _id: string | undefined;
  declare private _ns: string[] | undefined;
  // the fields the constructor sets are `declare`d (lean/task.ts says why): as parameter properties the
  // package bundle's tasks carried `cn`, `trigger` and `joinTrigger` twice, once undefined
  declare readonly loop: L;
  declare readonly cn: CNode;
  declare readonly kind: typeof PULL | typeof PUSH;
  /** PUSH: index of the Send packet; PULL: position among the step's PULL tasks */
  declare readonly index: number;
  declare readonly input: unknown;
  /** the first available trigger channel (LangGraph's `triggers[0]`) */
  declare readonly trigger: string;
  /** the join this task consumes, or -1 */
  declare readonly joinTrigger: number;
  /** the superstep this task belongs to (its id must not move when the loop advances) */
  declare private readonly at: number;

  constructor(loop: L, cn: CNode, kind: typeof PULL | typeof PUSH, index: number, input: unknown, trigger: string, joinTrigger: number) {
    super();
    this.loop = loop;
    this.cn = cn;
    this.kind = kind;
    this.index = index;
    this.input = input;
    this.trigger = trigger;
    this.joinTrigger = joinTrigger;
    this.at = loop.step;
    // with a checkpointer the id is needed at once (pending writes), must use this step's checkpoint and is
    // derived (durable.ts `taskId`: a resumed run finds its pending writes by it)
    if (loop.durable) {
      const key = `${loop.ns}\u0000${this.at}\u0000${cn.name}\u0000${kind}\u0000${kind === PULL ? trigger : index}`;
      this._id = loop.run.d!.taskId(key, loop.baseId());
    }
  }

  get store(): Store | undefined {
    return this.loop.run.store;
  }
  get step(): number {
    return this.at;
  }

  /**
   * With a checkpointer, deterministic: same checkpoint, namespace, step, node and trigger → same id
   * (reference §1.2; set by the constructor). Without one the derivation's base was a random run id, so
   * the id is random, uuid-shaped, unique within the run and kept once read; nothing derives it again.
   */
  get id(): string {
    return (this._id ??= randomUuid());
  }

  get path(): [string, string | number] {
    return this.kind === PULL ? [PULL, this.cn.name] : [PUSH, this.index];
  }

  get namespace(): readonly string[] {
    return (this._ns ??= [...this.loop.nsArr, `${this.cn.name}:${this.id}`]);
  }

  get signal(): AbortSignal {
    return (this.controller ??= this.loop.taskController()).signal;
  }

  resetWrites(): void {
    this.one = this.ups = this.trig = this.edgeTrig = this.joinW = this.sends = this.bubble = this.ranChild = undefined;
  }

  run<I, O>(child: RunnableChild<I, O> | string, input: I): Promise<O | undefined> {
    const name = childName(child);
    const declared = this.cn.spec.subgraph;
    const site = { graph: this.graph, node: this.cn.name };
    if (declared === undefined || name !== declared.name) return Promise.reject(undeclaredChild(site, name, declared?.name));
    // a second child run of one task would meet the first's checkpoints in the same namespace
    if (this.ranChild && this.loop.durable) {
      return Promise.reject(new GraphValueError(`node "${this.cn.name}" of graph "${this.graph}" ran its child graph twice in one task: with a checkpointer a task runs one child`, site, "MULTIPLE_SUBGRAPHS", "MULTIPLE_SUBGRAPHS"));
    }
    this.ranChild = true;
    return this.runSubgraph(declared, input as Values) as Promise<O | undefined>;
  }

  writer(chunk: unknown): void {
    this.onProgress?.();
    this.loop.run.sink?.ev.emitCustom(this.loop, chunk);
  }

  messages(chunk: unknown, metadata?: Values): void {
    this.onProgress?.();
    const sink = this.loop.run.sink;
    if (sink !== undefined) sink.ev.emitMessages(this, chunk, metadata);
  }

  heartbeat(): void {
    this.onProgress?.();
  }

  interrupt<T = unknown>(value: unknown): T {
    // without a checkpointer there is nothing to resume from (the durable part may not even be installed)
    if (!this.loop.run.saver) throw missingCheckpointer({ graph: this.graph, node: this.cn.name });
    return this.loop.run.d!.interrupt(this, value) as T;
  }

  runSubgraph(child: GraphSpec, input: Values): Promise<Values | undefined> {
    try {
      const out = this.runSubgraphNow(child, input);
      // a child that finished synchronously is handed over as an already resolved promise
      return isThenable(out) ? (out as Promise<Values | undefined>) : Promise.resolve(out);
    } catch (e) {
      return Promise.reject(e);
    }
  }

  runSubgraphNow(child: GraphSpec, input: Values, checked?: true): Values | undefined | Promise<Values | undefined> {
    this.onProgress?.();
    return this.loop.runChild(this, child, input, checked);
  }
}
