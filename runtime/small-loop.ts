/**
 * What the lean loop (lean/loop.ts) and the static loop (static/loop.ts) share: the run's config, the
 * supersteps driven synchronously until a node returns a promise, the tasks of a step run with their errors
 * recorded (loop.ts semantics: genuine failures aggregated, a sibling's abort not counted), the step's abort
 * signal, and the end of a step (its error, its writes, the recursion limit). Each loop adds how a node's
 * return becomes writes (`end`) and which tasks come next (`prepare`). A streamed run pushes the full loop's
 * events into its sink (`sink.ev`, stream-events.ts); a Command given as input starts it through
 * small-command.ts (installed), and `maxConcurrency` limits the tasks of a step running at once.
 */
import type { CNode, CompiledNodes } from "./compiled.ts";
import { isThenable } from "./contracts.ts";
import { GraphAbortError, GraphError, GraphRecursionError, NodeError } from "./errors.ts";
import type { Values } from "./spec.ts";
import { runEnv } from "./config.ts";
import type { Store } from "./store/types.ts";
import { lend, reclaim } from "./reducers.ts";
import { endStep, runLimited, stepPromise, stepSignal } from "./step-signal.ts";
import { applyUpdates, recursionLimit, stepFailure, writesOutput } from "./superstep.ts";
import { LeanTask, PULL, type LeanTaskLoop } from "./lean/task.ts";
import type { StreamSink } from "./contracts.ts";

export const NO_VALUES: Values = Object.freeze({});

/** LangGraph's PULL task order: by node name */
export function byRank(a: CNode, b: CNode): number {
  return a.rank - b.rank;
}

/** What one small run takes of its config (a `RunConfig`). */
export interface LeanRun {
  readonly signal?: AbortSignal | undefined;
  readonly store?: Store | undefined;
  readonly vars?: Values | undefined;
  readonly recursionLimit?: number | undefined;
  readonly maxConcurrency?: number | undefined;
  /** a stream's (static/graph.ts `streamRun`), which carries the event code */
  readonly sink?: StreamSink | undefined;
}

const NO_NS: readonly string[] = Object.freeze([]);

export abstract class SmallLoop implements LeanTaskLoop {
  // set by the constructor: declared only (lean/task.ts says why)
  declare readonly c: CompiledNodes;
  declare readonly store: Store | undefined;
  declare readonly signal: AbortSignal | undefined;
  /** a streaming run's sink: events go there as they happen in the full loop (loop.ts) */
  declare readonly sink: StreamSink | undefined;
  /** the run's recursion limit */
  declare readonly limit: number;
  // made by `start`, which every run calls first
  declare values: Values;
  step = 0;
  /** some output field was written (else `invoke` returns undefined, as LangGraph) */
  sawOutput = false;
  /** PULL tasks of the current step (they come first in `tasks`; PUSH tasks start first) */
  pullCount = 0;
  /** some task of the current step failed */
  troubled = false;
  /** the current step has a genuine failure (its first error in `failErr`) */
  failed = false;
  // set only when a step fails, or a node asks for its signal: declared only, so that a
  // run of a plain chain initialises none of them
  declare failErr: unknown;
  declare stepController: AbortController | undefined;
  declare unlinkStep: (() => void) | undefined;
  /** a field whose list only this loop sees (`GraphSpec.owned`, the first): lent to reducers (reducers.ts `lend`) */
  declare protected readonly owned: string | undefined;
  /** the list of `owned` this loop made and nobody else holds: reducers may append to it in place */
  declare protected mine: readonly unknown[] | undefined;
  /** the run's vars: made when first read unless the run gives overrides */
  declare private varsV: Values | undefined;
  /** the run's `maxConcurrency`, if any */
  declare maxConcurrency: number | undefined;
  /** the tasks of the step that is running asynchronously (set before it is read) */
  declare private tasks: LeanTask[];

