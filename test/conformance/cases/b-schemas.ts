/** Reference §8 group B (schemas), run without a checkpointer. */
import { beforeEach, describe, expect, it } from "vitest";
import { GraphInputError, InvalidUpdateError } from "@graphc/runtime";
import { collect, graph } from "../context.ts";
import { seen } from "../graphs/b-schemas.nodes.ts";
import { errorCodes } from "../invalid.ts";

const g = (name: string) => graph("b-schemas", name);

export function schemas(): void {
  describe("B. schemas", () => {
    beforeEach(() => {
      seen.length = 0;
    });

    it("C-12: nodes see the full state; the result holds only the output fields that were written", async () => {
      const input = { hello: "there", bye: "world", messages: ["hello"] };
      expect(await g("CustomOutput").invoke(input)).toEqual({ messages: ["hello"] });
      expect(seen).toEqual([
        { node: "a", input: { hello: "there", bye: "world", messages: ["hello"] } },
        { node: "b", input: { hello: "there", bye: "world", messages: ["hello"] } },
        { node: "c", input: { hello: "again", bye: "world", messages: ["hello"] } },
      ]);
      expect(await collect(g("CustomOutput").stream(input))).toEqual([{ a: {} }, { b: { hello: "again" } }, { c: {} }]);
    });

    it("C-12 differs by design: an extra input key is a GraphInputError, an undeclared update key an InvalidUpdateError", async () => {
      const extra = g("CustomOutput").invoke({ hello: "there", bye: "world", messages: ["hello"], now: 345 });
      await expect(extra).rejects.toBeInstanceOf(GraphInputError);
      await expect(extra).rejects.toThrow('graph "CustomOutput" has no input field "now"');
      const undeclared = g("UnknownUpdateKey").invoke({ hello: "there" });
      await expect(undeclared).rejects.toBeInstanceOf(InvalidUpdateError);
      await expect(undeclared).rejects.toThrow('node "b" of graph "UnknownUpdateKey" cannot write "now"');
    });

    it("C-12: an input schema unrelated to the state, filled by an entry node", async () => {
      expect(await g("SpecialInput").invoke({ specialInputField: "there" })).toEqual({ messages: ["hello"] });
    });

    it("C-13: a private field reaches the node that reads it, not the result", async () => {
      expect(await g("PrivateState").invoke({ hello: "there" })).toEqual({ hello: "again" });
      expect(seen).toEqual([{ node: "b", input: { hello: "there", privateProp: "secret" } }]);
    });

    it("C-14: three schemas", async () => {
      expect(await g("ThreeSchemas").invoke({ question: "test" })).toEqual({ answer: "Answer: test" });
    });

    it("C-15: overlapping schemas return only output fields", async () => {
      expect(await g("OverlapSchemas").invoke({ question: "q" })).toEqual({ answer: "tool" });
    });

    it("C-16: node input schemas add channels to the graph", async () => {
      expect(await g("DifferentKeys").invoke({ inputOne: "in" })).toEqual({ inputOne: "in>two>three>one" });
    });

    it("C-17: two reducers for one field are a compile error (G3003)", () => {
      expect(errorCodes("reducer-conflict")).toEqual(["G3003"]);
    });

    it("C-18: a node reads only its fields; unset ones are absent", async () => {
      expect(await g("PerNodeInput").invoke({ messages: ["hello"], count: 1 })).toEqual({
        messages: ["hello", "processed"],
        count: 1,
      });
      expect(seen).toEqual([{ node: "process", input: { messages: ["hello"] } }]);
    });

    it("C-19 (graphc form): per-run vars reach the nodes", async () => {
      expect(await g("VarsPassthrough").invoke({ hello: "there" }, { vars: { foo: "bar" } })).toEqual({ hello: "again" });
      expect(seen).toEqual([{ node: "a", input: {}, vars: { foo: "bar" } }]);
    });
  });
}
