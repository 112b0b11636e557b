/** Reference §8 group E (Command), the cases that need no checkpointer. */
import { beforeEach, describe, expect, it } from "vitest";
import { InvalidUpdateError } from "@graphc/runtime";
import { graph } from "../context.ts";
import { calls, route } from "../graphs/e-command.nodes.ts";

const g = (name: string) => graph("e-command", name);

export function commands(): void {
  describe("E. Command", () => {
    beforeEach(() => {
      calls.length = 0;
    });

    it("C-35: Command.PARENT from a subgraph node updates and routes in the parent", async () => {
      route.to = "nodeB";
      expect(await g("ParentRouting").invoke({})).toEqual({ foo: "a|b" });
      expect(calls).toEqual(["Called A", "Called B"]);
      calls.length = 0;
      route.to = "nodeC";
      expect(await g("ParentRouting").invoke({})).toEqual({ foo: "a|c" });
      expect(calls).toEqual(["Called A", "Called C"]);
    });

    it("C-39 differs by design: a literal \"PARENT\" keeps the Command in the subgraph, where its unknown goto is an error", async () => {
      const run = g("LiteralParent").invoke({});
      await expect(run).rejects.toBeInstanceOf(InvalidUpdateError);
      await expect(run).rejects.toThrow('Command.goto from node "subgraph_node_2" names unknown node "node_3"');
    });

    it("C-42: Command goto END", async () => {
      expect(await g("GotoEnd").invoke({})).toEqual({ count: 1 });
    });
  });
}
