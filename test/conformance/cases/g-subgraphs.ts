/** Reference §8 group G (subgraphs), the cases that need no checkpointer. */
import { describe, expect, it } from "vitest";
import { collect, graph } from "../context.ts";

export function subgraphs(): void {
  describe("G. subgraphs", () => {
    it("C-51: a nested graph shares fields by name; other state values are opaque", async () => {
      const neverCalled = () => {
        throw new Error("never called");
      };
      const out = await graph("g-subgraphs", "NestedBasic").invoke({ myKey: "my value", neverCalled });
      expect(out).toEqual({ myKey: "my value there and back again", neverCalled });
      expect(out.neverCalled).toBe(neverCalled);
    });

    it("C-51: with subgraphs: true, child updates carry the `node:taskId` namespace", async () => {
      const chunks = (await collect(
        graph("g-subgraphs", "NestedBasic").stream({ myKey: "my value" }, { subgraphs: true }),
      )) as [string[], Record<string, unknown>][];
      expect(chunks.map(([ns, u]) => [ns.map((s) => s.split(":")[0]), Object.keys(u)])).toEqual([
        [["inner"], ["up"]],
        [[], ["inner"]],
        [[], ["side"]],
      ]);
      expect(chunks[0]![0][0]).toMatch(/^inner:[0-9a-f-]{36}$/);
      expect(chunks[1]![1]).toEqual({ inner: { myKey: "my value there" } });
    });
  });
}