  /** `c`: the spec's compiled nodes, kept by the graph; `store`: the compile option's, when the run gives none */
  constructor(c: CompiledNodes, run: LeanRun, store: Store | undefined) {
    this.c = c;
    const spec = c.spec;
    // without overrides the graph's vars cannot fail their checks, so they are made when first read (most
    // runs' nodes never read them); overrides are checked now, as the full loop does
    this.varsV = run.vars && spec.vars(run.vars, NO_VALUES, runEnv());
    this.store = run.store ?? store;
    this.signal = run.signal;
    this.sink = run.sink;
    this.maxConcurrency = run.maxConcurrency;
    this.limit = recursionLimit(run.recursionLimit, spec);
    this.owned = spec.owned?.[0];
  }

  // a small run is a root graph's, without subgraphs: the namespace of its stream chunks is empty
  get nsArr(): readonly string[] {
    return NO_NS;
  }
  get isRoot(): boolean {
    return true;
  }

  get vars(): Values {
    return (this.varsV ??= this.c.spec.vars(NO_VALUES, NO_VALUES, runEnv()));
  }

  /** Runs the input (already checked by the spec) through supersteps until no node is triggered. */
  abstract start(input: Values): void | Promise<void>;

  /** A task's return as its writes; errors are recorded on the task (`fail`), never thrown. */
  protected abstract end(t: LeanTask, ret: unknown): Promise<unknown> | undefined;

  /** The next step's tasks. */
  protected abstract prepare(tasks: LeanTask[]): LeanTask[];

  /** PULL tasks of `nodes` (each once) in name order */
  pulls(nodes: readonly CNode[]): LeanTask[] {
    const values = this.values;
    const next = nodes.length > 1 ? nodes.slice().sort(byRank) : nodes;
    const out: LeanTask[] = [];
    for (let i = 0; i < next.length; i++) out.push(new LeanTask(this, next[i]!, PULL, i, next[i]!.spec.read(values)));
    this.pullCount = out.length;
    return out;
  }

  site(): { graph: string } {
    return { graph: this.c.spec.name };
  }

  /**
   * Lends the owned field's list for one synchronous apply: as owned when it is still the one this loop made.
   * A list of a few items is not lent (false): its copy costs less than the loan (W5's 3-item log ran ~10%
   * slower lent). The caller reclaims it (`mine = reclaim()`) when the apply is done.
   */
  protected lend(): boolean {
    const list = this.values[this.owned!] as readonly unknown[] | undefined;
    // a stream's `values` chunks hold the list: it must not grow under them
    if ((list?.length ?? 0) < 8 || this.sink !== undefined) return false;
    lend(list, list === this.mine);
    return true;
  }

  /** @internal */
  drive(tasks: LeanTask[]): void | Promise<void> {
    const r = this.steps(tasks);
    if (r !== undefined) return this.driveAsync(r);
  }

  /** Runs steps for as long as nothing returns a promise; else returns it, with its step's tasks in `tasks`. */
  private steps(tasks: LeanTask[]): Promise<unknown> | undefined {
    for (;;) {
      const sig = this.signal;
      if (sig?.aborted) throw new GraphAbortError(this.site(), sig.reason);
      if (tasks.length === 0) return undefined;
      const r = this.runTasks(tasks);
      if (r !== undefined) {
        this.tasks = tasks;
        return r;
      }
      tasks = this.finishStep(tasks);
    }
  }

  private async driveAsync(running: Promise<unknown>): Promise<void> {
    for (;;) {
      await running;
      const r = this.steps(this.finishStep(this.tasks));
      if (r === undefined) return;
      running = r;
    }
  }

  // ------------------------------------------------------------------------------------------------------
  // running a step's tasks: errors are recorded on the task, never thrown

