/**
 * Reference §8 group F (interrupts and checkpoints), plus the checkpointer halves of C-4, C-21, C-22, C-29
 * and C-33, against one saver.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { Command, GraphValueError, NodeError, type CheckpointSaver, type StateSnapshot } from "@graphc/runtime";
import { collect, graph } from "../context.ts";
import { calls, fixes } from "../graphs/f-durable.nodes.ts";

const thread = (id: string) => ({ configurable: { thread_id: id } });
const INTERRUPT = (value: unknown) => ({ id: expect.stringMatching(/^[0-9a-f]{32}$/), value });
const history = async (g: ReturnType<typeof graph>, id: string): Promise<StateSnapshot[]> =>
  (await collect(g.getStateHistory(thread(id)))) as StateSnapshot[];
const steps = (h: StateSnapshot[]) => h.map((s) => [s.metadata?.source, s.metadata?.step]);

export function durable(saver: () => CheckpointSaver): void {
  const on = (file: string, name: string) => graph(file, name).withConfig({ checkpointer: saver() });
  const f = (name: string) => on("f-durable", name);

  describe("F. interrupts and checkpoints", () => {
    beforeEach(() => {
      for (const k of Object.keys(calls)) delete calls[k];
      fixes.two = false;
    });
    const input = { my_key: "value ⛰️", market: "DE" };

    it("C-43: an interrupt needs a checkpointer (not retried) and a thread_id", async () => {
      const none = graph("f-durable", "DynamicInterrupt").invoke(input);
      await expect(none).rejects.toBeInstanceOf(GraphValueError);
      await expect(none).rejects.toThrow(/^No checkpointer set/);
      expect(calls.tool_two).toBe(1);
      await expect(f("DynamicInterrupt").invoke(input)).rejects.toThrow(/thread_id/);
    });

    it("C-43: interrupt, inspect, resume with Command({resume}); durability exit; updateState", async () => {
      const g = f("DynamicInterrupt");
      const r = await g.invoke(input, thread("c43"));
      expect(r).toEqual({ ...input, __interrupt__: [INTERRUPT("Just because...")] });
      expect(steps(await history(g, "c43"))).toEqual([
        ["loop", 0],
        ["input", -1],
      ]);
      const st = await g.getState(thread("c43"));
      expect(st.next).toEqual(["tool_two"]);
      expect(st.tasks[0]!.interrupts).toEqual(r.__interrupt__);
      expect(await collect(g.stream(new Command({ resume: " this is great" }), thread("c43")))).toEqual([
        { tool_two: { my_key: " this is great" } },
      ]);
      expect((await g.getState(thread("c43"))).values).toEqual({ my_key: "value ⛰️ this is great", market: "DE" });
      // after the run: an update as the last node appends through the reducer
      await g.updateState(thread("c43"), { my_key: " updated" });
      expect((await g.getState(thread("c43"))).values.my_key).toBe("value ⛰️ this is great updated");

      await g.invoke(input, { ...thread("c43-exit"), durability: "exit" });
      expect(await history(g, "c43-exit")).toHaveLength(1);

      await g.invoke(input, thread("c43-end"));
      await g.updateState(thread("c43-end"), null, "__end__");
      const ended = await g.getState(thread("c43-end"));
      expect([ended.next, ended.tasks, ended.metadata?.source, ended.metadata?.step]).toEqual([[], [], "update", 1]);
    });

    it("C-44: a finished Send task keeps its writes beside an interrupted one; updateState(null, END)", async () => {
      const g = f("PartialPending");
      const r = await g.invoke(input, thread("c44"));
      expect(r).toEqual({ my_key: "value ⛰️ one", market: "DE", __interrupt__: [INTERRUPT("Just because...")] });
      const st = await g.getState(thread("c44"));
      expect(st.tasks.map((t) => [t.name, t.path, t.result, t.interrupts.length])).toEqual([
        ["tool_one", ["__pregel_push", 0], { my_key: " one" }, 0],
        ["tool_two", ["__pregel_pull", "tool_two"], undefined, 1],
      ]);
      expect(st.next).toEqual(["tool_two"]);
      await g.updateState(thread("c44"), null, "__end__");
      const after = await g.getState(thread("c44"));
      expect([after.values, after.next, after.tasks]).toEqual([{ my_key: "value ⛰️ one", market: "DE" }, [], []]);
    });

    it("C-45: an interrupt does not cancel its sibling, whose write is kept and not re-run", async () => {
      const g = f("InterruptSibling");
      const expected = { hello: "again", __interrupt__: [INTERRUPT("I am bad")] };
      expect(await g.invoke({ hello: "there" }, thread("c45"))).toEqual(expected);
      expect(await g.invoke(null, thread("c45"))).toEqual(expected);
      expect(calls).toEqual({ agent: 1, bad: 2 });
      expect(await g.invoke({ hello: "bye" }, thread("c45"))).toEqual(expected);
      expect(calls).toEqual({ agent: 2, bad: 3 });
    });

    it.each(["value", "map"])("C-46: two interrupts in one node, resumed in order (by %s)", async (how) => {
      const g = f("TwoInterrupts");
      const t = thread(`c46-${how}`);
      const first = await g.invoke({ myKey: "DE" }, t);
      const id = first.__interrupt__![0]!.id!;
      const resume = (v: string) => new Command({ resume: how === "map" ? { [id]: v } : v });
      expect((await g.invoke(resume("answer 1"), t)).__interrupt__).toEqual([{ id, value: "second" }]);
      expect(await g.invoke(resume(" answer 2"), t)).toEqual({ myKey: "DEanswer 1 answer 2" });
      expect(calls.ask).toBe(3);
    });

    it("C-47: five parallel subgraph interrupts, resumed by one id map", async () => {
      const g = f("FiveChildren");
      const prompts = ["a", "b", "c", "d", "e"];
      const r = await g.invoke({ prompts }, thread("c47"));
      const ints = r.__interrupt__ as { id: string; value: string }[];
      expect(ints.map((i) => i.value)).toEqual(prompts);
      expect((await g.getState(thread("c47"))).tasks.flatMap((t) => t.interrupts)).toEqual(ints);
      const answers = Object.fromEntries(ints.map((i) => [i.id, i.value]));
      expect(await g.invoke(new Command({ resume: answers }), thread("c47"))).toEqual({
        humanInputs: prompts.map((p) => `response: ${p}`),
      });
    });

    it("C-48: pending writes: the task that succeeded is not run again on resume", async () => {
      const g = f("PendingWrites");
      const t = thread("c48");
      const failed = g.invoke({ value: 1 }, t);
      // differs by design: the node's error comes wrapped in a NodeError naming graph and node
      await expect(failed).rejects.toBeInstanceOf(NodeError);
      await expect(failed).rejects.toThrow('Node "two" of graph "PendingWrites" failed: I am bad');
      expect(calls).toEqual({ one: 1, two: 2 });
      const st = await g.getState(t);
      expect(st.next).toEqual(["two"]);
      expect(st.values).toEqual({ value: 3 });
      expect(st.tasks.find((x) => x.name === "two")!.error).toEqual({ message: "I am bad", name: "Error" });
      expect(st.metadata).toMatchObject({ source: "loop", step: 0 });
      expect((await g.getState(st.config)).values).toEqual({ value: 1 });
      await expect(g.invoke(null, t)).rejects.toThrow("I am bad");
      expect(calls).toEqual({ one: 1, two: 4 });
      fixes.two = true;
      expect(await g.invoke(null, t)).toEqual({ value: 6 });
      expect(await history(g, "c48")).toHaveLength(3);
    });

    it.each(["sync", "async", "exit"] as const)("C-49: checkpoint recovery (durability %s)", async (durability) => {
      const g = f("Recovery");
      const t = { ...thread(`c49-${durability}`), durability };
      await expect(g.invoke({}, t)).rejects.toThrow("Simulated failure");
      expect(await g.invoke({ steps: ["start"], attempt: 1 }, t)).toEqual({ steps: ["start", "node1", "node2"], attempt: 1 });
      const h = await history(g, `c49-${durability}`);
      expect(steps(h)).toEqual(
        durability === "exit"
          ? [
              ["loop", 4],
              ["loop", 0],
            ]
          : [
              ["loop", 4],
              ["loop", 3],
              ["loop", 2],
              ["input", 1],
              ["loop", 0],
              ["input", -1],
            ],
      );
      expect(h[0]!.values).toEqual({ steps: ["start", "node1", "node2"], attempt: 1 });
      const failedAt = h.find((s) => s.metadata?.step === 0)!;
      expect(failedAt.tasks[0]).toMatchObject({ name: "node1", error: { message: "Simulated failure", name: "Error" } });
      if (durability !== "exit") expect(h.at(-1)!.values).toEqual({ steps: [] });
    });

    it("C-50: replay re-runs only what follows the checkpoint; the last one runs nothing; updateState forks", async () => {
      const g = f("ReplayFork");
      const t = thread("c50");
      expect(await g.invoke({}, t)).toEqual({ value: ["a", "b"] });
      const h = await history(g, "c50");
      const beforeB = h.find((s) => s.next[0] === "node_b")!;
      for (const k of Object.keys(calls)) delete calls[k];
      expect(await g.invoke(null, beforeB.config)).toEqual({ value: ["a", "b"] });
      expect(calls).toEqual({ node_b: 1 });
      const h2 = await history(g, "c50");
      expect(h2.slice(0, 2).map((s) => s.metadata?.source)).toEqual(["loop", "fork"]);
      expect(h2[1]!.parentConfig?.configurable?.checkpoint_id).toBe(beforeB.config.configurable?.checkpoint_id);
      expect(h2).toHaveLength(h.length + 2);
      await g.invoke(null, h[0]!.config);
      expect(calls).toEqual({ node_b: 1 });
      const fork = await g.updateState(beforeB.config, { value: ["x"] });
      expect(await g.invoke(null, fork)).toEqual({ value: ["a", "x", "b"] });
    });

    it("C-40: a Command input routes to an interrupting node; resume with an update", async () => {
      const g = f("GotoInterrupt");
      const t = thread("c40");
      expect(await g.invoke({ messages: ["input"] }, t)).toEqual({ messages: ["input"] });
      expect((await g.getState(t)).next).toEqual([]);
      await g.invoke(new Command({ goto: "interrupt", update: { messages: ["update"] } }), t);
      let st = await g.getState(t);
      expect([st.next, st.values]).toEqual([["interrupt"], { messages: ["input", "update"] }]);
      await g.invoke(new Command({ resume: "resume", update: { messages: ["update: resume"] } }), t);
      st = await g.getState(t);
      expect(st.values).toEqual({ messages: ["input", "update", "update: resume", "interrupt: resume"] });
    });

    it("C-41: a declared breakpoint, resumed by a Command update", async () => {
      const g = f("Breakpoint");
      expect(await g.invoke({ foo: "abc" }, thread("c41"))).toEqual({ foo: "abc", __interrupt__: [] });
      expect(await g.invoke(new Command({ update: { foo: "def" } }), thread("c41"))).toEqual({ foo: "def|node-1|node-2" });
    });
  });

  describe("checkpointer halves of groups A, C and D", () => {
    it("C-4: the history of undefined writes", async () => {
      const g = on("a-channels", "UndefinedValues");
      expect(await g.invoke({}, thread("c4"))).toEqual({ reducerField: "should not be wiped" });
      const h = await history(g, "c4");
      expect(h.map((s) => [s.values, s.next, s.metadata?.source, s.metadata?.step])).toEqual([
        [{ reducerField: "should not be wiped" }, [], "loop", 2],
        [{ test: "test", reducerField: "should not be wiped" }, ["wipeFields"], "loop", 1],
        [{ reducerField: "" }, ["updateTest"], "loop", 0],
        [{ reducerField: "" }, ["__start__"], "input", -1],
      ]);
      expect("test" in h[0]!.values).toBe(true);
    });

    it("C-21: interrupt before a deferred node; updateState; resume", async () => {
      const g = on("c-edges", "DeferJoin");
      const chunks = await collect(g.stream({ query: "what is weather in sf" }, { ...thread("c21"), interruptBefore: ["qa"] }));
      expect(chunks.at(-1)).toEqual({ __interrupt__: [] });
      await g.updateState(thread("c21"), { docs: ["doc5"] });
      const st = await g.getState(thread("c21"));
      expect(st.values.docs).toEqual(["doc1", "doc2", "doc3", "doc4", "doc5"]);
      expect(st.next).toEqual(["qa"]);
      expect(st.metadata).toMatchObject({ source: "update", step: 4 });
      expect(await collect(g.stream(null, thread("c21")))).toEqual([{ qa: { answer: "doc1,doc2,doc3,doc4,doc5" } }]);
    });

    it("C-22: interrupt after retriever_one; the resume runs only the final qa", async () => {
      const g = on("c-edges", "WaitingPlusPlain");
      const first = await collect(g.stream({ query: "what is weather in sf" }, { ...thread("c22"), interruptAfter: ["retriever_one"] }));
      expect(first.at(-1)).toEqual({ __interrupt__: [] });
      expect(await collect(g.stream(null, thread("c22")))).toEqual([{ qa: { answer: "doc1,doc2,doc3,doc4" } }]);
    });

    it("C-29: interrupt before the chosen entry", async () => {
      const g = on("c-edges", "StartBranch");
      const t = { ...thread("c29"), interruptBefore: ["tool_two_slow"] };
      expect(await g.invoke({ my_key: "value", market: "DE" }, t)).toEqual({ my_key: "value", market: "DE", __interrupt__: [] });
      expect(steps(await history(g, "c29"))).toEqual([
        ["loop", 0],
        ["input", -1],
      ]);
      expect((await g.getState(thread("c29"))).next).toEqual(["tool_two_slow"]);
      expect(await g.invoke(null, thread("c29"))).toEqual({ my_key: "value slow", market: "DE" });
    });

    it("C-33 differs by design: a Send carrying a Command cannot be checkpointed (plain data only)", async () => {
      const g = on("d-send", "SendSequences");
      const run = g.invoke({ items: ["0"] }, { ...thread("c33"), interruptBefore: ["n3_1"] });
      await expect(run).rejects.toMatchObject({ name: "CheckpointError", code: "UNSERIALIZABLE_VALUE" });
      await expect(run).rejects.toThrow(/__pregel_tasks.*instance of class Command/);
    });
  });
}
