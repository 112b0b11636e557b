/** Reference §8 group G with a checkpointer (C-36 … C-38, C-52 … C-57), against one saver. */
import { beforeEach, describe, expect, it } from "vitest";
import { Command, type CheckpointSaver, type StateSnapshot } from "@graphc/runtime";
import { collect, graph } from "../context.ts";
import { runs } from "../graphs/g-nested.nodes.ts";

const thread = (id: string) => ({ configurable: { thread_id: id } });
const ASK = (value: string) => [{ id: expect.stringMatching(/^[0-9a-f]{32}$/), value }];

export function nested(saver: () => CheckpointSaver): void {
  const g = (name: string) => graph("g-nested", name).withConfig({ checkpointer: saver() });

  describe("G. subgraphs with a checkpointer", () => {
    beforeEach(() => {
      runs.length = 0;
    });

    it.each(["sync", "async", "exit"] as const)(
      "C-52 / C-54: an interrupt in a subgraph surfaces at the root and resumes in place (durability %s)",
      async (durability) => {
        const outer = g("OuterAsk");
        const t = { ...thread(`c52-${durability}`), durability };
        const r = await outer.invoke({ myKey: "my value" }, t);
        expect(r).toEqual({ myKey: "hi my value", __interrupt__: ASK("continue?") });
        const st = await outer.getState(t, { subgraphs: true });
        expect(st.next).toEqual(["inner"]);
        expect(st.tasks[0]!.interrupts).toEqual(r.__interrupt__);
        const child = st.tasks[0]!.state as StateSnapshot;
        expect(child.values).toEqual({ myKey: "hi my value here", myOtherKey: "hi my value" });
        expect(child.next).toEqual(["inner2"]);
        expect(child.config.configurable?.checkpoint_ns).toMatch(/^inner:[0-9a-f-]{36}$/);
        expect(child.metadata?.parents?.[""]).toBe(st.config.configurable?.checkpoint_id);
        // without { subgraphs: true } the task's state is the child's config, usable for its history
        const plain = await outer.getState(t);
        const childConfig = plain.tasks[0]!.state as { configurable: { checkpoint_ns: string } };
        expect(childConfig.configurable.checkpoint_ns).toBe(child.config.configurable?.checkpoint_ns);
        const childHistory = (await collect(outer.getStateHistory(childConfig))) as StateSnapshot[];
        expect(childHistory[0]!.values).toEqual(child.values);
        expect(await outer.invoke(new Command({ resume: "there" }), t)).toEqual({
          myKey: "hi my value here and there and back again",
        });
        expect(runs).toEqual(["outer1", "inner1", "inner2", "inner2", "outer2"]);
      },
    );

    it("C-52: with subgraphs: true the interrupt is reported at every level with the same id", async () => {
      const chunks = (await collect(g("OuterAsk").stream({ myKey: "v" }, { ...thread("c52-ns"), subgraphs: true }))) as [
        string[],
        Record<string, unknown>,
      ][];
      const ints = chunks.filter(([, p]) => "__interrupt__" in p);
      expect(ints.map(([ns]) => ns.length)).toEqual([1, 0]);
      expect(ints[0]![0][0]).toMatch(/^inner:/);
      expect(ints[0]![1]).toEqual(ints[1]![1]);
      expect(chunks[0]).toEqual([[], { outer1: { myKey: "hi v" } }]);
    });

    it("C-53: doubly nested: the values stream stops at the interrupt and continues in place", async () => {
      const d = g("Doubly");
      const t = { ...thread("c53"), streamMode: "values" as const };
      expect(await collect(d.stream({ myKey: "my value" }, t))).toEqual([
        { myKey: "my value" },
        { myKey: "hi my value" },
        { __interrupt__: ASK("ok?") },
      ]);
      expect(await collect(d.stream(new Command({ resume: "there" }), t))).toEqual([
        { myKey: "hi my value" },
        { myKey: "hi my value here and there" },
        { myKey: "hi my value here and there and back again" },
      ]);
      expect(runs).toEqual(["p1", "c1", "g1", "g2", "g2", "p3"]);
    });

    it("C-55: Send into a subgraph that stops before a node; update one child; resume", async () => {
      const j = g("JokeSends");
      const t = thread("c55");
      expect(await j.invoke({ subjects: ["cats", "dogs"] }, t)).toEqual({ subjects: ["cats", "dogs"], jokes: [], __interrupt__: [] });
      const st = await j.getState(t, { subgraphs: true });
      expect(st.tasks.map((x) => x.path)).toEqual([
        ["__pregel_push", 0],
        ["__pregel_push", 1],
      ]);
      const kids = st.tasks.map((x) => x.state as StateSnapshot);
      expect(kids.map((k) => k.values)).toEqual([
        { subject: "cats - hohoho", jokes: [] },
        { subject: "dogs - hohoho", jokes: [] },
      ]);
      await j.updateState(kids[1]!.config, { subject: "turtles - hohoho" });
      expect((await j.invoke(null, t)).jokes).toEqual(["Joke about cats - hohoho", "Joke about turtles - hohoho"]);
    });

    it("C-57: interrupt and resume inside a subgraph", async () => {
      const m = g("MessagesAsk");
      const t = thread("c57");
      await m.invoke({}, t);
      const st = await m.getState(t);
      expect(st.tasks[0]!.interrupts).toEqual(ASK("say what?"));
      await m.invoke(new Command({ resume: "<RESUMED>" }), t);
      const done = await m.getState(t);
      expect(done.tasks).toEqual([]);
      expect(done.values.messages).toEqual([{ id: "m1", role: "ai", content: "<RESUMED>" }]);
    });

    it("C-36: Command.PARENT from a tool updates a parent field", async () => {
      const p = g("ParentFromTool");
      const t = thread("c36");
      const human = { id: "h1", role: "user", content: "get user name" };
      expect(await p.invoke({ messages: [human] }, t)).toEqual({ messages: [human], user_name: "Meow" });
      const st = await p.getState(t);
      expect(st.next).toEqual([]);
      expect(st.metadata).toMatchObject({ source: "loop", step: 1 });
    });

    it("C-37: Command.PARENT with goto, returned in a list", async () => {
      const p = g("ParentGotoList");
      const t = thread("c37");
      const human = { id: "h1", role: "user", content: "get user name" };
      expect(await p.invoke({ messages: [human] }, t)).toEqual({
        messages: [human, { id: "bob", role: "ai", content: "bob" }],
        user_name: "Meow",
      });
      expect((await p.getState(t)).metadata).toMatchObject({ source: "loop", step: 2 });
    });

    it("C-38: Command.PARENT from a grandchild is handled by the child's task", async () => {
      const human = { id: "h1", role: "user", content: "hi" };
      expect(await g("ParentFromGrandchild").invoke({ messages: [human] }, thread("c38"))).toEqual({
        messages: [human, { id: "gk", role: "ai", content: "grandkid" }, { id: "rb", role: "ai", content: "robert" }],
        user_name: "jeffrey",
      });
    });

    it("C-56: a stateful subgraph keeps its state across calls on one thread (namespace `inner`)", async () => {
      const loop = g("StatefulLoop");
      const t = thread("c56");
      const three = " got here and there got here and there got here and there";
      expect(await collect(loop.stream({ myKey: "" }, { ...t, subgraphs: true, streamMode: "updates" }))).toEqual([
        [["inner"], { inner_1: { myKey: " got here", myOtherKey: "" } }],
        [["inner"], { inner_2: { myKey: " and there" } }],
        [[], { inner: { myKey: " got here and there" } }],
        // the second call's input is folded into the stored child state with the child's reducer
        [["inner"], { inner_1: { myKey: " got here", myOtherKey: " got here and there got here and there" } }],
        [["inner"], { inner_2: { myKey: " and there" } }],
        [[], { inner: { myKey: three } }],
      ]);
      expect((await loop.getState(t)).values).toEqual({ myKey: three });
      // one checkpoint chain for both calls, under the namespace "inner" (no task id)
      const inner = { configurable: { thread_id: "c56", checkpoint_ns: "inner" } };
      const history = (await collect(loop.getStateHistory(inner))) as StateSnapshot[];
      expect(history.map((s) => s.metadata?.step)).toEqual([6, 5, 4, 3, 2, 1, 0, -1]);
      expect(history[0]!.values).toEqual({ myKey: three, myOtherKey: " got here and there got here and there" });
    });
  });
}
