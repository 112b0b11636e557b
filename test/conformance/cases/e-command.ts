/** Reference §8 group E (Command), the cases that need no checkpointer. */
import { beforeEach, describe, expect, it } from "vitest";
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

    it("C-42: Command goto END", async () => {
      expect(await g("GotoEnd").invoke({})).toEqual({ count: 1 });
    });
  });
}
