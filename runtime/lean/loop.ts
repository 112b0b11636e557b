/**
 * The lean superstep loop: LangGraph's semantics for a graph of plain nodes, static edges, routers and
 * reducers (what lean/graph.ts lets it run), without a checkpointer, breakpoints, stream sink, tracing,
 * joins, deferred nodes, subgraphs or node policies. Node returns go through the full loop's writes.ts, so
 * updates, Commands (goto, Send) and routers are read exactly as there; the step order, write order,
 * errors and the recursion limit follow loop.ts.
 *
 * A step of synchronous nodes runs without a promise; the loop turns asynchronous only when a node or a
 * router returns one. Per step it allocates the tasks and (for a step of several) the candidate list.
 */
import type { CNode, CompiledNodes } from "../compiled.ts";
import type { Send, Values } from "../spec.ts";
import type { Store } from "../store/types.ts";
import { takeReturn, type runBranches } from "../writes.ts";
import { reclaim } from "../reducers.ts";
import { byRank, SmallLoop, type LeanRun } from "../small-loop.ts";
import { LeanTask, PULL, PUSH } from "./task.ts";

export class LeanLoop extends SmallLoop {
  /** writes.ts `runBranches`, for a graph with routers (lean/graph.ts gives none to a graph of static edges, whose bundle then holds no router code) */
  declare private readonly router: typeof runBranches | undefined;
  /** candidate nodes of the next step: a mark by node index and the list */
  declare private marked: Uint8Array | undefined;
  declare private cands: CNode[] | undefined;
  /** the running step has one task and the graph an owned field: its writes may grow `mine` (siblings' fresh reads would share it) */
  private lends = false;

  /** `c`: the spec's compiled nodes, kept by the graph; `store`: the compile option's, when the run gives none */
  constructor(c: CompiledNodes, run: LeanRun, store: Store | undefined, router: typeof runBranches | undefined) {
    super(c, run, store);
    this.router = router;
  }

  /** Runs the input (already checked by the spec) through supersteps until no node is triggered. */
  start(input: Values): void | Promise<void> {
    const spec = this.c.spec;
    this.values = spec.init();
    this.lends = this.owned !== undefined;
    const t = new LeanTask(this, this.c.start, PULL, 0, input);
    // START's node is the identity and has static edges only: its writes are taken without running it
    // (loop.ts startStep); for an update object takeReturn cannot throw
    if (this.c.plainStart && typeof input === "object" && input !== null && !Array.isArray(input)) {
      takeReturn(t, input);
      return this.drive(this.finishStep([t]));
    }
    return this.drive([t]);
  }

  // ------------------------------------------------------------------------------------------------------
  // running a step's tasks: errors are recorded on the task, never thrown

  protected override runTasks(tasks: LeanTask[]): Promise<unknown> | undefined {
    this.lends = tasks.length === 1 && this.owned !== undefined;
    return super.runTasks(tasks);
  }

  /**
   * A task's return, settled under a loan of the owned list when its router's fresh read folds its writes
   * (writes.ts): with one task that is the step's result.
   */
  protected end(t: LeanTask, ret: unknown): Promise<unknown> | undefined {
    const lent = this.lends && t.cn.edges.branches.length > 0 && this.lend();
    try {
      takeReturn(t, ret);
      const r = this.router?.(t);
      if (r !== undefined) return r.then(undefined, (e: unknown) => this.fail(t, e));
    } catch (e) {
      this.fail(t, e);
    } finally {
      if (lent) this.mine = reclaim();
    }
    return undefined;
  }

  // ------------------------------------------------------------------------------------------------------
  // end of step (its writes: ../small-loop.ts apply)

  /** The next step's tasks: the triggered nodes in name order (PULL), then the step's Send packets (PUSH). */
  prepare(tasks: LeanTask[]): LeanTask[] {
    const values = this.values;
    if (tasks.length === 1) {
      // one task whose only successor is one static edge (a chain): no marks, no sort
      const t = tasks[0]!;
      const e = t.edgeTrig;
      if (t.trig === undefined && t.sends === undefined) {
        // the finished step's array (it is the loop's own, read by nobody once applied) holds the next task,
        // or none: a chain's last node ends the run without the marks and lists of a step of several
        if (e === undefined) return [];
        if (e.length === 1) {
          this.pullCount = 1;
          const n = e[0]!;
          tasks[0] = new LeanTask(this, n, PULL, 0, n.spec.read(values));
          return tasks;
        }
      }
    }
    const marked = (this.marked ??= new Uint8Array(this.c.nodes.length));
    const cands = (this.cands ??= []);
    let count = 0;
    let sends: Send[] | undefined;
    for (const t of tasks) {
      for (let pass = 0; pass < 2; pass++) {
        const ts = pass === 0 ? t.trig : t.edgeTrig;
        if (ts === undefined) continue;
        for (let i = 0; i < ts.length; i++) {
          const n = ts[i]!;
          if (marked[n.idx] === 0) {
            marked[n.idx] = 1;
            cands[count++] = n;
          }
        }
      }
      if (t.sends !== undefined) {
        if (sends === undefined) sends = t.sends.slice();
        else for (const s of t.sends) sends.push(s);
      }
    }
    const order = count > 1 ? cands.slice(0, count).sort(byRank) : cands;
    const next: LeanTask[] = [];
    for (let i = 0; i < count; i++) {
      const n = order[i]!;
      marked[n.idx] = 0;
      next.push(new LeanTask(this, n, PULL, i, n.spec.read(values)));
    }
    this.pullCount = count;
    if (sends !== undefined) {
      const byName = this.c.byName;
      for (let i = 0; i < sends.length; i++) next.push(new LeanTask(this, byName.get(sends[i]!.node)!, PUSH, i, sends[i]!.arg));
    }
    return next;
  }
}
