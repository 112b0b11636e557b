/**
 * The static loop: LangGraph's semantics for a graph whose schedule follows from its static edges alone — no
 * routers, no node that may return a Command (none declares `goto`), no joins, breakpoints, deferred,
 * subgraph or policy nodes (static/graph.ts checks the spec). Step k+1 runs the static targets of step k's
 * nodes, in name order; a cycle runs until the recursion limit, as in LangGraph. A node's return is a
 * checked update or nothing, so the loop carries none of the writes of Commands, Sends and routers
 * (writes.ts) nor the lean loop's candidate marks; the rest (tasks, errors, signal, limit) is the lean
 * loop's (../small-loop.ts). A Command gets past a node's type only from an untyped (`any`) function or a
 * cast: such a return, and the step it ends, are read by the lean loop's code (features.ts `leanWrites`,
 * installed with Command input by "@graphc/runtime" or a saver), so the run goes on exactly as on the lean loop.
 */
import { isCommand } from "../command.ts";
import { badNodeReturn, missingPart } from "../errors.ts";
import { features } from "../features.ts";
import type { Values } from "../spec.ts";
import { LeanTask, PULL } from "../lean/task.ts";
import { SmallLoop } from "../small-loop.ts";

export class StaticLoop extends SmallLoop {
  /** a task of this step returned a Command or a list: the lean loop's code makes the next step */
  declare private handed: boolean | undefined;

  /** Runs the input (already checked by the spec, a fresh object: START's update) through supersteps. */
  start(input: Values): void | Promise<void> {
    this.values = this.c.spec.init();
    // START's step applies the input and triggers START's static targets (lean/loop.ts start); its task is
    // what the step's end reads of one (nothing in it runs or fails): a LeanTask cost W5 ~1% instructions
    return this.drive(this.finishStep([{ one: input, cn: this.c.start } as LeanTask]));
  }

  /**
   * A node's return as its task's update (writes.ts takeReturn, for a node whose type returns no Command): an
   * update object, checked, or nothing; a Command or a list goes to the lean loop's code.
   */
  protected end(t: LeanTask, ret: unknown): undefined {
    try {
      if (ret !== null && ret !== undefined) {
        const cn = t.cn;
        if (typeof ret !== "object") throw badNodeReturn(this.c.spec.name, cn.name, ret);
        if (Array.isArray(ret) || isCommand(ret)) {
          const lean = features.leanWrites;
          if (lean === undefined) throw missingPart(`A Command or a list returned by node "${cn.name}"`, { graph: this.c.spec.name, node: cn.name });
          lean.settle(t, ret);
          this.handed = true;
        } else {
          // an update with keys of its prototype is copied to its own keys first (writes.ts ownKeys; a null
          // prototype's too). `constructor` is read first: that load tells the optimiser the object's shape, so
          // that getPrototypeOf folds to a constant (W5 with W1 run before: −4% instructions)
          const u = (ret as Values).constructor && Object.getPrototypeOf(ret) === Object.prototype ? (ret as Values) : { ...(ret as Values) };
          cn.spec.check(u);
          t.one = u;
        }
      }
    } catch (e) {
      return this.fail(t, e);
    }
    // a stream's `updates`/`tasks` chunks
    this.sink?.ev.emitTaskDone(this, t, false);
  }

  /** The next step's tasks: the static targets of this step's nodes, each once, in name order. */
  protected prepare(tasks: LeanTask[]): LeanTask[] {
    if (this.handed) {
      this.handed = false;
      return features.leanWrites!.prepare.call(this, tasks);
    }
    const next = tasks.length === 1 ? tasks[0]!.cn.targets : [...new Set(tasks.flatMap((t) => t.cn.targets))];
    if (next.length === 1 && tasks.length === 1) {
      // a chain: the finished step's array (the loop's own, read by nobody once applied) holds the next task
      this.pullCount = 1;
      tasks[0] = new LeanTask(this, next[0]!, PULL, 0, next[0]!.spec.read(this.values));
      return tasks;
    }
    return this.pulls(next);
  }
}
