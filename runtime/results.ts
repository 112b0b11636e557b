/**
 * Shapes of task results: stream payloads (`updates`, `tasks`), pending-write values, LangGraph's task
 * listing order.
 */
import type { CNode } from "./compiled.ts";
import { Overwrite, RemoveMessage } from "./reducers.ts";
import type { TaskUpdate, Values } from "./spec.ts";
import type { Task } from "./task.ts";

/** class instances the runtime knows, as plain data a saver can store (and `isOverwrite`/`messages` accept) */
export function toWire(v: unknown): unknown {
  if (v instanceof Overwrite) return { __overwrite__: v.value };
  if (v instanceof RemoveMessage) return { type: "remove", role: "remove", id: v.id };
  if (Array.isArray(v) && v.some((x) => x instanceof RemoveMessage || x instanceof Overwrite)) return v.map(toWire);
  return v;
}

/** LangGraph lists a step's Send (PUSH) tasks before its node (PULL) tasks */
export function langGraphOrder<T>(tasks: readonly T[], pullCount: number): T[] {
  return pullCount === 0 || pullCount === tasks.length
    ? tasks.slice()
    : tasks.slice(pullCount).concat(tasks.slice(0, pullCount));
}

export function allTrig(t: Task): CNode[] | undefined {
  if (!t.edgeTrig) return t.trig;
  return t.trig ? t.trig.concat(t.edgeTrig) : t.edgeTrig.slice();
}

/** `updates` payload of one task: its update, `{}`, or a list when a field was written twice (reference §6) */
export function taskUpdate(updates: readonly TaskUpdate[] | undefined): unknown {
  if (!updates || updates.length === 0) return {};
  if (updates.length === 1) return updates[0]!.values;
  const seen = new Set<string>();
  let repeated = false;
  for (const u of updates)
    for (const k of Object.keys(u.values)) {
      if (seen.has(k)) repeated = true;
      seen.add(k);
    }
  if (repeated) return updates.flatMap((u) => Object.keys(u.values).map((k) => ({ [k]: u.values[k] })));
  return Object.assign({}, ...updates.map((u) => u.values)) as Values;
}

/** `tasks` result: the written fields, `{$writes: [...]}` for a field written more than once */
export function taskResult(updates: readonly TaskUpdate[] | undefined): Values {
  const out: Values = {};
  const multi = new Set<string>();
  if (updates)
    for (const u of updates)
      for (const k of Object.keys(u.values)) {
        if (k in out) {
          if (!multi.has(k)) {
            out[k] = { $writes: [out[k]] };
            multi.add(k);
          }
          (out[k] as { $writes: unknown[] }).$writes.push(u.values[k]);
        } else out[k] = u.values[k];
      }
  return out;
}
