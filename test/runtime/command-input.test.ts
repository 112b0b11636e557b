/**
 * A `Command` given as `invoke` input: its `update` is checked like a node's (graphc rejects unknown keys
 * where LangGraph drops them), through the graph's `checkUpdate` when generated code provides one, else
 * against the fields the graph's `apply` writes. Also: `CheckpointError` is exported by both entries.
 */
import { describe, expect, it } from "vitest";
import {
  CheckpointError,
  Command,
  InvalidUpdateError,
  MemorySaver,
  compileGraph,
  type GraphSpec,
  type Values,
} from "@graphc/runtime";
import { CheckpointError as CoreCheckpointError } from "../../runtime/core.ts";
import { concat, graph, nodeFactory } from "./helpers.ts";

const n = nodeFactory("G", ["log", "note"]);

/** `ask` stops at an interrupt; the run is then continued with a Command input. */
function spec(extra: Partial<GraphSpec> = {}): GraphSpec {
  return {
    ...graph({
      fields: { log: concat as never, note: null },
      nodes: [
        n("ask", (_: Values, ctx) => ({ log: [ctx.interrupt("q")] }), { edges: ["after"] }),
        n("after", () => ({ log: ["after"] })),
      ],
      start: { edges: ["ask"] },
    }),
    ...extra,
  };
}

async function interrupted(s: GraphSpec, thread: string) {
  const g = compileGraph(s, { checkpointer: new MemorySaver() });
  const cfg = { configurable: { thread_id: thread } };
  await g.invoke({ log: ["in"] }, cfg);
  return { g, cfg };
}

describe("Command update given as invoke input", () => {
  it("an unknown field is an InvalidUpdateError naming graph and field; nothing is written", async () => {
    const { g, cfg } = await interrupted(spec(), "t1");
    for (const update of [{ nope: 1 }, [["log", ["x"]], ["nope", 1]]] as const) {
      const err = await g.invoke(new Command({ update: update as never }), cfg).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InvalidUpdateError);
      expect(err).toMatchObject({ graph: "G", field: "nope", code: "INVALID_UPDATE" });
      expect((err as Error).message).toBe('Command update given as input to graph "G" names unknown field "nope"');
    }
    expect((await g.getState(cfg)).values).toEqual({ log: ["in"] });
  });

  it("known fields are applied, as an object or as [field, value] pairs", async () => {
    const { g, cfg } = await interrupted(spec(), "t2");
    await g.invoke(new Command({ update: { note: "n" } }), cfg);
    await g.invoke(new Command({ update: [["log", ["p"]]] }), cfg);
    expect((await g.getState(cfg)).values).toEqual({ log: ["in", "p"], note: "n" });
  });

  it("uses the graph's checkUpdate when the spec has one", async () => {
    const seen: Values[] = [];
    const checkUpdate = (u: Values) => {
      seen.push(u);
      if ("note" in u) throw new InvalidUpdateError("note is read-only here", { graph: "G", field: "note" });
    };
    const { g, cfg } = await interrupted(spec({ checkUpdate }), "t3");
    await expect(g.invoke(new Command({ update: { note: "n" } }), cfg)).rejects.toThrow("note is read-only here");
    await g.invoke(new Command({ update: { log: ["ok"] } }), cfg);
    expect(seen).toEqual([{ note: "n" }, { log: ["ok"] }]);
    expect((await g.getState(cfg)).values).toEqual({ log: ["in", "ok"] });
  });
});

describe("Command update and goto given as input without a checkpointer", () => {
  // LangGraph runs such a Command from an empty checkpoint: the update is applied, the goto's node runs
  it("applies the update, runs the goto's node, and streams the values in order", async () => {
    const g = compileGraph(spec());
    expect(await g.invoke(new Command({ update: { log: ["x"] }, goto: "after" }))).toEqual({ log: ["x", "after"] });
    expect(await g.invoke(new Command({ update: { note: "n" } }))).toEqual({ note: "n" });
    const chunks = [];
    for await (const c of await g.stream(new Command({ goto: "after" }), { streamMode: "values" })) chunks.push(c);
    expect(chunks).toEqual([{}, { log: ["after"] }]);
  });

  it("still rejects an unknown field and a resume", async () => {
    const g = compileGraph(spec());
    await expect(g.invoke(new Command({ update: { nope: 1 } as never }))).rejects.toBeInstanceOf(InvalidUpdateError);
    await expect(g.invoke(new Command({ resume: "v" }))).rejects.toThrow("Cannot use Command(resume=...) without checkpointer");
  });
});

describe("CheckpointError", () => {
  it("is exported by @graphc/runtime and @graphc/runtime/core and is what savers throw", async () => {
    expect(CoreCheckpointError).toBe(CheckpointError);
    const err = await new MemorySaver()
      .put({ configurable: {} }, { v: 1, id: "x", ts: "", channel_values: {}, channel_versions: {}, versions_seen: {} }, {} as never, {})
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CheckpointError);
    expect(err).toMatchObject({ code: "MISSING_THREAD_ID", field: "thread_id" });
  });
});
