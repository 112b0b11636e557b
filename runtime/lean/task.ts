/**
 * One task of the lean loop (loop.ts): a node run (PULL) or a Send packet (PUSH). As the full loop's Task
 * (../task.ts) it is the node's `NodeContext` and the writes' `WriteTask` (../writes.ts), so running a node
 * allocates one object; but it carries none of the fields of checkpoints, policies, subgraphs or streaming,
 * which a lean run never has.
 */
import type { Command } from "../command.ts";
import type { CNode, CompiledNodes } from "../compiled.ts";
import type { ErrorSite } from "../errors.ts";
import { GraphValueError, childName, missingCheckpointer, undeclaredChild } from "../errors.ts";
import { randomUuid } from "../random-id.ts";
import type { NodeContext, RunnableChild, Send, TaskUpdate, Values } from "../spec.ts";
import type { StreamSink } from "../contracts.ts";
import type { Store } from "../store/types.ts";
import type { FreshRead } from "../task.ts";
import { TaskBase } from "../task-base.ts";
import type { WriteTask } from "../writes.ts";

/** What a task uses of the lean loop that runs it (lean/loop.ts implements it). */
export interface LeanTaskLoop {
  readonly c: CompiledNodes;
  readonly step: number;
  readonly vars: Values;
  readonly values: Values;
  readonly store: Store | undefined;
  /** a stream's sink (small-loop.ts), else undefined; the stream events read the rest (contracts.ts StreamLoop) */
  readonly sink: StreamSink | undefined;
  readonly nsArr: readonly string[];
  readonly isRoot: boolean;
  readonly pullCount: number;
  // no `toParent` (writes.ts): a small run is always a root graph's, so a Command.PARENT is "There is no parent graph."
  /** the step's signal (aborted by the run's signal or a sibling's failure) */
  stepSignal(): AbortSignal;
}

export const PULL = "__pregel_pull";
export const PUSH = "__pregel_push";

export class LeanTask extends TaskBase implements NodeContext, WriteTask {
  /** the task's update while it is its only one and no router read it: the loop applies it bare (applyOne) */
  one: Values | undefined = undefined;
  ups: TaskUpdate[] | undefined = undefined;
  edgeTrig: readonly CNode[] | undefined = undefined;
  // rarely set (a router's fresh read, router or goto targets, Sends, a lean graph's never-written barriers,
  // a failure): declared only, so that a task of a plain step initialises four fields, not eleven
  declare fresh: FreshRead | undefined;
  declare trig: CNode[] | undefined;
  declare joinW: readonly number[] | undefined;
  declare sends: Send[] | undefined;
  declare error: unknown;
  /** the task failed on its own (not because a sibling's failure aborted it) */
  declare genuine: boolean | undefined;
  // the fields the constructor sets are `declare`d: a declared field without an initialiser is emitted as a
  // class field (`cn;`), bytes in every bundle and, for a name the package's bundle shortens, a second
  // property that stays undefined
  declare readonly loop: LeanTaskLoop;
  declare readonly cn: CNode;
  declare readonly kind: typeof PULL | typeof PUSH;
  /** PUSH: index of the Send packet; PULL: position among the step's PULL tasks */
  declare readonly index: number;
  declare readonly input: unknown;
  declare readonly step: number;
  declare private _id: string | undefined;

  constructor(loop: LeanTaskLoop, cn: CNode, kind: typeof PULL | typeof PUSH, index: number, input: unknown) {
    super();
    this.loop = loop;
    this.cn = cn;
    this.kind = kind;
    this.index = index;
    this.input = input;
    this.step = loop.step;
  }

  get store(): Store | undefined {
    return this.loop.store;
  }

  /** random, uuid-shaped, kept once read: as the full loop's without a checkpointer (nothing resumes a lean run) */
  get id(): string {
    return (this._id ??= randomUuid());
  }

  get namespace(): readonly string[] {
    return [`${this.cn.name}:${this.id}`];
  }

  get signal(): AbortSignal {
    return this.loop.stepSignal();
  }

  writer(chunk: unknown): void {
    this.loop.sink?.ev.emitCustom(this.loop, chunk);
  }
  messages(chunk: unknown, metadata?: Values): void {
    this.loop.sink?.ev.emitMessages(this, chunk, metadata);
  }
  // without a timeout there is no progress to report
  heartbeat(): void {}

  interrupt<T = unknown>(): T {
    // a lean run has no checkpointer (a run with one is the full loop's)
    throw missingCheckpointer({ graph: this.graph, node: this.cn.name });
  }

  run<I, O>(child: RunnableChild<I, O> | string): Promise<O | undefined> {
    // a lean graph has no node that declares `uses`
    return Promise.reject(undeclaredChild({ graph: this.graph, node: this.cn.name }, childName(child), undefined));
  }

  runSubgraph(): Promise<Values | undefined> {
    const site = { graph: this.graph, node: this.cn.name };
    return Promise.reject(new GraphValueError(`node "${site.node}" of graph "${site.graph}" is not a subgraph node`, site));
  }
}
