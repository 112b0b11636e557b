/**
 * What the runtime reads of a `Command` (LangGraph's Command, reference §1.9: what a node returns to update
 * state and route in one go, or what resumes a run), and the tests it makes of one. The class users make is
 * command-class.ts. `Send` lives in spec.ts because generated code constructs it; it is re-exported from
 * index.ts.
 */
import { Send } from "./spec.ts";
import type { Values } from "./spec.ts";

/** `[field, value]` pairs: the way one node writes the same field twice in one step. */
export type UpdateTuples = readonly (readonly [string, unknown])[];

export interface CommandArgs<R = unknown> {
  update?: Values | UpdateTuples;
  goto?: string | Send | readonly (string | Send)[];
  /** `Command.PARENT` sends the command to the graph that called this subgraph */
  graph?: string;
  resume?: R;
}

/** `Command.PARENT`: a Command for the graph that runs this one as a subgraph */
export const PARENT = "__parent__";

// A Command as the runtime reads it: the `Command` class users make (command-class.ts, whose constructor
// installs the code that runs one) and a Command the runtime makes itself (`commandOf`) both have this shape
// (line comments: the class carries the docs users read)
export interface Command<R = unknown> {
  readonly lg_name: "Command";
  readonly update: Values | UpdateTuples | undefined;
  readonly goto: readonly (string | Send)[];
  readonly graph: string | undefined;
  readonly resume: R | undefined;
}

/** A Command the runtime makes (a subgraph's PARENT Command rebuilt for its parent): no class, nothing installed. */
export function commandOf(update: Values | UpdateTuples | undefined, goto: readonly (string | Send)[]): Command {
  return { lg_name: "Command", update, goto, graph: undefined, resume: undefined };
}

/** Also true for a Command made by another copy of @graphc/runtime (a duplicated dependency), by its tag. */
export function isCommand(x: unknown): x is Command {
  // the tag alone, which every Command carries as an own field: no `instanceof`, since a plain update (the
  // common return) needed the tag test anyway, and a bundle that never makes a Command need not hold the class
  return typeof x === "object" && x !== null && (x as { lg_name?: unknown }).lg_name === "Command";
}

export function isSend(x: unknown): x is Send {
  return x instanceof Send || (typeof x === "object" && x !== null && (x as { lg_name?: unknown }).lg_name === "Send");
}

/** `goto` as a list, also for a Command from another copy of the runtime that did not normalise it */
export function gotoList(cmd: Command): readonly (string | Send)[] {
  const g = cmd.goto as unknown;
  return Array.isArray(g) ? (g as (string | Send)[]) : g === undefined || g === null ? [] : [g as string | Send];
}
