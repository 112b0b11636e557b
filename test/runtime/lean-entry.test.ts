/**
 * The lean loop (runtime/lean/) through "@graphc/runtime/core" (what lean mode imports), which installs
 * nothing: `invoke` of a lean-eligible graph runs on it and agrees with the full loop (results, errors,
 * recursion limit, abort, vars, routers, Sends); what it hands over (stream(), a Command as input, the state
 * API, a spec it cannot run) fails with a GraphValueError naming the import until that import is there, then
 * works; a saver given in the config runs durably (constructing one of graphc's savers installs it). This
 * file must not import "@graphc/runtime" statically (that entry installs everything), and its tests run in
 * order: the first ones see nothing installed.
 */
import { describe, expect, it } from "vitest";
import {
  Command,
  GraphAbortError,
  GraphRecursionError,
  GraphValueError,
  InvalidUpdateError,
  LeanGraph,
  MultipleErrors,
  NodeError,
  Send,
  compileGraph,
  compileLeanGraph,
  type GraphSpec,
  type NodeSpec,
  type Values,
} from "../../runtime/core.ts";
import { countNode, countSpec, taggedCommand } from "./count-spec.ts";
import { features } from "../../runtime/features.ts";

const node = (name: string, edges: string[], extra: Partial<NodeSpec> = {}): NodeSpec => countNode("Lean", name, edges, extra);
const spec = (nodes: NodeSpec[], extra: Partial<GraphSpec> = {}): GraphSpec => countSpec("Lean", nodes, extra);

const chain = spec([node("a", ["b"]), node("b", [])]);
/** a router loop: `a` until count reaches 3, through the fresh read of its own update */
const loop = spec([
  node("a", [], { branches: [(fresh) => ((fresh["count"] as number) < 3 ? "a" : "b")] }),
  node("b", []),
]);
/** fan-out: b and c in one step (their writes in name order), then d */
const fan = spec([
  node("a", ["c", "b"]),
  node("b", ["d"], { call: () => ({ log: ["b"] }) }),
  node("c", ["d"], { call: async () => ({ log: ["c"] }) }),
  node("d", []),
]);
/** a Send branch and a Command return with goto */
const sends = spec([
  node("a", [], { branches: [() => [new Send("b", { count: 10 }), new Send("b", { count: 20 })]] }),
  node("b", [], { call: (input) => new Command({ update: { log: [`b${(input as { count: number }).count}`] }, goto: "c" }) }),
  node("c", []),
]);

/** the outcome of an invoke: its result, or the error's class and message */
async function outcome(p: Promise<unknown>): Promise<unknown> {
  try {
    return { ok: await p };
  } catch (e) {
    return { error: (e as Error).constructor.name, message: (e as Error).message };
  }
}

