/**
 * LangGraph.js test scenarios as .graph programs (graphs/lg-ported.graph), each run next to the LangGraph.js
 * program of the test it ports (LangGraph 1.7.3, its own MemorySaver) and compared on what the test checks.
 * Runs on every graphc saver.
 */
import { Annotation, Command as LgCommand, END, MemorySaver as LgMemorySaver, START, Send as LgSend, StateGraph, interrupt } from "@langchain/langgraph";
import { beforeEach, describe, expect, it } from "vitest";
import { Command, type CheckpointSaver, type RunnableConfig, type StateSnapshot } from "@graphc/runtime";
import { collect, graph } from "../context.ts";
import { counters } from "../graphs/lg-ported.nodes.ts";

interface Side {
  invoke(input: unknown, cfg: object): Promise<unknown>;
  getState(cfg: object, opts?: { subgraphs?: boolean }): Promise<StateSnapshot>;
  getStateHistory(cfg: object): AsyncIterable<StateSnapshot>;
  updateState(cfg: object, values: unknown, asNode?: string): Promise<RunnableConfig>;
  bulkUpdateState(cfg: object, steps: { updates: { values: unknown; asNode?: string }[] }[]): Promise<RunnableConfig>;
}
// the saver is shared by every case of a run: each case keeps to threads of its own
let prefix = "";
const thread = (id: string) => ({ configurable: { thread_id: `${prefix}${id}` } });
const history = async (g: Side, cfg: object) => (await collect(g.getStateHistory(cfg))) as StateSnapshot[];

/** a thread's history as the tree of forks, as pregel.test.ts's getTree draws it: checkpoints' values, tasks' results */
function tree(h: StateSnapshot[]): unknown {
  const children = new Map<string | undefined, StateSnapshot[]>();
  for (const s of [...h].reverse()) {
    const parent = s.parentConfig?.configurable?.checkpoint_id as string | undefined;
    children.set(parent, [...(children.get(parent) ?? []), s]);
  }
  const walk = (s: StateSnapshot): unknown[] => {
    const own: unknown[] = [["checkpoint", s.values], ...s.tasks.map((t) => ["task", t.name, t.result])];
    const next = children.get(s.config.configurable?.checkpoint_id as string) ?? [];
    if (next.length === 1) return [...own, ...walk(next[0]!)];
    return next.length > 1 ? [...own, next.map(walk)] : own;
  };
  const roots = children.get(undefined) ?? [];
  return roots.length === 1 ? walk(roots[0]!) : roots.map(walk);
}

