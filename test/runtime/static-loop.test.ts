/**
 * The static loop (runtime/static/) through "@graphc/runtime/core": a `StaticGraph` of static edges whose
 * nodes declare no goto runs its invoke on it and agrees with the full loop (results, write order of a
 * step of several tasks, sync and async nodes, errors of parallel tasks, the recursion limit of a cycle,
 * abort); a Command from such a node is read as the lean loop reads it once installed (else an error naming
 * the import); a spec it cannot run (routers,
 * goto targets) is handed over like the lean graph's. Imports "@graphc/runtime/core" only (nothing installed).
 */
import { describe, expect, it } from "vitest";
import {
  Command,
  GraphAbortError,
  GraphRecursionError,
  MultipleErrors,
  Send,
  StaticGraph,
  compileGraph,
  type GraphSpec,
  type NodeContext,
  type NodeSpec,
  type Values,
} from "../../runtime/core.ts";
import { features } from "../../runtime/features.ts";
import { countApplyOne, countNode, countSpec, taggedCommand } from "./count-spec.ts";

const node = (name: string, edges: string[], extra: Partial<NodeSpec> = {}): NodeSpec => countNode("Static", name, edges, extra);
/** a static spec has `applyOne` (generated code always gives one) */
const spec = (nodes: NodeSpec[], extra: Partial<GraphSpec> = {}): GraphSpec => countSpec("Static", nodes, { applyOne: countApplyOne, ...extra });

/** the outcome of an invoke: its result, or the error's class, message and (MultipleErrors) inner messages */
async function outcome(p: Promise<unknown>): Promise<unknown> {
  try {
    return { ok: await p };
  } catch (e) {
    const errors = e instanceof MultipleErrors ? e.errors.map((x) => (x as Error).message) : undefined;
    return { error: (e as Error).constructor.name, message: (e as Error).message, errors };
  }
}

async function same(s: GraphSpec, input: Values, config?: object): Promise<unknown> {
  const mine = await outcome(new StaticGraph(s).invoke(input, config));
  expect(mine).toEqual(await outcome(compileGraph(s).invoke(input, config)));
  return mine;
}

const fail = (message: string) => () => {
  throw new Error(message);
};

