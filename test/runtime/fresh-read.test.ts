/**
 * A router sees the step's state with its own task's update folded in (a copy). When that task's updates
 * are the step's only ones, the step takes the result from the router's copy instead of folding the same
 * updates again: a reducer runs once per write (a `messages` history is not copied twice per step), with
 * no result cached in module state between calls (runtime/reducers.ts has none).
 */
import { describe, expect, it } from "vitest";
import { END, compileGraph, messages, type BranchSpec, type Values } from "@graphc/runtime";
import { graph, nodeFactory } from "./helpers.ts";

describe("a router's fresh read", () => {
  it("is reused by a step with one writing task: each write is folded once, and the next node gets that very value", async () => {
    let merges = 0;
    const counted = (a: readonly unknown[] | undefined, b: unknown) => {
      merges++;
      return messages(a, b);
    };
    const routed: unknown[] = [];
    const received: unknown[] = [];
    const node = nodeFactory("G", ["messages", "turns"]);
    const loop: BranchSpec = (fresh: Values) => {
      routed.push(fresh["messages"]);
      return (fresh["turns"] as number) < 3 ? "agent" : END;
    };
    const spec = graph({
      fields: { messages: counted as never, turns: null },
      defaults: () => ({ messages: [], turns: 0 }),
      nodes: [
        node(
          "agent",
          (s: { messages: unknown[]; turns: number }) => {
            received.push(s.messages);
            return { messages: [{ id: `m${s.turns}`, content: "x" }], turns: s.turns + 1 };
          },
          { sync: true, branches: [loop] },
        ),
      ],
      start: { edges: ["agent"] },
    });
    const out = (await compileGraph(spec).invoke({})) as { messages: { id: string }[]; turns: number };
    expect(out.turns).toBe(3);
    expect(out.messages.map((m) => m.id)).toEqual(["m0", "m1", "m2"]);
    // three steps wrote `messages`: three merges (folding again in the step would make it six)
    expect(merges).toBe(3);
    // what the router saw after step k is what the node got in step k + 1, and what the run returned
    expect(received[1]).toBe(routed[0]);
    expect(received[2]).toBe(routed[1]);
    expect(out.messages).toBe(routed[2]);
  });

  it("is not reused when several tasks write in one step: each router sees only its own write, the step folds all", async () => {
    const seen: Record<string, unknown> = {};
    const node = nodeFactory("G", ["log"]);
    const saw = (name: string): BranchSpec => (fresh: Values) => {
      seen[name] = fresh["log"];
      return [];
    };
    const spec = graph({
      fields: { log: ((a: string[] | undefined, b: string[]) => [...(a ?? []), ...b]) as never },
      defaults: () => ({ log: [] }),
      nodes: [
        node("a", () => ({ log: ["a"] }), { sync: true, branches: [saw("a")] }),
        node("b", () => ({ log: ["b"] }), { sync: true, branches: [saw("b")] }),
      ],
      start: { edges: ["a", "b"] },
    });
    expect(await compileGraph(spec).invoke({})).toEqual({ log: ["a", "b"] });
    expect(seen).toEqual({ a: ["a"], b: ["b"] });
  });
});
