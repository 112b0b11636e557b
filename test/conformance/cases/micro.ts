/** Reference §8.3: the micro-cases verified against LangGraph.js. */
import { beforeEach, describe, expect, it } from "vitest";
import { GraphInputError, GraphRecursionError, InvalidUpdateError } from "@graphc/runtime";
import { collect, graph, warnings } from "../context.ts";
import { fresh } from "../graphs/m-micro.nodes.ts";
import { errorCodes } from "../invalid.ts";

const g = (name: string) => graph("m-micro", name);

export function micro(): void {
  describe("§8.3 micro-cases", () => {
    beforeEach(() => {
      fresh.length = 0;
    });

    it("#1: writes apply by node name (JS order), then Sends by index, whatever order they finished in", async () => {
      expect(await g("WriteOrder").invoke({ items: ["in"] })).toEqual({ items: ["in", "Beta", "alpha", "zeta", "w:1", "w:0"] });
    });

    it("#2 / C-58: a chain of k nodes needs recursionLimit >= k + 1", async () => {
      const chain = g("Chain3");
      for (const limit of [2, 3]) {
        const run = chain.invoke({}, { recursionLimit: limit });
        await expect(run).rejects.toBeInstanceOf(GraphRecursionError);
        await expect(run).rejects.toThrow(
          `Recursion limit of ${limit} reached without hitting a stop condition. You can increase the limit by setting the "recursionLimit" config key.`,
        );
        await expect(run).rejects.toMatchObject({ lc_error_code: "GRAPH_RECURSION_LIMIT" });
      }
      expect(await chain.invoke({}, { recursionLimit: 4 })).toEqual({ n: 3 });
      await expect(chain.withConfig({ recursionLimit: 3 }).invoke({})).rejects.toBeInstanceOf(GraphRecursionError);
    });

    it("#3 differs by design: unknown goto targets are compile errors, unknown router names run-time errors", async () => {
      expect(errorCodes("goto-unknown-node")).toEqual(["G2017"]);
      const run = g("UnknownRouterTarget").invoke({});
      await expect(run).rejects.toBeInstanceOf(InvalidUpdateError);
      await expect(run).rejects.toThrow(/zzz/);
    });

    it("#4 differs by design: an unknown input key is a GraphInputError (update keys: see C-12)", async () => {
      await expect(g("FreshRead").invoke({ zzz: 1 })).rejects.toBeInstanceOf(GraphInputError);
    });

    it("#5: a router sees its own node's write, not its sibling's", async () => {
      expect(await g("FreshRead").invoke({})).toEqual({ x: "a", y: "b" });
      expect(fresh).toEqual([{ x: "a" }]);
    });

    it("#6: a shared appending field comes back whole from a subgraph (duplicates), and graphc warns (G5004)", async () => {
      expect(await g("SharedAppend").invoke({ list: ["in"] })).toEqual({ list: ["in", "p1", "in", "p1", "c1"] });
      expect(warnings()).toContainEqual(
        expect.objectContaining({ code: "G5004", severity: "warning", message: expect.stringContaining("SharedAppend$ch") }),
      );
    });

    it("#7: stream values include private fields; invoke returns only the output", async () => {
      expect(await g("PrivateInStream").invoke({ text: "t" })).toEqual({ text: "t+P" });
      expect(await collect(g("PrivateInStream").stream({ text: "t" }, { streamMode: "values" }))).toEqual([
        { text: "t" },
        { text: "t", priv: "P" },
        { text: "t+P", priv: "P" },
      ]);
    });

    it("#8 / #9: a node writing nothing gives `updates {node: {}}` and no values chunk; nothing written → undefined", async () => {
      expect(await collect(g("WritesNothing").stream({}, { streamMode: ["values", "updates"] }))).toEqual([
        ["updates", { a: {} }],
        ["updates", { b: {} }],
      ]);
      expect(await g("WritesNothing").invoke({})).toBeUndefined();
    });

    it("#10: custom chunks from a subgraph are emitted without subgraphs: true", async () => {
      expect(await collect(g("CustomFromChild").stream({ text: "hi" }, { streamMode: "custom" }))).toEqual([{ from: "emit", text: "hi" }]);
      expect(await g("CustomFromChild").invoke({ text: "hi" })).toEqual({ text: "HI!" });
    });

    it("#11: Command.PARENT carries only its own update, not the subgraph's earlier writes", async () => {
      expect(await g("ParentNoCarry").invoke({})).toEqual({ list: ["cmd", "p3"] });
    });
  });
}