  protected runTasks(tasks: LeanTask[]): Promise<unknown> | undefined {
    const n = tasks.length;
    const sig = this.signal;
    if (n === 1 && sig === undefined) return this.exec(tasks[0]!);
    // a stream (which always has a signal) announces every task of the step before any of them runs
    this.sink?.ev.emitStepStart(this, tasks);
    const limit = this.maxConcurrency;
    if (limit !== undefined && limit < n) return runLimited(tasks, this.pullCount, limit, sig, this, (t) => this.exec(t));
    let promises: Promise<unknown>[] | undefined;
    // LangGraph starts PUSH tasks before PULL tasks
    for (let k = 0; k < n; k++) {
      const r = this.exec(tasks[(k + this.pullCount) % n]!);
      if (r !== undefined) (promises ??= []).push(r);
    }
    return promises && stepPromise(this, promises, sig);
  }

  /** @internal */
  exec(t: LeanTask): Promise<unknown> | undefined {
    let ret: unknown;
    try {
      ret = t.cn.spec.call(t.input, t);
    } catch (e) {
      return this.fail(t, e);
    }
    if (isThenable(ret)) {
      return (ret as Promise<unknown>).then(
        (r) => this.end(t, r),
        (e: unknown) => this.fail(t, e),
      );
    }
    return this.end(t, ret);
  }

  protected fail(t: LeanTask, e: unknown): undefined {
    this.troubled = true;
    const err = e instanceof GraphError ? e : new NodeError(this.c.spec.name, t.cn.name, e);
    t.error = err;
    // a node that gave up because a sibling's failure aborted the step does not count (loop.ts causedByFailure)
    const caused =
      this.failed && (e === this.failErr || e === this.stepController?.signal.reason || (e instanceof Error && e.name === "AbortError"));
    if (!caused) {
      t.genuine = true;
      if (!this.failed) {
        this.failed = true;
        this.failErr = err;
      }
      this.stepController?.abort(err);
    }
    this.sink?.ev.emitTaskStopped(this, t);
    return undefined;
  }

  /**
   * One controller per step, linked to the run's signal for the step's duration only (loop.ts stepSignal):
   * made only when a node asks for its signal.
   */
  stepSignal(): AbortSignal {
    return stepSignal(this, this.signal, this.failed);
  }

  // ------------------------------------------------------------------------------------------------------
  // end of step

  /** Applies the step (or throws its error), checks the recursion limit and returns the next step's tasks. */
  protected finishStep(tasks: LeanTask[]): LeanTask[] {
    if (this.stepController !== undefined) endStep(this);
    if (this.troubled) {
      this.troubled = false;
      throw this.stepError(tasks);
    }
    this.apply(tasks);
    this.step++;
    if (this.step > this.limit) throw new GraphRecursionError(this.limit, this.site());
    return this.prepare(tasks);
  }

  /**
   * Applies a step's writes in LangGraph's order: PULL tasks by name, then PUSH tasks by index; a lone task's
   * under a loan of the owned list (`lend`).
   */
  private apply(tasks: readonly LeanTask[]): void {
    const spec = this.c.spec;
    const values = this.values;
    // a task whose routers folded its writes already (`fresh`) is applied by copying their result
    // one task may write to the owned list in place (siblings' fresh reads would share it)
    const lent = tasks.length === 1 && this.owned !== undefined && tasks[0]!.fresh === undefined && this.lend();
    // the fields written are asked for only until an output field is, or for a stream's `values` chunk
    const sink = this.sink;
    let written: readonly string[] | undefined;
    try {
      written = applyUpdates(tasks, values, spec, !this.sawOutput || sink !== undefined);
      if (written !== undefined && !this.sawOutput && writesOutput(this.c, written)) this.sawOutput = true;
    } finally {
      // a loan left open would let anyone who holds a candidate list grow its copy
      if (lent) this.mine = reclaim();
    }
    spec.clearEphemeral?.(values);
    if (sink !== undefined && written!.length > 0) sink.ev.emitValues(this);
  }

  /** loop.ts stepError: the genuine failures of a step at once, aggregated; else the first error */
  private stepError(tasks: readonly LeanTask[]): unknown {
    this.failed = false;
    this.failErr = undefined;
    let errors: unknown[] | undefined;
    for (const t of tasks) if (t.genuine) (errors ??= []).push(t.error);
    return stepFailure(tasks, errors, this.c.spec.name, this.step);
  }
}
