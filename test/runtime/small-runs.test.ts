/**
 * A lean graph's small loop runs a Command given as input (runtime/small-command.ts, installed by
 * `installCommandInput`, which every `new Command` calls) and `maxConcurrency` itself, with the
 * full loop's results, errors and stream chunks: each case runs on the small loop and on the full loop (forced
 * by a tracer that records nothing: tracing is a run only the full graph takes) and the two must agree,
 * invoked and streamed in every mode. Static breakpoints stay the full graph's.
 */
import { describe, expect, it } from "vitest";
import {
  Command,
  GraphValueError,
  Send,
  StaticGraph,
  compileLeanGraph,
  type GraphSpec,
  type Values,
} from "../../runtime/core.ts";
import { features } from "../../runtime/features.ts";
import type { StreamMode } from "../../runtime/stream.ts";
import type { LevelTrace, Tracing } from "../../runtime/trace-hooks.ts";
import { countGraph } from "./both-loops.ts";
import { taggedCommand } from "./count-spec.ts";

const { node, spec } = countGraph("Opts");

const level: LevelTrace = {
  stepStart() {},
  stepEnd() {},
  taskStart() {},
  inTask: (_id, fn) => fn(),
  taskEnd() {},
  runEnd() {},
};
/** a tracer that records nothing: its only effect is that the run goes to the full graph */
const FULL: Tracing = { start: () => level };

const chain = spec([node("a", ["b"]), node("b", ["c"]), node("c", [])]);
/** b and c in one step, asynchronous: the order they start in shows the concurrency limit */
const started: string[] = [];
const slow = (name: string) => async () => {
  started.push(`${name}:start`);
  await new Promise((r) => setTimeout(r, 2));
  started.push(`${name}:end`);
  return { log: [name] };
};
const fan = spec([node("a", ["b", "c", "d"]), node("b", ["e"], { call: slow("b") }), node("c", ["e"], { call: slow("c") }), node("d", ["e"], { call: slow("d") }), node("e", [])]);

const MODES: (StreamMode | StreamMode[])[] = ["values", "updates", "tasks", "debug", ["values", "updates"]];

/** the outcome of a call: its result, or the error's class and message */
async function outcome(p: () => Promise<unknown>): Promise<unknown> {
  try {
    return { ok: await p() };
  } catch (e) {
    return { error: `${(e as Error).constructor.name}: ${(e as Error).message}` };
  }
}

/** a stream's chunks (ids by position, no timestamps), then its error */
async function chunks(g: StaticGraph, input: unknown, options: Record<string, unknown>): Promise<unknown> {
  return outcome(async () => {
    const out: unknown[] = [];
    for await (const c of g.stream(input as Values, options)) out.push(c);
    const ids = new Map<string, string>();
    const text = JSON.stringify(out, (k, v: unknown) => (k === "timestamp" ? "<time>" : v));
    return JSON.parse(text.replace(/[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}/g, (s) => ids.get(s) ?? (ids.set(s, `id${ids.size}`), `id${ids.size - 1}`)));
  });
}

/** invoke and every stream mode of `g` on the small loop and on the full loop agree; returns the invoke's outcome */
async function same(g: StaticGraph, input: unknown, options: Record<string, unknown> = {}): Promise<unknown> {
  expect(g.lean).toBe(true);
  const small = await outcome(() => g.invoke(input as Values, options));
  expect(small).toEqual(await outcome(() => g.invoke(input as Values, { ...options, tracing: FULL })));
  for (const streamMode of MODES) {
    const s = await chunks(g, input, { ...options, streamMode });
    expect(s, `streamMode ${JSON.stringify(streamMode)}`).toEqual(await chunks(g, input, { ...options, streamMode, tracing: FULL }));
  }
  return small;
}