describe("static loop", () => {
  it("runs chains, fan-outs and fan-ins as the full loop (write order by name, sync and async nodes)", async () => {
    expect(await same(spec([node("a", ["b"]), node("b", [])]), { count: 0 })).toEqual({ ok: { count: 2, log: ["a", "b"] } });
    const fan = spec([
      node("a", ["c", "b"]),
      node("b", ["d"], { call: () => ({ log: ["b"] }) }),
      node("c", ["d"], { call: async () => ({ log: ["c"] }) }),
      node("d", [], { call: async (input) => ({ count: (input as { count: number }).count + 10, log: ["d"] }) }),
    ]);
    expect(await same(fan, { count: 0 })).toEqual({ ok: { count: 11, log: ["a", "b", "c", "d"] } });
    // two tasks writing the replaced field in one step: LangGraph's LastValue error
    const clash = spec([node("a", ["b", "c"]), node("b", []), node("c", [])]);
    expect(await same(clash, { count: 0 })).toMatchObject({ error: "InvalidUpdateError" });
  });

  it("counts a cycle's steps against the recursion limit as the full loop", async () => {
    const cycle = spec([node("a", ["b"]), node("b", ["a"])]);
    const r = await same(cycle, { count: 0 }, { recursionLimit: 5 });
    expect(r).toMatchObject({ error: "GraphRecursionError" });
    await expect(new StaticGraph(cycle).invoke({ count: 0 })).rejects.toBeInstanceOf(GraphRecursionError);
  });

  it("fails a step as the full loop: one failure bare, several at once aggregated, a bad update typed", async () => {
    const one = spec([node("a", ["b", "c"]), node("b", [], { call: fail("b broke") }), node("c", [])]);
    expect(await same(one, { count: 0 })).toMatchObject({ error: "NodeError", message: expect.stringContaining("b broke") });
    const two = spec([node("a", ["b", "c"]), node("b", [], { call: fail("b broke") }), node("c", [], { call: async () => fail("c broke")() })]);
    expect(await same(two, { count: 0 })).toMatchObject({ error: "MultipleErrors" });
    const bad = spec([node("a", [], { call: () => ({ nope: 1 }) })]);
    expect(await same(bad, { count: 0 })).toMatchObject({ error: "InvalidUpdateError", message: 'node "a" cannot write nope' });
    const number = spec([node("a", [], { call: () => 5 })]);
    expect(await same(number, { count: 0 })).toMatchObject({ error: "InvalidUpdateError" });
    // an update whose prototype holds keys is read by its own keys only
    const proto = spec([node("a", [], { call: () => Object.assign(Object.create({ nope: 1 }) as Values, { count: 7 }) })]);
    expect(await same(proto, { count: 0 })).toEqual({ ok: { count: 7, log: [] } });
    // a field its prototype holds is not written, a class's getter neither; a null prototype's own keys are
    const inherited = spec([node("a", [], { call: () => Object.assign(Object.create({ count: 3 }) as Values, { log: ["x"] }) })]);
    expect(await same(inherited, { count: 0 })).toEqual({ ok: { count: 0, log: ["x"] } });
    class Update {
      log = ["y"];
      get count(): number {
        return 9;
      }
    }
    expect(await same(spec([node("a", [], { call: () => new Update() })]), { count: 0 })).toEqual({ ok: { count: 0, log: ["y"] } });
    const bare = spec([node("a", [], { call: () => Object.assign(Object.create(null) as Values, { count: 4 }) })]);
    expect(await same(bare, { count: 0 })).toEqual({ ok: { count: 4, log: [] } });
    // an own `constructor` key is an unknown field, whatever its value
    const ctor = spec([node("a", [], { call: () => ({ constructor: Object, count: 1 }) })]);
    expect(await same(ctor, { count: 0 })).toMatchObject({ error: "InvalidUpdateError", message: 'node "a" cannot write constructor' });
  });

  it("gives each task a uuid-shaped id in its namespace, the same on every read, distinct between tasks and runs", async () => {
    const seen: string[] = [];
    const read = (name: string) => (input: unknown, ctx: NodeContext) => {
      const [segment] = ctx.namespace;
      expect(ctx.namespace).toEqual([segment]);
      expect(segment!.startsWith(`${name}:`)).toBe(true);
      seen.push(segment!.slice(name.length + 1));
      return { count: (input as { count: number }).count + 1 };
    };
    const s = spec([node("a", ["b", "c"], { call: read("a") }), node("b", [], { call: read("b") }), node("c", [], { call: read("c") })]);
    await new StaticGraph(s).invoke({ count: 0 }).catch(() => undefined);
    await new StaticGraph(spec([node("a", [], { call: read("a") })])).invoke({ count: 0 });
    expect(seen).toHaveLength(4);
    for (const id of seen) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(seen).size).toBe(4);
  });

  it("stops at the run's abort signal with GraphAbortError", async () => {
    const ctl = new AbortController();
    const slow = spec([
      node("a", ["b"], {
        call: async (input) => {
          ctl.abort(new Error("stop"));
          return { count: (input as { count: number }).count + 1 };
        },
      }),
      node("b", []),
    ]);
    await expect(new StaticGraph(slow).invoke({ count: 0 }, { signal: ctl.signal })).rejects.toBeInstanceOf(GraphAbortError);
  });

  it("reads a Command or a list that a node returns after all (a cast) as the lean loop does, once installed", async () => {
    // a Command that is not graphc's class (LangGraph.js's) installs nothing: without "@graphc/runtime"
    // (nothing is installed here) the static loop names the import
    const tagged = spec([node("a", ["b"], { call: () => taggedCommand({ goto: ["c"] }) }), node("b", []), node("c", [])]);
    await expect(new StaticGraph(tagged).invoke({ count: 0 })).rejects.toThrow(
      'A Command or a list returned by node "a" needs a part of the runtime that is not loaded: import "@graphc/runtime" once',
    );
    // `new Command` installs Command input, with a static graph's Commands (command-class.ts)
    // goto to a node with no static edge to it, a Send, a list of Commands and updates, a static edge after
    const nodes = [
      node("a", ["b"], { call: () => [new Command({ update: { log: ["cmd"] }, goto: "c" }), { count: 5 }] }),
      node("b", [], { call: () => new Command({ update: { count: 7 }, goto: [new Send("d", { count: 1 })] }) }),
      node("c", [], { call: () => ({ log: ["c"] }) }),
      node("d", []),
    ];
    const cmd = spec(nodes);
    try {
      expect(features.leanWrites).toBeUndefined();
      const r = await same(cmd, { count: 0 });
      expect(r).toEqual({ ok: { count: 2, log: ["cmd", "c", "d"] } });
      // a step of several: one task's goto and Sends beside its siblings' static targets (PULL by name, then PUSH)
      const fan = spec([
        node("a", ["c", "b"]),
        node("b", ["d"], { call: () => new Command({ goto: [new Send("e", { count: 7 }), "c", new Send("d", { count: 1 })] }) }),
        node("c", ["e"], { call: async () => ({ log: ["c"] }) }),
        node("d", [], { call: (input) => ({ log: [`d${(input as { count: number }).count}`] }) }),
        node("e", [], { call: (input) => ({ log: [`e${(input as { count: number }).count}`] }) }),
      ]);
      expect(await same(fan, { count: 0 })).toEqual({ ok: { count: 1, log: ["a", "c", "c", "d1", "e1", "e7", "d1", "e1"] } });
      // a list without a Command is a bad return, as on the lean loop
      await same(spec([node("a", [], { call: () => [{ count: 1 }] })]), { count: 0 });
    } finally {
      delete features.leanWrites;
      delete features.input;
      delete features.graph;
    }
  });

  it("hands a spec it cannot run (routers, goto targets) to the full graph, which is not installed here", async () => {
    for (const s of [spec([node("a", [], { branches: [() => "__end__"] })]), spec([node("a", [], { ends: [] })])]) {
      await expect(new StaticGraph(s).invoke({ count: 0 })).rejects.toThrow(/needs a part of the runtime that is not loaded/);
    }
  });
});
