/**
 * The lean superstep loop: LangGraph's semantics for a graph of plain nodes, static edges, routers and
 * reducers (what static/graph.ts `LeanGraph` lets it run), without a checkpointer, breakpoints, stream sink, tracing,
 * joins, deferred nodes, subgraphs or node policies. Node returns go through the full loop's writes.ts, so
 * updates, Commands (goto, Send) and routers are read exactly as there; the step order, write order,
 * errors and the recursion limit follow loop.ts.
 *
 * A step of synchronous nodes runs without a promise; the loop turns asynchronous only when a node or a
 * router returns one. Per step it allocates the tasks (and, for a step of several, the list of the nodes it
 * triggers: ../static/commands.ts `commandStep`).
 */
import type { CompiledNodes } from "../compiled.ts";
import type { Values } from "../spec.ts";
import type { Store } from "../store/types.ts";
import { takeReturn, type runBranches } from "../writes.ts";
import { reclaim } from "../reducers.ts";
import { SmallLoop, type LeanRun } from "../small-loop.ts";
import { commandStep } from "../static/commands.ts";
import { applyUpdates, writesOutput } from "../superstep.ts";
import { LeanTask, PULL } from "./task.ts";
import { isRecord } from "../objects.ts";

export class LeanLoop extends SmallLoop {
  /** writes.ts `runBranches`, for a graph with routers (`compileLeanGraph` gives it; none to a graph of static edges, whose bundle then holds no router code) */
  declare private readonly router: typeof runBranches | undefined;
  /**
   * the running step's list when it holds one task and the graph has an owned field: its writes may grow
   * `mine` (siblings' fresh reads would share it), and its routers, inline conditions that keep nothing of
   * the state (compiler/phases/4-lower/lean.ts `ownedFields`), read the state itself
   */
  declare private lone: LeanTask[] | undefined;

  /** `c`: the spec's compiled nodes, kept by the graph; `store`: the compile option's, when the run gives none */
  constructor(c: CompiledNodes, run: LeanRun, store: Store | undefined, router: typeof runBranches | undefined) {
    super(c, run, store);
    this.router = router;
  }

  /** Runs the input (already checked by the spec) through supersteps until no node is triggered. */
  start(input: Values): void | Promise<void> {
    this.values = this.c.spec.init();
    const t = new LeanTask(this, this.c.start, PULL, 0, input);
    // START's node is the identity and has static edges only: its writes are taken without running it
    // (loop.ts startStep); for an update object takeReturn cannot throw
    if (this.c.plainStart && isRecord(input)) {
      takeReturn(t, input);
      return this.drive(this.finishStep([t]));
    }
    return this.drive([t]);
  }

  // ------------------------------------------------------------------------------------------------------
  // running a step's tasks: errors are recorded on the task, never thrown

  protected override runTasks(tasks: LeanTask[]): Promise<unknown> | undefined {
    // a stream's `updates` and `values` chunks read the task's writes and the step's: nothing is applied early
    this.lone = tasks.length === 1 && this.owned !== undefined && this.sink === undefined ? tasks : undefined;
    return super.runTasks(tasks);
  }

  /**
   * A task's return. A lone task's writes are the step's result: when its routers read them, they are
   * applied now, under a loan of the owned list, and the routers read the state itself instead of a copy
   * with the writes folded in (writes.ts `runBranches`, its fresh read).
   */
  protected end(t: LeanTask, ret: unknown): Promise<unknown> | undefined {
    const lone = t.cn.edges.branches.length > 0 ? this.lone : undefined;
    const lent = lone && this.lend();
    try {
      takeReturn(t, ret);
      if (lone) {
        // the fields written are asked for only until an output field is
        const written = applyUpdates(lone, this.values, this.c.spec, !this.sawOutput);
        if (written) this.sawOutput ||= writesOutput(this.c, written);
        // applied: the step's own apply (../small-loop.ts) finds nothing left
        t.one = t.ups = undefined;
      }
      const r = this.router?.(t, 0, lone && this.values);
      // a stream's `updates`/`tasks` chunks once the routers are done, as the full loop's
      if (r !== undefined) return r.then(this.sink && (() => this.sink!.ev.emitTaskDone(this, t, false)), (e: unknown) => this.fail(t, e));
    } catch (e) {
      return this.fail(t, e);
    } finally {
      if (lent) this.mine = reclaim();
    }
    this.sink?.ev.emitTaskDone(this, t, false);
    return undefined;
  }

  // ------------------------------------------------------------------------------------------------------
  // end of step (its writes: ../small-loop.ts apply)

  /** The next step's tasks: the triggered nodes in name order (PULL), then the step's Send packets (PUSH). */
  prepare(tasks: LeanTask[]): LeanTask[] {
    if (tasks.length === 1) {
      const t = tasks[0]!;
      const e = t.edgeTrig;
      const g = t.trig;
      if (t.sends === undefined && !(g && e)) {
        // one successor, by one static edge (a chain) or chosen by a router or a goto (a loop such as W4's):
        // the finished step's array (the loop's own, read by nobody once applied) holds the next task, or
        // none: a chain's last node ends the run without the lists of a step of several
        const next = g ?? e;
        if (next === undefined) return [];
        if (next.length === 1) {
          this.pullCount = 1;
          tasks[0] = new LeanTask(this, next[0]!, PULL, 0, next[0]!.spec.read(this.values));
          return tasks;
        }
      }
    }
    return commandStep.call(this, tasks);
  }
}
