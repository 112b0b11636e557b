/**
 * "@graphc/runtime/core": the loop core without checkpointing, streaming or node policies. A graph that is
 * only invoked runs exactly as with the full entry; using a part that is not installed is a clear
 * GraphValueError naming the import; installing it (install.ts) makes it work. This file must not import
 * "@graphc/runtime" (that entry installs streaming and Command input; test/runtime/index-entry.test.ts). Checkpointing comes with a
 * saver: constructing one of graphc's installs it.
 */
import { describe, expect, it } from "vitest";
import {
  Command,
  GraphValueError,
  compileGraph,
  type CheckpointSaver,
  type GraphSpec,
  type NodeSpec,
} from "../../runtime/core.ts";
import { countNode, countSpec, taggedCommand } from "./count-spec.ts";
import { installAll } from "../../runtime/install.ts";
import { MemorySaver } from "../../runtime/checkpoint/memory.ts";

const node = (name: string, edges: string[], extra: Partial<NodeSpec> = {}): NodeSpec => countNode("Core", name, edges, extra);
const spec = (nodes: NodeSpec[], extra: Partial<GraphSpec> = {}): GraphSpec => countSpec("Core", nodes, extra);

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
    await expect(g.invoke(taggedCommand({ goto: ["b"] }))).rejects.toThrow(/A Command as input needs/);
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
    expect((err as Error).message).toMatch(/^retry, timeout, cache and on_error policies needs .*call installPolicies\(\) from "@graphc\/runtime\/install"/);
    // a Command as input comes with a Command: making one installs what runs it (command-class.ts)
    expect(await g.invoke(new Command({ goto: "b" }))).toEqual({ count: 1, log: ["b"] });
    expect(await g.invoke(taggedCommand({ goto: ["b"] }))).toEqual({ count: 1, log: ["b"] });
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
