/** Reference §8 group D (Send and map-reduce), run without a checkpointer. */
import { describe, expect, it } from "vitest";
import { graph } from "../context.ts";

const g = (name: string) => graph("d-send", name);

export function sends(): void {
  describe("D. Send and map-reduce", () => {
    it("C-30: map-reduce: each packet is a task receiving its argument as sent", async () => {
      expect(await g("MapReduce").invoke({ subjects: ["cats", "dogs"] })).toEqual({
        subjects: ["cats", "dogs"],
        jokes: ["Joke about cats", "Joke about dogs"],
      });
    });

    it("C-31: the node routed to after two Send tasks runs once", async () => {
      expect(await g("SendThenRoute").invoke({ items: ["0"] })).toEqual({ items: ["0", "1", "2", "2", "3"] });
    });

    it("C-32: concurrent Sends apply after node tasks, in Send order", async () => {
      expect(await g("ConcurrentSends").invoke({ items: ["0"] })).toEqual({
        items: ["0", "1", "1.1", "3.1", "2|1", "2|2", "2|3", "2|4", "3"],
      });
    });

    it("C-33: Send packets carrying Commands are data to the target, which returns them", async () => {
      expect(await g("SendSequences").invoke({ items: ["0"] })).toEqual({
        items: ["0", "1", "3.1", "2|Command(goto=Send(n2,3))", "2|Command(goto=Send(n2,4))", "3", "2|3", "2|4", "3"],
      });
    });

    it("C-34: map-reduce through Command.goto", async () => {
      expect(await g("GotoSends").invoke({})).toEqual({ foo: "map", tasks: [0, 1, 2] });
    });
  });
}
