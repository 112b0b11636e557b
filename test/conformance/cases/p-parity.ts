/** Issue 13 parity cases that need no checkpointer (test/conformance/graphs/p-parity.graph). */
import { describe, expect, it } from "vitest";
import { graph } from "../context.ts";

const g = (name: string) => graph("p-parity", name);

export function parity(): void {
  describe("LangGraph parity (issue 13)", () => {
    it("`x != null` is false for an absent optional field: the router takes the default case", async () => {
      expect(await g("NullTest").invoke({})).toEqual({ took: "done" });
    });

    it("a subgraph that writes none of its output fields gives the parent no update (LangGraph: 5, not 0)", async () => {
      expect(await g("KeepsScore").invoke({ x: "a" })).toEqual({ score: 5, x: "a" });
    });

    it("on_error routes a plain node's failure to its handler", async () => {
      expect(await g("PlainOnError").invoke({})).toEqual({ took: "handler" });
    });

    it("on_error routes a subgraph node's failure to its handler", async () => {
      expect(await g("SubgraphOnError").invoke({})).toEqual({ took: "handler" });
    });
  });
}
