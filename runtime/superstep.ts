/**
 * The parts of a superstep that the full loop (loop.ts) and the lean loop (lean/loop.ts) share, so that
 * both apply a step's writes, count output fields and check the recursion limit the same way (one copy in
 * the package, one place to change).
 */
import type { CompiledNodes } from "./compiled.ts";
import { GraphValueError, MultipleErrors } from "./errors.ts";
import type { GraphSpec, TaskUpdate, Values } from "./spec.ts";
import type { FreshRead } from "./task.ts";

const NONE: readonly string[] = [];

/** What `applyUpdates` reads of a task. */
interface UpdatingTask {
  readonly cn: { readonly name: string };
  /** the task's only update, bare, while nothing asked for `updates` (task.ts, lean/task.ts) */
  readonly one: Values | undefined;
  readonly updates: TaskUpdate[] | undefined;
  readonly fresh: FreshRead | undefined;
}

/**
 * Applies a step's updates to `values` in place, in LangGraph's order (the tasks are sorted: PULL by name,
 * then PUSH by index); returns the fields written, or undefined when `want` is false and a lone bare update
 * was applied (`applyOne`: no list, no wrapper, no names).
 */
export function applyUpdates(tasks: readonly UpdatingTask[], values: Values, spec: GraphSpec, want: boolean): readonly string[] | undefined {
  const lone = tasks.length === 1 ? tasks[0]! : undefined;
  if (lone?.one !== undefined) return applyBare(spec, values, lone.one, lone.cn.name, want);
  // one reused buffer of the step's updates: a single writing task's own list is used as it is
  let all: TaskUpdate[] | undefined;
  let shared = false;
  let owner: UpdatingTask | undefined;
  for (const t of tasks) {
    const one = t.one;
    if (one !== undefined) {
      // a bare update joins the step's list without a list of its own
      if (shared) {
        all = all!.slice();
        shared = false;
      }
      (all ??= []).push({ node: t.cn.name, values: one });
      continue;
    }
    const us = t.updates;
    if (us === undefined) continue;
    if (all === undefined) {
      all = us;
      shared = true;
      owner = t;
    } else {
      if (shared) {
        all = all.slice();
        shared = false;
      }
      for (let i = 0; i < us.length; i++) all.push(us[i]!);
    }
  }
  const fresh = shared ? owner!.fresh : undefined;
  if (fresh !== undefined && fresh.updates === all && fresh.count === all.length) {
    // one task wrote this step and its routers already folded its updates into a copy of this state
    const written = fresh.written;
    for (let i = 0; i < written.length; i++) values[written[i]!] = fresh.values[written[i]!];
    return written;
  }
  return all === undefined ? NONE : spec.apply(values, all);
}

/** One update applied without a list (the spec's `applyOne`, when it has one); the fields written when `want`. */
export function applyBare(spec: GraphSpec, values: Values, u: Values, node: string, want: boolean): readonly string[] | undefined {
  if (!spec.applyOne) return spec.apply(values, [{ node, values: u }]);
  const written = want ? [] : undefined;
  spec.applyOne(values, u, written);
  return written;
}

/** Whether `written` holds an output field (every field is one when the graph declares no output). */
export function writesOutput(c: CompiledNodes, written: readonly string[]): boolean {
  const of = c.outputFields;
  if (of === undefined) return written.length > 0;
  for (const f of written) if (of.has(f)) return true;
  return false;
}

/** A run's recursion limit: the call's, else the graph's, else LangGraph's 25. */
export function recursionLimit(run: number | undefined, spec: GraphSpec): number {
  const limit = run ?? spec.recursionLimit ?? 25;
  if (!(limit >= 1)) throw new GraphValueError('Passed "recursionLimit" must be at least 1.', { graph: spec.name });
  return limit;
}

/**
 * The error a failed step throws, from its genuine failures (`errors`, in task order; both loops' stepError
 * pick them): one as it is, several as `MultipleErrors`; none (only aborted siblings) the first task error.
 */
export function stepFailure(tasks: readonly { readonly error: unknown }[], errors: unknown[] | undefined, graph: string, step: number): unknown {
  if (errors === undefined) return tasks.find((t) => t.error !== undefined)!.error;
  return errors.length === 1 ? errors[0] : new MultipleErrors(graph, step, errors);
}