describe("Command input and maxConcurrency on the small loops", () => {
  const graphs: [string, (s: GraphSpec, o?: object) => StaticGraph][] = [
    ["static loop", (s, o) => new StaticGraph(s, o)],
    ["lean loop", (s, o) => compileLeanGraph(s, o)],
  ];
  for (const [loop, make] of graphs) {
    it(`${loop}: a Command as input — update, goto, Sends; START's edges do not run`, async () => {
      const g = make(chain);
      expect(await same(g, new Command({ update: { count: 5 } }))).toEqual({ ok: { count: 5, log: [] } });
      expect(await same(g, new Command({ goto: "b" }))).toEqual({ ok: { count: 2, log: ["b", "c"] } });
      expect(await same(g, new Command({ update: { count: 1, log: ["x"] }, goto: "c" }))).toEqual({ ok: { count: 2, log: ["x", "c"] } });
      // two nodes that write `count` in one step: LangGraph's LastValue error, on both loops
      expect(await same(g, new Command({ goto: ["c", "b"] }))).toMatchObject({ error: expect.stringMatching(/LastValue can only receive one value/) });
      expect(await same(g, new Command({ goto: [new Send("c", { count: 40 })] }))).toEqual({ ok: { count: 41, log: ["c"] } });
      // a goto past the recursion limit counts the Command's step as the input's
      expect(await same(g, new Command({ goto: "a" }), { recursionLimit: 2 })).toMatchObject({ error: expect.stringMatching(/^GraphRecursionError/) });
    });

    it(`${loop}: a Command as input — the errors of the full loop`, async () => {
      const g = make(chain);
      expect(await same(g, new Command({ resume: "x" }))).toEqual({
        error: "GraphValueError: Cannot use Command(resume=...) without checkpointer",
      });
      expect(await same(g, new Command({}))).toEqual({ error: "EmptyInputError: Received empty Command input" });
      expect(await same(g, new Command({ graph: Command.PARENT, goto: "a" }))).toMatchObject({ error: expect.stringMatching(/no parent graph/) });
      expect(await same(g, new Command({ goto: "nope" }))).toMatchObject({ error: expect.stringMatching(/names unknown node "nope"/) });
      expect(await same(g, new Command({ update: { nope: 1 } }))).toMatchObject({ error: expect.stringMatching(/unknown field "nope"/) });
    });

    it(`${loop}: maxConcurrency runs a step's tasks at most that many at once`, async () => {
      const g = make(fan);
      for (const limit of [1, 2, 0]) {
        started.length = 0;
        expect(await outcome(() => g.invoke({ count: 0 }, { maxConcurrency: limit }))).toEqual({ ok: { count: 2, log: ["a", "b", "c", "d", "e"] } });
        const small = started.slice();
        started.length = 0;
        await g.invoke({ count: 0 }, { maxConcurrency: limit, tracing: FULL });
        expect(small, `maxConcurrency ${limit}`).toEqual(started);
      }
      started.length = 0;
      await g.invoke({ count: 0 }, { maxConcurrency: 1 });
      expect(started).toEqual(["b:start", "b:end", "c:start", "c:end", "d:start", "d:end"]);
      expect(await same(g, { count: 0 }, { maxConcurrency: 2 })).toEqual({ ok: { count: 2, log: ["a", "b", "c", "d", "e"] } });
    });
  }

  it("breakpoints run on the full graph; without it installed they fail naming the import, as Command input without its part", async () => {
    const g = new StaticGraph(chain);
    expect(await g.invoke({ count: 0 }, { interruptBefore: ["b"] })).toEqual({ count: 1, log: ["a"], __interrupt__: [] });
    const saved = { ...features };
    try {
      delete features.graph;
      await expect(new StaticGraph(chain).invoke({ count: 0 }, { interruptAfter: ["a"] })).rejects.toThrow(
        /interruptBefore\/interruptAfter needs a part of the runtime.*"@graphc\/runtime"/,
      );
      expect(() => new StaticGraph(chain, { interruptBefore: ["b"] })).toThrow(GraphValueError);
      // a Command that is not graphc's class installs nothing; `new Command` installs what runs it
      delete features.smallInput;
      await expect(new StaticGraph(chain).invoke(taggedCommand({ goto: ["c"] }))).rejects.toThrow(/A Command as input needs a part of the runtime/);
      expect(await new StaticGraph(chain).invoke(new Command({ goto: "c" }))).toEqual({ count: 1, log: ["c"] });
      // maxConcurrency is the small loop's own
      expect(await new StaticGraph(chain).invoke({ count: 0 }, { maxConcurrency: 1 })).toEqual({ count: 3, log: ["a", "b", "c"] });
    } finally {
      Object.assign(features, saved);
    }
  });
});
