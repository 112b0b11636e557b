/** Reference §8 group A (channels and reducers), run without a checkpointer. */
import { describe, expect, it } from "vitest";
import { InvalidUpdateError } from "@graphc/runtime";
import { collect, graph } from "../context.ts";

const g = (name: string) => graph("a-channels", name);

export function channels(): void {
  describe("A. channels and reducers", () => {
    it("C-1: two writes to a replace field in one step are LangGraph's LastValue error", async () => {
      const run = g("LastValueConflict").invoke({ my_key: "value", market: "DE" });
      await expect(run).rejects.toBeInstanceOf(InvalidUpdateError);
      await expect(run).rejects.toMatchObject({ lc_error_code: "INVALID_CONCURRENT_GRAPH_UPDATE" });
      // values in write order: node tasks by name, so `bar` before `foo`
      await expect(run).rejects.toThrow(
        'Invalid update for channel "market" with values [" fast"," slow"]: LastValue can only receive one value per step.',
      );
    });

    it("C-2 (adapted): two writers into an appending field both land", async () => {
      expect(await g("TwoWritersAppend").invoke({ value: 2 })).toEqual({ output: [3, 3] });
    });

    it("C-3: a node returning a number is INVALID_GRAPH_NODE_RETURN_VALUE", async () => {
      const run = g("BadReturn").invoke({ v: "x" });
      await expect(run).rejects.toBeInstanceOf(InvalidUpdateError);
      await expect(run).rejects.toMatchObject({ lc_error_code: "INVALID_GRAPH_NODE_RETURN_VALUE" });
      await expect(run).rejects.toThrow(
        'Expected node "bad" to return an object or an array containing at least one Command object, received number',
      );
    });

    it("C-4: undefined is written like any value; a `y ?? x` reducer keeps the old one", async () => {
      const out = await g("UndefinedValues").invoke({});
      expect(out).toEqual({ reducerField: "should not be wiped" });
      expect(out.test).toBeUndefined();
    });

    it("C-5: Overwrite replaces a reducer field, in object and wire form", async () => {
      expect(await g("OverwriteList").invoke({})).toEqual({ items: ["replaced"] });
      expect(await g("OverwriteWire").invoke({})).toEqual({ items: ["replaced"] });
      expect(await g("OverwriteSum").invoke({})).toEqual({ total: 3 });
      expect(await g("OverwriteEmpty").invoke({})).toEqual({ items: [] });
      expect(await g("OverwriteThenAppend").invoke({})).toEqual({ items: ["x", "y"] });
    });

    it("C-6: Overwrite rules inside one superstep", async () => {
      const twice = g("TwoOverwrites").invoke({});
      await expect(twice).rejects.toBeInstanceOf(InvalidUpdateError);
      await expect(twice).rejects.toThrow("Can receive only one Overwrite value per step.");
      // a plain value after the Overwrite (in apply order) is ignored …
      expect(await g("PlainAfterOverwrite").invoke({})).toEqual({ items: ["x"] });
      // … one before it is folded, then replaced
      expect(await g("PlainBeforeOverwrite").invoke({})).toEqual({ items: ["x"] });
      expect(await g("OverwriteFirst").invoke({})).toEqual({ items: ["x"] });
    });

    it("C-7: messages: replace by id (last duplicate wins), append new ids, remove, remove-all", async () => {
      expect(await g("Messages").invoke({})).toEqual({
        messages: [
          { id: "1", role: "user", content: "hi!!" },
          { id: "3", role: "user", content: "new" },
        ],
      });
      await expect(g("MessagesRemoveUnknown").invoke({})).rejects.toThrow(
        "Attempting to delete a message with an ID that doesn't exist ('nope')",
      );
      expect(await g("MessagesRemoveAll").invoke({})).toEqual({ messages: [{ id: "4", role: "user", content: "kept" }] });
    });

    it("C-9: several Commands from one node: both updates apply, `updates` shows a list", async () => {
      expect(await g("SeveralCommands").invoke({})).toEqual({ value: "a1a2b" });
      expect(await collect(g("SeveralCommands").stream({}))).toEqual([
        { node_a: [{ value: "a1" }, { value: "a2" }] },
        { node_b: { value: "b" } },
      ]);
    });

    it("C-10: [field, value] pairs: updates and tasks chunks", async () => {
      const chunks = await collect(g("TupleUpdates").stream({ foo: "input" }, { streamMode: ["updates", "tasks"] }));
      const tasks = chunks.filter((c) => (c as [string])[0] === "tasks").map((c) => (c as [string, Record<string, unknown>])[1]);
      const updates = chunks.filter((c) => (c as [string])[0] === "updates").map((c) => (c as [string, unknown])[1]);
      expect(tasks[0]).toMatchObject({ name: "one", input: { foo: "input" }, triggers: ["branch:to:one"] });
      expect(tasks[1]).toMatchObject({ name: "one", result: { foo: { $writes: ["one.0", "one.1"] } }, interrupts: [] });
      expect(tasks[2]).toMatchObject({ name: "two", input: { foo: "input, one.0, one.1" } });
      expect(tasks[3]).toMatchObject({ name: "two", result: { foo: "two" } });
      expect(updates).toEqual([{ one: [{ foo: "one.0" }, { foo: "one.1" }] }, { two: { foo: "two" } }]);
      expect(await g("TupleUpdates").invoke({ foo: "input" })).toEqual({ foo: "input, one.0, one.1, two" });
    });

    it("C-11: an append field takes one element per update", async () => {
      expect(await g("ReducedValue").invoke({})).toEqual({ items: ["item1", "item2"], count: 1 });
    });
  });
}
