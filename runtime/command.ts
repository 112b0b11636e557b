/**
 * `Command`: what a node returns to update state and route in one go (LangGraph's Command, reference §1.9).
 * `Send` lives in spec.ts because generated code constructs it; it is re-exported from index.ts.
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

export class Command<R = unknown> {
  readonly lg_name = "Command";
  // reference §8 C-39
  /** LangGraph's constant; the literal "PARENT" is not it */
  static readonly PARENT = "__parent__";
  readonly update: Values | UpdateTuples | undefined;
  readonly goto: readonly (string | Send)[];
  readonly graph: string | undefined;
  readonly resume: R | undefined;

  constructor(args: CommandArgs<R>) {
    this.update = args.update;
    const g = args.goto;
    this.goto = g === undefined ? [] : Array.isArray(g) ? (g as readonly (string | Send)[]) : [g as string | Send];
    this.graph = args.graph;
    this.resume = args.resume;
  }
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
