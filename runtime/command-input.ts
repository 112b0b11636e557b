/**
 * A `Command` given as `invoke` input (reference §1.9, §1.12): resume values (checked against the thread),
 * then its update and goto, applied before the pending tasks run. Installed by "@graphc/runtime" and with
 * checkpointing (install.ts); a resume needs a saver, so it continues through the durable hooks (`run.d`).
 */
import { setTrigger } from "./channels.ts";
import type { Command } from "./command.ts";
import { InvalidResumeError } from "./errors.ts";
import { NULL_TASK_ID, isInterruptId } from "./ids.ts";
import type { Loop, LoopTask } from "./loop.ts";
import { PULL, Task } from "./task.ts";
import { checkCommandInput, checkInputUpdate } from "./small-command.ts";
import { processCommand } from "./writes.ts";
import { isRecord } from "./objects.ts";

/** A Command given as `invoke` input: resume values, then its update and goto, applied before the pending tasks run. */
export function takeCommand(loop: Loop, input: Command): void | Promise<unknown> {
  const hasResume = checkCommandInput(input, loop.site(), loop.run.saver !== undefined);
  if (hasResume && loop.isRoot) {
    const r = input.resume;
    const map = resumeMap(loop, r);
    if (map) loop.run.resume.map = map;
    else {
      loop.run.resume.hasValue = true;
      loop.run.resume.value = r;
    }
  }
  const nul = new Task(loop, loop.c.start, PULL, 0, undefined, "__input__", -1);
  processCommand(nul, input, checkInputUpdate);
  if (nul.updates || nul.trig || nul.sends) {
    applyNull(loop, nul);
    const d = loop.run.d;
    if (d !== undefined) d.putWritesRaw(loop, NULL_TASK_ID, d.flatWrites(loop, nul));
  }
  // a resume needs a saver (checked above), so the durable part is there
  if (hasResume) return loop.run.d!.beginResume(loop);
  loop.armed = false;
  loop.emitValues();
  return loop.putCheckpoint("input");
}

/**
 * Checks a root `Command({ resume })` against the thread (graphc's rule; LangGraph delivers whatever it
 * gets): the thread must have something to resume (a checkpoint with tasks left to run), a resume map's ids
 * must all be pending interrupts, and a plain value is ambiguous when several interrupts are pending.
 * A map is recognised as LangGraph does (an object whose keys all look like interrupt ids); an object that
 * mixes such keys with others is an error rather than a value. Returns the map (a null-prototype copy), or
 * undefined for a plain value.
 */
function resumeMap(loop: Loop, r: unknown): Record<string, unknown> | undefined {
  const thread = JSON.stringify(loop.run.threadId ?? "");
  const site = loop.site();
  if (!loop.cp!.hasCheckpoint)
    throw new InvalidResumeError(`Cannot resume thread ${thread} of graph "${loop.c.spec.name}": it has never run`, site);
  if (loop.prepare().length === 0)
    throw new InvalidResumeError(`Cannot resume thread ${thread} of graph "${loop.c.spec.name}": it has finished (nothing is pending)`, site);
  const pending = pendingInterruptIds(loop);
  const keys = isRecord(r) ? Object.keys(r) : [];
  const ids = keys.filter(isInterruptId);
  if (ids.length === 0) {
    if (pending.length > 1)
      throw new InvalidResumeError(
        `Thread ${thread} of graph "${loop.c.spec.name}" has ${pending.length} pending interrupts: resume them by id, with Command({ resume: { [id]: value } })`,
        site,
        pending,
      );
    return undefined;
  }
  const unknown = keys.filter((k) => !isInterruptId(k) || !pending.includes(k));
  if (unknown.length > 0)
    throw new InvalidResumeError(
      `Resume map for thread ${thread} of graph "${loop.c.spec.name}" names ${unknown.map((k) => JSON.stringify(k)).join(", ")}, which ${unknown.length === 1 ? "is not a pending interrupt id" : "are not pending interrupt ids"} (pending: ${pending.join(", ") || "none"})`,
      site,
      unknown,
    );
  const map: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const k of keys) map[k] = (r as Record<string, unknown>)[k];
  return map;
}

/** The ids of the dynamic interrupts saved with the loaded checkpoint (its `__interrupt__` pending writes). */
function pendingInterruptIds(loop: Loop): string[] {
  const ids: string[] = [];
  for (const [, ch, v] of loop.cp!.pending) {
    if (ch !== "__interrupt__" || !Array.isArray(v)) continue;
    for (const i of v as { id?: unknown }[]) if (typeof i?.id === "string" && !ids.includes(i.id)) ids.push(i.id);
  }
  return ids;
}

/** Writes given with a Command input (task id NULL_TASK_ID): applied before the pending tasks run. */
export function applyNull(loop: Loop, t: LoopTask): void {
  // versions are kept only with a checkpointer; without one there is no checkpoint state (LangGraph runs
  // such a Command from an empty checkpoint)
  const cp = loop.durable ? loop.cp! : undefined;
  const values = loop.values;
  const written = t.updates ? loop.c.spec.apply(values, t.updates) : [];
  const v = cp !== undefined ? ++cp.maxV : 0;
  if (cp !== undefined) for (const f of written) cp.versions[f] = v;
  if (written.length > 0) loop.sawOutput = true;
  if (t.trig) {
    for (const n of t.trig) {
      setTrigger(loop.ch, n);
      if (cp !== undefined) cp.versions[n.triggerKey] = v;
    }
  }
  if (t.sends) loop.ch.sends = loop.ch.sends.concat(t.sends);
  loop.ch.scanAll = true;
  loop.tasks = undefined;
}