describe("lean loop, nothing installed", () => {
  it("runs invoke on the lean loop, as the full loop does", async () => {
    for (const s of [chain, loop, fan, sends]) {
      const lean = compileLeanGraph(s);
      expect(lean).toBeInstanceOf(LeanGraph);
      expect(await outcome(lean.invoke({ count: 0 }))).toEqual(await outcome(compileGraph(s).invoke({ count: 0 })));
    }
    expect(await compileLeanGraph(chain).invoke({ count: 0 })).toEqual({ count: 2, log: ["a", "b"] });
    expect(await compileLeanGraph(loop).invoke({ count: 0 })).toEqual({ count: 4, log: ["a", "a", "a", "b"] });
    expect(await compileLeanGraph(fan).invoke({ count: 0 })).toEqual({ count: 2, log: ["a", "b", "c", "d"] });
    expect(await compileLeanGraph(sends).invoke({ count: 0 })).toEqual({ count: 2, log: ["a", "b10", "b20", "c"] });
  });

  it("new LeanGraph (no router code) runs a graph without routers as the full loop (Commands and their Sends too)", async () => {
    /** no routers: a Command's goto and Send packets route instead */
    const commands = spec([
      node("a", [], { call: () => new Command({ goto: [new Send("b", { count: 10 }), "c"] }) }),
      node("b", [], { call: (input) => ({ log: [`b${(input as { count: number }).count}`] }) }),
      node("c", ["b"]),
    ]);
    for (const s of [chain, fan, commands]) {
      const lean = new LeanGraph(s);
      expect(lean).toBeInstanceOf(LeanGraph);
      expect(await outcome(lean.invoke({ count: 0 }))).toEqual(await outcome(compileGraph(s).invoke({ count: 0 })));
    }
    expect(await new LeanGraph(commands).invoke({ count: 0 })).toEqual({ count: 1, log: ["c", "b10", "b1"] });
    // withConfig keeps a graph's routers: compileLeanGraph's copy still runs the router loop on the lean loop
    expect(await compileLeanGraph(loop).withConfig({ recursionLimit: 10 }).invoke({ count: 0 })).toEqual({ count: 4, log: ["a", "a", "a", "b"] });
    // a spec with routers given no router code is one the lean loop cannot run: it goes to the full graph (not there yet)
    await expect(new LeanGraph(loop).invoke({ count: 0 })).rejects.toThrow(/policy nodes\) needs a part of the runtime/);
  });

  it("fails as the full loop: a node that throws, two at once, a bad update, the recursion limit, bad input", async () => {
    const boom = spec([node("a", ["b"]), node("b", [], { call: () => { throw new Error("boom"); } })]);
    const both = spec([
      node("a", ["b", "c"]),
      node("b", [], { call: () => { throw new Error("b"); } }),
      node("c", [], { call: async () => { throw new Error("c"); } }),
    ]);
    const bad = spec([node("a", [], { call: () => ({ nope: 1 }) })]);
    const forever = spec([node("a", ["a"])]);
    const cases: [GraphSpec, unknown, object?][] = [
      [boom, { count: 0 }],
      [both, { count: 0 }],
      [bad, { count: 0 }],
      [forever, { count: 0 }, { recursionLimit: 5 }],
      [chain, null],
      [chain, { count: 0 }, { recursionLimit: 0 }],
    ];
    for (const [s, input, config] of cases) {
      const full = await outcome(compileGraph(s).invoke(input as Values, config));
      expect(await outcome(compileLeanGraph(s).invoke(input as Values, config))).toEqual(full);
    }
    await expect(compileLeanGraph(boom).invoke({ count: 0 })).rejects.toBeInstanceOf(NodeError);
    await expect(compileLeanGraph(both).invoke({ count: 0 })).rejects.toBeInstanceOf(MultipleErrors);
    await expect(compileLeanGraph(bad).invoke({ count: 0 })).rejects.toBeInstanceOf(InvalidUpdateError);
    await expect(compileLeanGraph(forever).invoke({ count: 0 }, { recursionLimit: 5 })).rejects.toThrow(
      new GraphRecursionError(5).message,
    );
  });

  it("returns undefined when no step wrote an output field; hands nodes vars, step, store and signal", async () => {
    const silent = spec([node("a", [], { call: () => null })], { outputFields: ["log"], input: () => ({}) });
    expect(await compileLeanGraph(silent).invoke({})).toBeUndefined();
    const seen: unknown[] = [];
    const ctx = spec([
      node("a", [], {
        call: (_input, c) => {
          seen.push(c.graph, c.node, c.vars, c.step, c.namespace.length, c.signal.aborted, c.store);
          return null;
        },
      }),
    ]);
    await compileLeanGraph(ctx).invoke({ count: 0 }, { vars: { model: "m" } });
    expect(seen).toEqual(["Lean", "a", { model: "m" }, 1, 1, false, undefined]);
    await expect(compileLeanGraph(ctx).invoke({ count: 0 }, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(GraphAbortError);
  });

  it("checks vars overrides before any node runs; without overrides makes the defaults once per run, on first read", async () => {
    let made = 0;
    const vars: GraphSpec["vars"] = (o, inherited) => {
      made++;
      if ("model" in o && typeof o["model"] !== "string") throw new InvalidUpdateError('var "model" must be a string', { graph: "Lean" });
      return { ...inherited, model: "model" in o ? o["model"] : "default" };
    };
    let ran = 0;
    const seen: unknown[] = [];
    const g = compileLeanGraph(
      spec(
        [
          node("a", ["b"], {
            call: () => {
              ran++;
              return null;
            },
          }),
          node("b", [], {
            call: (_input, c) => {
              ran++;
              seen.push(c.vars, c.vars);
              return null;
            },
          }),
        ],
        { vars },
      ),
    );
    await expect(g.invoke({ count: 0 }, { vars: { model: 1 } })).rejects.toThrow('var "model" must be a string');
    expect([ran, made]).toEqual([0, 1]);
    await g.invoke({ count: 0 });
    await g.invoke({ count: 0 });
    expect([ran, made]).toEqual([4, 3]);
    expect(seen).toEqual([{ model: "default" }, { model: "default" }, { model: "default" }, { model: "default" }]);
    // one object per run, read twice by b; a new one for the next run
    expect(seen[0]).toBe(seen[1]);
    expect(seen[2]).not.toBe(seen[0]);
    // a run whose nodes never read vars does not make them
    await compileLeanGraph(spec([node("a", [])], { vars })).invoke({ count: 0 });
    expect(made).toBe(3);
    // overrides given: checked once, before any node, and the nodes see that object
    await g.invoke({ count: 0 }, { vars: { model: "m" } });
    expect([ran, made]).toEqual([6, 4]);
    expect(seen.slice(4)).toEqual([{ model: "m" }, { model: "m" }]);
  });

  it("stream(), a Command as input and the state API name the import that provides them", async () => {
    const g = compileLeanGraph(chain);
    expect(() => g.stream({ count: 0 })).toThrow(GraphValueError);
    expect(() => g.stream({ count: 0 })).toThrow(/@graphc\/runtime\/streaming/);
    // the Commands made by earlier tests of this file installed what runs one: forgotten, as in a program
    // that never made one, a Command of another shape (LangGraph.js's) names the import
    delete features.smallInput;
    await expect(g.invoke(taggedCommand({ update: { count: 1 } }))).rejects.toThrow(/A Command as input needs a part of the runtime.*"@graphc\/runtime"/);
    // and `new Command` installs it (command-class.ts)
    expect(await g.invoke(new Command({ update: { count: 1 } }))).toEqual({ count: 1, log: [] });
    await expect(g.getState({ configurable: { thread_id: "t" } })).rejects.toThrow("No checkpointer set");
    // a spec the lean loop cannot run (a retry policy) goes to the full graph, which is not there
    const retried = compileLeanGraph(spec([node("a", ["b"], { retry: { maxAttempts: 2 } }), node("b", [])]));
    await expect(retried.invoke({ count: 0 })).rejects.toThrow(/policy nodes\) needs a part of the runtime/);
  });

  it("streams once @graphc/runtime/streaming is imported", async () => {
    await import("../../runtime/install-streaming.ts");
    const chunks: unknown[] = [];
    for await (const c of compileLeanGraph(chain).stream({ count: 0 }, { streamMode: "values" })) chunks.push(c);
    expect(chunks).toEqual([
      { count: 0, log: [] },
      { count: 1, log: ["a"] },
      { count: 2, log: ["a", "b"] },
    ]);
    // on the lean loop itself: streaming installs no full graph, so a spec with routers given no router code
    // (which only the full graph runs) still fails, streamed or invoked, naming the import
    await expect(new LeanGraph(loop).invoke({ count: 0 })).rejects.toThrow(/policy nodes\) needs a part of the runtime.*"@graphc\/runtime"/);
    expect(() => new LeanGraph(loop).stream({ count: 0 })).toThrow(/needs a part of the runtime.*"@graphc\/runtime"/);
  });

  it("a saver in the config runs durably (constructing one installs checkpointing)", async () => {
    const { MemorySaver } = await import("../../runtime/checkpoint/memory.ts");
    const checkpointer = new MemorySaver();
    const g = compileLeanGraph(chain);
    const config = { checkpointer, configurable: { thread_id: "t1" } };
    expect(await g.invoke({ count: 0 }, config)).toEqual({ count: 2, log: ["a", "b"] });
    const state = await g.getState(config);
    expect(state.values).toEqual({ count: 2, log: ["a", "b"] });
    // withConfig keeps the saver: the next run continues the thread
    expect(await g.withConfig(config).invoke({ count: 5 })).toEqual({ count: 7, log: ["a", "b", "a", "b"] });
  });
});
