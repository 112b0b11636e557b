/**
 * The static loop: LangGraph's semantics for a graph whose schedule follows from its static edges alone — no
 * routers, no node that may return a Command (none declares `goto`), no joins, breakpoints, deferred,
 * subgraph or policy nodes (static/graph.ts checks the spec). Step k+1 runs the static targets of step k's
 * nodes, in name order; a cycle runs until the recursion limit, as in LangGraph. A node's return is a
 * checked update, nothing else, so the loop carries none of the writes of Commands, Sends and routers
 * (writes.ts) nor the lean loop's candidate marks. What it keeps of the lean loop (lean/loop.ts): the tasks
 * (lean/task.ts, the node's context), the step order and write order, the error semantics of parallel
 * tasks, the abort signal and the recursion limit, and the loan of an owned list to its reducer.
 */
import type { CNode, CompiledNodes } from "../compiled.ts";
import { compileNodes } from "../compiled.ts";
import { isThenable } from "../contracts.ts";
import { badNodeReturn, GraphAbortError, GraphError, GraphRecursionError, InvalidUpdateError, MultipleErrors, NodeError, noParent } from "../errors.ts";
import type { GraphSpec, TaskUpdate, Values } from "../spec.ts";
import { runEnv } from "../config.ts";
import type { Store } from "../store/types.ts";
import type { LeanRun } from "../lean/loop.ts";
import { LeanTask, PULL, type LeanTaskLoop } from "../lean/task.ts";
import { lend, reclaim } from "../reducers.ts";
import { stepController, untilAbort } from "../step-signal.ts";
import { recursionLimit, writesOutput } from "../superstep.ts";

const NO_VALUES: Values = Object.freeze({});

function byRank(a: CNode, b: CNode): number {
  return a.rank - b.rank;
}

export class StaticLoop implements LeanTaskLoop {
  // set by the constructor: declared only (lean/task.ts says why)
  declare readonly c: CompiledNodes;
  declare readonly vars: Values;
  declare readonly store: Store | undefined;
  declare readonly signal: AbortSignal | undefined;
  declare readonly limit: number;
  /** a field whose list only this loop sees (`GraphSpec.owned`, the first): lent to its reducer in a step of one task */
  declare private readonly owned: string | undefined;
  values: Values = NO_VALUES;
  step = -1;
  /** some output field was written (else `invoke` returns undefined, as LangGraph) */
  sawOutput = false;
  /** some task of the current step failed */
  troubled = false;
  /** the current step has a genuine failure (its first error in `failErr`) */
  failed = false;
  failErr: unknown;
  stepController: AbortController | undefined;
  unlinkStep: (() => void) | undefined;
  /** the list of `owned` this loop made and nobody else holds: its reducer may append to it in place */
  private mine: readonly unknown[] | undefined;
  private runId = "";
  /** the tasks of the step that is running asynchronously (set before it is read) */
  private tasks!: LeanTask[];

  /** `store`: the compile option's, when the run gives none */
  constructor(spec: GraphSpec, run: LeanRun, store: Store | undefined) {
    this.c = compileNodes(spec);
    this.vars = spec.vars(run.vars ?? NO_VALUES, NO_VALUES, runEnv());
    this.store = run.store ?? store;
    this.signal = run.signal;
    this.limit = recursionLimit(run.recursionLimit, spec);
    this.owned = spec.owned?.[0];
  }

  site(): { graph: string } {
    return { graph: this.c.spec.name };
  }

  /** lean/task.ts: a static run is a root graph's (its nodes return no Command, so this is never called) */
  toParent(): Error {
    return noParent(this.site());
  }

  /** ids only need to be unique within a run without a checkpointer */
  baseId(): string {
    return (this.runId ||= Math.random().toString(36).slice(2));
  }

  /** Runs the input (already checked by the spec, a fresh object: START's update) through supersteps. */
  start(input: Values): void | Promise<void> {
    this.values = this.c.spec.init();
    this.step = 0;
    // START's step applies the input and triggers START's static targets (lean/loop.ts start)
    const t = new LeanTask(this, this.c.start, PULL, 0, input);
    t.one = input;
    return this.drive(this.finishStep([t]));
  }

