/**
 * A `Command` given as input to a lean graph, run on its small loop (small-loop.ts) as the full loop runs it
 * without a checkpointer: its update and goto applied as the input's writes (a resume needs a saver).
 * Installed by `installCommandInput` (install.ts), which every `new Command`, "@graphc/runtime" and a saver
 * call; a program that never makes a Command and imports neither carries none of it.
 */
import { PARENT, gotoList, type Command } from "./command.ts";
import { commandStep } from "./static/commands.ts";
import { EmptyInputError, GraphValueError, noParent, type ErrorSite } from "./errors.ts";
import { LeanTask, PULL } from "./lean/task.ts";
import type { SmallLoop } from "./small-loop.ts";
import type { Values } from "./spec.ts";
import { cannotWrite } from "./spec-errors.ts";
import { processCommand, type WriteTask } from "./writes.ts";

/**
 * The update of a Command given as input has no node whose `check` applies: the graph's `checkUpdate`
 * checks it, or else every key must be one that the graph's `apply` writes (tried on a copy of the state).
 */
export function checkInputUpdate(t: WriteTask, u: Values): void {
  const spec = t.loop.c.spec;
  if (spec.checkUpdate) return spec.checkUpdate(u);
  const written = spec.apply({ ...t.loop.values }, [{ node: t.cn.name, values: u }]);
  for (const k of Object.keys(u)) if (!written.includes(k)) cannotWrite(spec.name, undefined, k, "");
}

/**
 * The checks of a Command given as input (LangGraph's): not for a parent graph, a resume only with a saver,
 * not empty. Returns whether it resumes.
 */
export function checkCommandInput(input: Command, site: ErrorSite, saver: boolean): boolean {
  if (input.graph === PARENT) throw noParent(site);
  const resumes = input.resume !== undefined && input.resume !== null;
  if (resumes && !saver) throw new GraphValueError("Cannot use Command(resume=...) without checkpointer", site);
  if (!resumes && input.update === undefined && gotoList(input).length === 0) throw new EmptyInputError("Received empty Command input", site);
  return resumes;
}

/**
 * Starts a small run from a Command (command-input.ts `takeCommand` without a saver): its update is applied
 * as the input's writes, its goto and Sends are the first step's tasks (START's own edges do not run).
 */
export function startCommand(loop: SmallLoop, input: Command): void | Promise<void> {
  checkCommandInput(input, loop.site(), false);
  const spec = loop.c.spec;
  const values = (loop.values = spec.init());
  // START's writes, without its static targets (command-input.ts applyNull)
  const t = new LeanTask(loop, { ...loop.c.start, targets: [] }, PULL, 0, undefined);
  processCommand(t, input, checkInputUpdate);
  if (t.updates !== undefined && spec.apply(values, t.updates).length > 0) loop.sawOutput = true;
  loop.sink?.ev.emitValues(loop);
  // the Command's writes are the input's (the full loop's step -1): its tasks run at step 0, one step before a
  // plain input's first nodes (which START's step precedes), and that step counts towards the limit as theirs
  loop.step = 0;
  return loop.drive(commandStep.call(loop, [t]));
}
