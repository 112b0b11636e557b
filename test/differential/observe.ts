/**
 * Runs one compiled graph (either runtime) and records what the differential test compares:
 * - the final state from `invoke`, or the error class it threw;
 * - the `stream(input, { streamMode: ["updates", "values"] })` sequence cut into supersteps. Every generated
 *   node writes at least one field and the root has no output schema, so every superstep ends with one
 *   "values" chunk; the "updates" chunks before it are that step's tasks, in completion order, which the two
 *   runtimes need not share — they are compared as a sorted multiset.
 */
import { canon } from "./behaviour.ts";

type Values = Record<string, unknown>;

export interface Runnable {
  invoke(input: Values, config?: Values): Promise<unknown>;
  stream(input: Values, config?: Values): AsyncIterable<unknown> | Promise<AsyncIterable<unknown>>;
}

export interface Step {
  /** canonical JSON of each `updates` chunk of the step, sorted */
  readonly updates: string[];
  /** canonical JSON of the `values` chunk that closed the step */
  readonly values: string;
}

export interface Observation {
  /** canonical JSON of invoke's result, or undefined when it threw */
  readonly final?: string;
  /** error class name (`err.name`) from invoke, if any */
  readonly invokeError?: string;
  /** complete supersteps streamed (the steps before an error included) */
  readonly steps: Step[];
  /** error class name from stream, if any */
  readonly streamError?: string;
}

/** Marks a superstep whose updates were not followed by a values chunk (it wrote nothing). */
const NO_VALUES = "<no values chunk>";

export function errorClass(e: unknown): string {
  if (e instanceof Error) return e.name;
  return `non-Error ${typeof e}`;
}

/**
 * With `invoke: false` the final state is the last `values` chunk (LangGraph's `invoke` is exactly that:
 * a "values" stream whose last chunk it returns), which halves the time spent in the reference runtime.
 */
export async function observe(
  g: Runnable,
  input: Values,
  recursionLimit: number,
  opts: { invoke: boolean } = { invoke: true },
): Promise<Observation> {
  let final: string | undefined;
  let invokeError: string | undefined;
  if (opts.invoke) {
    try {
      final = canon(await g.invoke(structuredClone(input), { recursionLimit }));
    } catch (e) {
      invokeError = errorClass(e);
    }
  }
  const steps: Step[] = [];
  let pending: string[] = [];
  let streamError: string | undefined;
  try {
    const it = await g.stream(structuredClone(input), { streamMode: ["updates", "values"], recursionLimit });
    for await (const chunk of it) {
      if (!Array.isArray(chunk) || chunk.length !== 2)
        throw new Error(`unexpected stream chunk ${canon(chunk)}`);
      const [mode, payload] = chunk as [string, unknown];
      if (mode === "updates") pending.push(canon(payload));
      else if (mode === "values") {
        steps.push({ updates: pending.sort(), values: canon(payload) });
        pending = [];
      } else throw new Error(`unexpected stream mode ${mode}`);
    }
    // updates after the last values chunk (a step that wrote nothing) are a step of their own
    if (pending.length > 0) steps.push({ updates: pending.sort(), values: NO_VALUES });
  } catch (e) {
    // the failing step's updates (those streamed before the error) are not compared: whether a task's
    // update is streamed before its sibling's failure is completion order, which the runtimes need not share
    streamError = errorClass(e);
  }
  if (!opts.invoke) {
    invokeError = streamError;
    // the last values chunk emitted (a final step that wrote nothing emits none)
    if (streamError === undefined)
      final = [...steps].reverse().find((s) => s.values !== NO_VALUES)?.values ?? canon(undefined);
  }
  return {
    ...(final !== undefined ? { final } : {}),
    ...(invokeError !== undefined ? { invokeError } : {}),
    steps,
    ...(streamError !== undefined ? { streamError } : {}),
  };
}
