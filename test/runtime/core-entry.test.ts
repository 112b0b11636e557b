/**
 * "@graphc/runtime/core": the loop core without checkpointing, streaming or node policies. A graph that is
 * only invoked runs exactly as with the full entry; using a part that is not installed is a clear
 * GraphValueError naming the import; installing it (install.ts) makes it work. This file must not import
 * "@graphc/runtime" (that entry installs streaming, policies and Command input). Checkpointing comes with a
 * saver: constructing one of graphc's installs it.
 */
import { describe, expect, it } from "vitest";
import {
  Command,
  GraphValueError,
  InvalidUpdateError,
  append,
  compileGraph,
  fold,
  replace,
  type CheckpointSaver,
  type GraphSpec,
  type NodeSpec,
  type TaskUpdate,
  type Values,
} from "../../runtime/core.ts";
import { installAll } from "../../runtime/install.ts";
import { MemorySaver } from "../../runtime/checkpoint/memory.ts";

function node(name: string, edges: string[], extra: Partial<NodeSpec> = {}): NodeSpec {
  return {
    name,
    read: (v) => ({ count: v["count"] }),
    call: (input) => ({ count: (input as { count: number }).count + 1, log: [name] }),
    sync: true,
    check: (u) => {
      for (const k in u)
        if (k !== "count" && k !== "log")
          throw new InvalidUpdateError(`node "${name}" cannot write ${k}`, { graph: "Core", node: name, field: k });
    },
    edges,
    joins: [],
    branches: [],
    ...extra,
  };
}

function spec(nodes: NodeSpec[]): GraphSpec {
  return {
    name: "Core",
    compilerVersion: "0.1.0",
    init: () => ({ count: 0, log: [] }),
    input: (raw) => ({ ...(raw as Values) }),
    output: (v) => ({ count: v["count"], log: v["log"] }),
    outputFields: ["count", "log"],
    apply: (v: Values, updates: readonly TaskUpdate[]) => {
      const count: unknown[] = [];
      const log: unknown[] = [];
      for (const u of updates) {
        if ("count" in u.values) count.push(u.values["count"]);
        if ("log" in u.values) log.push(u.values["log"]);
      }
      const written: string[] = [];
      if (count.length > 0) {
        v["count"] = replace("Core", "count", count);
        written.push("count");
      }
      if (log.length > 0) {
        v["log"] = fold("Core", "log", true, v["log"] as string[], log, append);
        written.push("log");
      }
      return written;
    },
    nodes,
    start: { edges: ["a"], joins: [], branches: [] },
    joins: [],
    interruptBefore: [],
    interruptAfter: [],
    vars: (_o, inherited) => ({ ...inherited }),
  };
}

const chain = spec([node("a", ["b"]), node("b", [])]);
const retried = spec([node("a", ["b"], { retry: { maxAttempts: 2 } }), node("b", [])]);

describe("@graphc/runtime/core", () => {
  it("invokes a graph without any optional part installed", async () => {
    expect(await compileGraph(chain).invoke({ count: 0 })).toEqual({ count: 2, log: ["a", "b"] });
  });

  it("names the missing import for stream(), a Command input, a hand-written saver and node policies", async () => {
    const g = compileGraph(chain);
    expect(() => g.stream({ count: 0 })).toThrow(GraphValueError);
    expect(() => g.stream({ count: 0 })).toThrow(/stream\(\) needs .*import "@graphc\/runtime"/);
    await expect(g.invoke(new Command({ goto: "b" }))).rejects.toThrow(/A Command as input needs/);
    // a saver that is not one of graphc's installs nothing: the error says what does
    const nothing = () => Promise.resolve(undefined);
    const ownSaver: CheckpointSaver = {
      getTuple: nothing,
      list: async function* () {},
      put: () => Promise.resolve({}),
      putWrites: () => Promise.resolve(),
      deleteThread: () => Promise.resolve(),
    };
    await expect(g.invoke({ count: 0 }, { checkpointer: ownSaver, configurable: { thread_id: "t" } })).rejects.toThrow(
      /a checkpointer needs .*install it when constructed.*installCheckpointing\(\) from "@graphc\/runtime\/install"/,
    );
    await expect(g.getState({ checkpointer: ownSaver, configurable: { thread_id: "t" } })).rejects.toThrow(/getState\(\) needs .*installCheckpointing/);
    // without any saver, the state API fails as it does with everything installed
    await expect(g.getState({ configurable: { thread_id: "t" } })).rejects.toMatchObject({ code: "MISSING_CHECKPOINTER" });
    const err = await compileGraph(retried)
      .invoke({ count: 0 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GraphValueError);
    expect(err).toMatchObject({ graph: "Core", node: "a" });
  });

  it("checkpointing comes with a saver: constructing one installs it (and nothing else)", async () => {
    const g = compileGraph(chain);
    const saver = new MemorySaver();
    const config = { checkpointer: saver, configurable: { thread_id: "saver" } };
    expect(await g.invoke({ count: 0 }, config)).toEqual({ count: 2, log: ["a", "b"] });
    expect((await g.getState(config)).values).toEqual({ count: 2, log: ["a", "b"] });
    expect(await g.invoke(new Command({ goto: "b" }), config)).toEqual({ count: 3, log: ["a", "b", "b"] });
    expect(() => g.stream({ count: 0 })).toThrow(/stream\(\) needs/);
  });

  it("works fully once the optional parts are installed", async () => {
    installAll();
    const g = compileGraph(chain);
    const chunks: unknown[] = [];
    for await (const c of g.stream({ count: 0 })) chunks.push(c);
    expect(chunks).toEqual([{ a: { count: 1, log: ["a"] } }, { b: { count: 2, log: ["b"] } }]);
    const saver = new MemorySaver();
    const config = { checkpointer: saver, configurable: { thread_id: "t" } };
    expect(await g.invoke({ count: 0 }, config)).toEqual({ count: 2, log: ["a", "b"] });
    expect((await g.getState(config)).values).toEqual({ count: 2, log: ["a", "b"] });
    expect(await compileGraph(retried).invoke({ count: 0 })).toEqual({ count: 2, log: ["a", "b"] });
  });
});