  private drive(tasks: LeanTask[]): void | Promise<void> {
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

  private runTasks(tasks: LeanTask[]): Promise<unknown> | undefined {
    const sig = this.signal;
    if (tasks.length === 1 && sig === undefined) return this.exec(tasks[0]!);
    let promises: Promise<unknown>[] | undefined;
    for (const t of tasks) {
      const r = this.exec(t);
      if (r !== undefined) (promises ??= []).push(r);
    }
    if (promises === undefined) return undefined;
    const all = promises.length === 1 ? promises[0]! : Promise.all(promises);
    if (sig === undefined) return all;
    return untilAbort(all, sig, () => {
      this.stepController?.abort(sig.reason);
      return new GraphAbortError(this.site(), sig.reason);
    });
  }

  private exec(t: LeanTask): Promise<unknown> | undefined {
    let ret: unknown;
    try {
      ret = t.cn.spec.call(t.input, t);
      if (isThenable(ret)) {
        return (ret as Promise<unknown>).then(
          (r) => this.take(t, r),
          (e: unknown) => this.fail(t, e),
        );
      }
      this.take(t, ret);
    } catch (e) {
      this.fail(t, e);
    }
    return undefined;
  }

  /**
   * A node's return as its task's update (writes.ts takeReturn, for a node whose type returns no Command): an
   * update object, checked, or nothing. A Command (possible only past the type checker) is an error here.
   */
  private take(t: LeanTask, ret: unknown): void {
    try {
      if (ret === null || ret === undefined) return;
      const cn = t.cn;
      if (typeof ret !== "object" || Array.isArray(ret)) throw badNodeReturn(this.c.spec.name, cn.name, ret);
      if ((ret as { lg_name?: unknown }).lg_name === "Command")
        throw new InvalidUpdateError(`node "${cn.name}" returned a Command, but it declares no goto`, { graph: this.c.spec.name, node: cn.name });
      // an update with keys of its prototype is copied to its own keys first (writes.ts ownKeys)
      const p: unknown = Object.getPrototypeOf(ret);
      const u = p === Object.prototype || p === null ? (ret as Values) : { ...(ret as Values) };
      cn.spec.check(u);
      t.one = u;
    } catch (e) {
      this.fail(t, e);
    }
  }

  private fail(t: LeanTask, e: unknown): undefined {
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
    return undefined;
  }

  /**
   * One controller per step, linked to the run's signal for the step's duration only (loop.ts stepSignal):
   * made only when a node asks for its signal.
   */
  stepSignal(): AbortSignal {
    if (this.stepController) return this.stepController.signal;
    const { controller, unlink } = stepController(this.signal, this.failed, this.failErr);
    this.stepController = controller;
    this.unlinkStep = unlink;
    return controller.signal;
  }

  // ------------------------------------------------------------------------------------------------------
  // end of step

  /** Applies the step (or throws its error), checks the recursion limit and returns the next step's tasks. */
  private finishStep(tasks: LeanTask[]): LeanTask[] {
    if (this.stepController !== undefined) {
      this.stepController = undefined;
      this.unlinkStep?.();
      this.unlinkStep = undefined;
    }
    if (this.troubled) {
      this.troubled = false;
      throw this.stepError(tasks);
    }
    this.apply(tasks);
    this.step++;
    if (this.step > this.limit) throw new GraphRecursionError(this.limit, this.site());
    return this.prepare(tasks);
  }

  /** loop.ts stepError: the genuine failures of a step at once, aggregated; else the first error */
  private stepError(tasks: readonly LeanTask[]): unknown {
    this.failed = false;
    this.failErr = undefined;
    let errors: unknown[] | undefined;
    for (const t of tasks) if (t.genuine) (errors ??= []).push(t.error);
    if (errors === undefined) return tasks.find((t) => t.error !== undefined)!.error;
    return errors.length === 1 ? errors[0] : new MultipleErrors(this.c.spec.name, this.step, errors);
  }

  /**
   * Applies a step's updates (at most one per task) in LangGraph's order, the tasks' name order: a lone
   * update bare (`applyOne`, which a static spec has), under a loan of the owned list when it is long
   * enough to be worth one (lean/loop.ts lend).
   */
  private apply(tasks: readonly LeanTask[]): void {
    const spec = this.c.spec;
    const values = this.values;
    const want: string[] | undefined = this.sawOutput ? undefined : [];
    if (tasks.length === 1) {
      const u = tasks[0]!.one;
      if (u !== undefined) {
        const owned = this.owned;
        const list = owned === undefined ? undefined : (values[owned] as readonly unknown[] | undefined);
        if (list !== undefined && list.length >= 8) {
          lend(list, list === this.mine);
          try {
            spec.applyOne!(values, u, want);
          } finally {
            // a loan left open would let anyone who holds a candidate list grow its copy
            this.mine = reclaim();
          }
        } else spec.applyOne!(values, u, want);
      }
    } else {
      const all: TaskUpdate[] = [];
      for (const t of tasks) if (t.one !== undefined) all.push({ node: t.cn.name, values: t.one });
      if (all.length > 0) {
        const written = spec.apply(values, all);
        want?.push(...written);
      }
    }
    if (spec.clearEphemeral) spec.clearEphemeral(values);
    if (want !== undefined && want.length > 0 && writesOutput(this.c, want)) this.sawOutput = true;
  }

  /** The next step's tasks: the static targets of this step's nodes, each once, in name order. */
  private prepare(tasks: LeanTask[]): LeanTask[] {
    const values = this.values;
    let next: CNode[];
    if (tasks.length === 1) next = tasks[0]!.cn.targets as CNode[];
    else {
      const seen = new Set<CNode>();
      for (const t of tasks) for (const n of t.cn.targets) seen.add(n);
      next = [...seen];
    }
    if (next.length > 1) next = next.slice().sort(byRank);
    const out: LeanTask[] = [];
    for (let i = 0; i < next.length; i++) out.push(new LeanTask(this, next[i]!, PULL, i, next[i]!.spec.read(values)));
    return out;
  }
}