export function ported(saver: () => CheckpointSaver): void {
  const on = (name: string) => graph("lg-ported", name).withConfig({ checkpointer: saver() }) as unknown as Side;

  describe("LangGraph.js tests ported as .graph programs", () => {
    beforeEach((ctx) => {
      prefix = `${ctx.task.name}:`;
      counters.two = 0;
      counters.called.length = 0;
    });

    it('pregel.test.ts "should handle bulk state updates"', async () => {
      const S = Annotation.Root({ foo: Annotation<string>, baz: Annotation<string> });
      const lgSaver = new LgMemorySaver();
      const lg = new StateGraph(S)
        .addNode("nodeA", () => ({ foo: "bar" }))
        .addNode("nodeB", () => ({ baz: "qux" }))
        .addEdge(START, "nodeA")
        .addEdge("nodeA", "nodeB")
        .compile({ checkpointer: lgSaver }) as unknown as Side;
      const steps = [{ updates: [{ values: { foo: "bar" }, asNode: "nodeA" }] }, { updates: [{ values: { foo: "updated" }, asNode: "nodeA" }, { values: { baz: "new" }, asNode: "nodeB" }] }];
      const seen: unknown[] = [];
      for (const g of [lg, on("BulkUpdates")]) {
        await g.bulkUpdateState(thread("1"), [steps[0]!]);
        await g.bulkUpdateState(thread("1"), [steps[1]!]);
        await g.bulkUpdateState(thread("2"), steps);
        const sides = [];
        for (const t of ["1", "2"]) sides.push([(await g.getState(thread(t))).values, (await history(g, thread(t))).map((s) => [s.values, s.next, s.metadata?.step])]);
        seen.push(sides);
      }
      expect(seen[1]).toEqual(seen[0]);
      expect((seen[1] as unknown[][])[0]![0]).toEqual({ foo: "updated", baz: "new" });
    });

    it('pregel.test.ts "fork and update task results"', async () => {
      let twoCount = 0;
      const lg = new StateGraph(Annotation.Root({ name: Annotation<string>({ reducer: (a, b) => [a, b].join(" > ") }) }))
        .addNode("one", () => new LgCommand({ goto: [new LgSend("two", {})], update: { name: "one" } }), { ends: ["two"] })
        .addNode("two", () => ({ name: `two ${++twoCount}` }))
        .addNode("three", () => ({ name: "three" }))
        .addEdge(START, "one")
        .addEdge("one", "two")
        .addEdge("two", "three")
        .addEdge("three", END)
        .compile({ checkpointer: new LgMemorySaver() }) as unknown as Side;
      const trees: unknown[] = [];
      for (const g of [lg, on("ForkTaskResults")]) {
        await g.invoke({ name: "start" }, thread("1"));
        let h = await history(g, thread("1"));
        const runs = [tree(h)];
        // fork the input, then fork task `one` of the forked branch
        await g.invoke(null, await g.updateState(h[4]!.config, [[{ name: "start*" }, "__start__"]], "__copy__"));
        h = await history(g, thread("1"));
        runs.push(tree(h));
        await g.invoke(null, await g.updateState(h[3]!.config, [[{ name: "one*" }, "one"]], "__copy__"));
        runs.push(tree(await history(g, thread("1"))));
        trees.push(runs);
      }
      expect(trees[1]).toEqual(trees[0]);
    });

    it('time_travel.test.ts "should time travel to subgraph checkpoint at first interrupt"', async () => {
      const S = Annotation.Root({ value: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }) });
      const lgCalled: string[] = [];
      const ask = (n: number) => () => {
        lgCalled.push(`ask_${n}`);
        return { value: [`ask_${n}:${interrupt(`Question ${n}?`) as string}`] };
      };
      const executor = new StateGraph(S)
        .addNode("step_a", () => (lgCalled.push("step_a"), { value: ["step_a_done"] }))
        .addNode("ask_1", ask(1))
        .addNode("ask_2", ask(2))
        .addEdge(START, "step_a")
        .addEdge("step_a", "ask_1")
        .addEdge("ask_1", "ask_2")
        .addEdge("ask_2", END)
        .compile({ checkpointer: true });
      const lg = new StateGraph(S).addNode("executor", executor).addEdge(START, "executor").compile({ checkpointer: new LgMemorySaver() }) as unknown as Side;
      const sides: [Side, string[], (v: string) => unknown][] = [
        [lg, lgCalled, (v) => new LgCommand({ resume: v })],
        [on("SubgraphTimeTravel"), counters.called, (v) => new Command({ resume: v })],
      ];
      const seen: unknown[] = [];
      for (const [g, called, resume] of sides) {
        await g.invoke({ value: [] }, thread("t"));
        const sub = (await g.getState(thread("t"), { subgraphs: true })).tasks[0]!.state as StateSnapshot;
        await g.invoke(resume("answer_1"), thread("t"));
        const done = await g.invoke(resume("answer_2"), thread("t"));
        called.length = 0;
        const replay = await g.invoke(null, sub.config);
        const replayCalled = [...called];
        called.length = 0;
        const forked = await g.invoke(null, await g.updateState(sub.config, { value: ["forked"] }));
        seen.push(JSON.parse(JSON.stringify([done, replay, replayCalled, forked, [...called]], (k, v: unknown) => (k === "id" ? "ID" : v))));
      }
      expect(seen[1]).toEqual(seen[0]);
      expect((seen[1] as unknown[])[2]).toEqual(["ask_1"]);
    });

    it('pregel.test.ts "should interrupt and resume with Command inside a subgraph", run by a node (`uses`, ctx.run)', async () => {
      const S = Annotation.Root({ value: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }) });
      const sub = new StateGraph(S)
        .addNode("ask", () => ({ value: [`approved:${interrupt("approve?") as string}`] }))
        .addEdge(START, "ask")
        .addEdge("ask", END)
        .compile();
      const P = Annotation.Root({ ...S.spec, done: Annotation<string>({ reducer: (_a, b) => b, default: () => "" }) });
      const lg = new StateGraph(P)
        .addNode("call", async (_s, cfg) => ({ done: ((await sub.invoke({ value: ["in"] }, cfg)) as { value: string[] }).value.join(",") }), { subgraphs: [sub] } as never)
        .addEdge(START, "call")
        .addEdge("call", END)
        .compile({ checkpointer: new LgMemorySaver() }) as unknown as Side;
      const sides: [Side, (v: string) => unknown][] = [
        [lg, (v) => new LgCommand({ resume: v })],
        [on("RunsChild"), (v) => new Command({ resume: v })],
      ];
      const seen: unknown[] = [];
      for (const [g, resume] of sides) {
        const asked = await g.invoke({ value: [] }, thread("c"));
        const st = await g.getState(thread("c"), { subgraphs: true });
        const child = st.tasks[0]!.state as StateSnapshot;
        const chunks: unknown[] = [];
        for await (const c of await (g as unknown as { stream(i: unknown, o: object): AsyncIterable<unknown> }).stream(resume("yes"), { ...thread("c"), streamMode: "updates", subgraphs: true }))
          chunks.push(c);
        seen.push(
          JSON.parse(
            JSON.stringify([asked, st.next, child.values, child.next, chunks, (await g.getState(thread("c"))).values], (k, v: unknown) =>
              k === "id" ? "ID" : typeof v === "string" ? v.replace(/:[0-9a-f-]{36}/g, ":T") : v,
            ),
          ),
        );
      }
      expect(seen[1]).toEqual(seen[0]);
      expect((seen[1] as unknown[])[5]).toEqual({ value: [], done: "in,approved:yes" });
    });

    it('pregel.test.ts "doubly nested graph interrupts" (streams): values with and without subgraphs, debug events', async () => {
      const S = Annotation.Root({ x: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }) });
      const inner = new StateGraph(S)
        .addNode("w", () => ({ x: ["w"] }))
        .addNode("ask", () => ({ x: [interrupt("q?") as string] }))
        .addEdge(START, "w")
        .addEdge(START, "ask")
        .addEdge("w", END)
        .addEdge("ask", END)
        .compile();
      const lg = new StateGraph(S)
        .addNode("a", () => ({ x: ["a"] }))
        .addNode("b", () => ({ x: [interrupt("b?") as string] }))
        .addNode("s", inner)
        .addEdge(START, "a")
        .addEdge(START, "b")
        .addEdge(START, "s")
        .compile({ checkpointer: new LgMemorySaver() });
      type Streams = { stream(i: unknown, o: object): Promise<AsyncIterable<unknown>> | AsyncIterable<unknown> };
      const anon = (v: unknown) =>
        JSON.parse(JSON.stringify(v, (k, x: unknown) => (k === "id" && typeof x === "string" ? "ID" : typeof x === "string" ? x.replace(/:[0-9a-f-]{36}/g, ":T") : x)));
      const debugShape = (c: unknown) => {
        const e = c as { type: string; step: number; payload: { tasks?: { name: string; state?: unknown; interrupts: unknown[] }[] } };
        return [e.type, e.step, e.payload.tasks?.map((t) => [t.name, t.state !== undefined, t.interrupts.length]) ?? null];
      };
      const seen: unknown[] = [];
      for (const g of [lg as unknown as Streams, on("StreamInterrupts") as unknown as Streams]) {
        const runs: unknown[] = [];
        for (const [i, opts] of [{ streamMode: "values" }, { streamMode: "values", subgraphs: true }, { streamMode: "debug" }].entries()) {
          const chunks: unknown[] = [];
          for await (const c of await g.stream({ x: ["in"] }, { ...thread(`s${i}`), ...opts })) chunks.push(c);
          runs.push(opts.streamMode === "debug" ? chunks.map(debugShape) : anon(chunks));
        }
        seen.push(runs);
      }
      expect(seen[1]).toEqual(seen[0]);
      // every task announced before any runs; the subgraph task carries its child config as `state`
      expect((seen[1] as unknown[][])[2]![1]).toEqual(["checkpoint", 0, [["a", false, 0], ["b", false, 0], ["s", true, 0]]]);
    });
  });
}
