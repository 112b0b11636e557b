/**
 * A graph without joins hands its finished loop's channels to its next loop (Loop.finish, channels.ts
 * `Pooled`): runs of one graph that overlap must each get their own, and a graph with joins must not reuse
 * them (a barrier may end a run with part of its sources seen).
 */
import { describe, expect, it } from "vitest";
import { compileGraph } from "@graphc/runtime";
import { concat, graph, nodeFactory, sleep } from "./helpers.ts";

const node = nodeFactory("G", ["log", "pick"]);

describe("channels of a finished loop, reused", () => {
  it("gives overlapping runs of one graph their own channels", async () => {
    // d is deferred: its trigger stays in the channels while b sleeps, across other runs' steps
    const step = (name: string) => async (s: { pick: string }) => {
      if (name === "b") await sleep(s.pick.length);
      return { log: [`${s.pick}:${name}`] };
    };
    const g = compileGraph(
      graph({
        fields: { log: concat, pick: null },
        defaults: () => ({ log: [] }),
        nodes: [
          node("a", step("a"), { edges: ["b", "d"] }),
          node("b", step("b")),
          node("d", step("d"), { defer: true }),
        ],
        start: { edges: ["a"] },
      }),
    );
    expect(await g.invoke({ pick: "x" })).toEqual({ log: ["x:a", "x:b", "x:d"], pick: "x" });
    const picks = ["p", "qqqq", "rr", "sssssss", "t"];
    const outs = await Promise.all(picks.map((pick) => g.invoke({ pick })));
    expect(outs.map((o) => o.log)).toEqual(picks.map((p) => [`${p}:a`, `${p}:b`, `${p}:d`]));
  });

  it("starts a graph with joins on new channels: a barrier half seen in one run stays out of the next", async () => {
    const g = compileGraph(
      graph({
        fields: { log: concat, pick: null },
        defaults: () => ({ log: [] }),
        nodes: [
          node("x", () => ({ log: ["x"] }), { sync: true, joins: [0] }),
          node("y", () => ({ log: ["y"] }), { sync: true, joins: [0] }),
          node("z", () => ({ log: ["z"] }), { sync: true }),
        ],
        // z waits for both x and y; each run takes one of them only
        joins: [{ sources: ["x", "y"], target: "z" }],
        start: { branches: [(s) => s["pick"] as string] },
      }),
    );
    expect((await g.invoke({ pick: "x" })).log).toEqual(["x"]);
    expect((await g.invoke({ pick: "y" })).log).toEqual(["y"]);
  });
});
