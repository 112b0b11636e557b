/**
 * Owned lists (docs/runtime.md): the lean loop appends to a `messages` list in place only when nothing but
 * the loop can see it. These tests hold LangGraph's observable behaviour around that: a node that keeps
 * the list it was handed, a list a node put into the state, the caller's input and earlier results, values
 * stream events and checkpoint history never change afterwards; fan-out steps, concurrent runs and the
 * graphs the compiler must not mark (router function, custom reducer, a node reading the list) fold as before.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildFiles } from "graphc";
import { MemorySaver, type CompiledGraph, type GraphSpec, type Message } from "@graphc/runtime";
import { append, lend, messages, reclaim } from "../../runtime/reducers.ts";
import { given, givenLog, kept, keptLogs, resetSides } from "../fixtures/owned/owned.nodes.ts";

const here = dirname(fileURLToPath(import.meta.url));
const FIXTURE = join(here, "..", "fixtures", "owned");
const OUT = join(here, "..", "_tmp-owned");

type Graph = CompiledGraph<any, Record<string, any>>;
let mod: Record<string, unknown>;
const graph = (name: string) => mod[name] as Graph;
const spec = (name: string) => mod[`${name}Spec`] as GraphSpec;
const ids = (xs: readonly Message[]) => xs.map((m) => m.id);
const msg = (id: string): Message => ({ id, role: "user", content: id });
/** `k` names `p0`…: an input long enough to be lent (the lean loop lends a list from 8 items on) */
const seq = (p: string, from: number, to: number) => Array.from({ length: to - from }, (_, i) => `${p}${from + i}`);
const inputOf = () => seq("u", 0, 8).map(msg);

beforeAll(async () => {
  rmSync(OUT, { recursive: true, force: true });
  const { outputs, diagnostics } = await buildFiles([relative(process.cwd(), join(FIXTURE, "owned.graph"))], {
    outDir: relative(process.cwd(), OUT),
    rootDir: relative(process.cwd(), FIXTURE),
    typecheck: false,
  });
  expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  for (const o of outputs) {
    mkdirSync(dirname(o.path), { recursive: true });
    writeFileSync(o.path, o.text);
  }
  mod = (await import(pathToFileURL(join(OUT, "owned.graph.ts")).href)) as Record<string, unknown>;
}, 60_000);

beforeEach(() => {
  kept.length = 0;
  keptLogs.length = 0;
  given.list = undefined;
  givenLog.list = undefined;
  resetSides();
});

describe("the reducer's loan", () => {
  it("appends to an owned lent list in place and keeps the result lent", () => {
    const list = messages([], [msg("a")]);
    lend(list, true);
    const out = messages(list, [msg("b")]);
    const again = messages(out, msg("c"));
    expect(reclaim()).toBe(list);
    expect(out).toBe(list);
    expect(again).toBe(list);
    expect(ids(list)).toEqual(["a", "b", "c"]);
  });

  it("copies a candidate and owns the copy; copies every list that is not lent", () => {
    const theirs = messages([], [msg("a")]);
    lend(theirs, false);
    const copy = messages(theirs, [msg("b")]);
    expect(copy).not.toBe(theirs);
    expect(ids(theirs)).toEqual(["a"]);
    expect(messages(copy, [msg("c")])).toBe(copy);
    expect(reclaim()).toBe(copy);
    // nothing lent: a merge never changes its input
    const other = messages(copy, [msg("d")]);
    expect(other).not.toBe(copy);
    expect(ids(copy)).toEqual(["a", "b", "c"]);
    lend(copy, true);
    const elsewhere = messages(theirs, [msg("e")]);
    reclaim();
    expect(ids(theirs)).toEqual(["a"]);
    expect(ids(elsewhere)).toEqual(["a", "e"]);
  });

  it("copies when an update replaces or removes a message, and the copy stays lent", () => {
    const list = messages([], [msg("a"), msg("b")]);
    lend(list, true);
    const replaced = messages(list, [{ id: "a", content: "A" }]);
    expect(replaced).not.toBe(list);
    expect(messages(replaced, [msg("c")])).toBe(replaced);
    expect(reclaim()).toBe(replaced);
    expect(list.map((m) => m.content)).toEqual(["a", "b"]);
    expect(replaced.map((m) => m.content)).toEqual(["A", "b", "c"]);
  });

  it("appends to an owned lent list in place only where `push` gives what `concat` would", () => {
    const list = append([], ["a"]);
    lend(list, true);
    expect(append(list, ["b"])).toBe(list);
    expect(append(list, "c")).toBe(list);
    const holey = new Array<string>(2);
    holey[1] = "h";
    const copy = append(list, holey);
    expect(copy).not.toBe(list);
    expect(reclaim()).toBe(copy);
    expect(list).toEqual(["a", "b", "c"]);
    expect(copy).toHaveLength(5);
    expect(3 in copy).toBe(false);
    expect(copy[4]).toBe("h");
  });
});

describe("which fields the compiler marks owned", () => {
  it("marks a messages or append field no node reads in a graph routed by inline conditions", () => {
    expect(spec("Chat").owned).toEqual(["messages"]);
    expect(spec("Fan").owned).toEqual(["messages"]);
    expect(spec("Log").owned).toEqual(["log"]);
  });

  it("marks nothing when a node reads it, a router function gets the state, or a custom reducer runs", () => {
    expect(spec("Keeper").owned).toBeUndefined();
    expect(spec("LogKeeper").owned).toBeUndefined();
    expect(spec("Routed").owned).toBeUndefined();
    expect(spec("Custom").owned).toBeUndefined();
  });
});

describe("an owned list's run", () => {
  it("gives the same result as a copying run, leaves the input and earlier results alone", async () => {
    const input = [msg("u0")];
    const first = await graph("Chat").invoke({ messages: input, limit: 12 });
    expect(ids(first.messages)).toEqual(["u0", ...seq("m", 0, 12)]);
    const second = await graph("Chat").invoke({ messages: input, limit: 14 });
    expect(ids(second.messages)).toEqual(["u0", ...seq("m", 0, 14)]);
    expect(ids(input)).toEqual(["u0"]);
    expect(ids(first.messages)).toEqual(["u0", ...seq("m", 0, 12)]);
    // a router function: nothing owned, every merge copies; the results agree
    expect(await graph("Routed").invoke({ messages: [msg("u0")], limit: 14 })).toEqual(second);
  });

  it("never changes a list a node put into the state and kept", async () => {
    const out = await graph("Overwriter").invoke({});
    expect(ids(out.messages)).toEqual([...seq("x", 1, 10), "m2", "m3"]);
    expect(given.list).toEqual(given.copy);
    expect(ids(given.list!)).toEqual(seq("x", 1, 10));
  });

  it("never changes a list a node was handed and kept", async () => {
    const out = await graph("Keeper").invoke({ limit: 4 });
    expect(ids(out.messages)).toEqual(["m0", "m1", "m2", "m3"]);
    expect(kept.map((k) => k.list.length)).toEqual(kept.map((k) => k.length));
    expect(kept.map((k) => k.length)).toEqual([0, 1, 2, 3]);
  });

  it("folds fan-out steps (two tasks) between single-task steps in LangGraph's order", async () => {
    const out = await graph("Fan").invoke({ messages: inputOf(), limit: 3 });
    expect(ids(out.messages)).toEqual([...seq("u", 0, 8), "m0", "s1.0", "s1.1", "m1", "s2.2", "s2.3", "m2", "s3.4"]);
    // the full loop (a checkpointer) lends nothing, and agrees
    resetSides();
    const full = await graph("Fan").invoke({ messages: inputOf(), limit: 3 }, { configurable: { thread_id: "fan" }, checkpointer: new MemorySaver() });
    expect(full).toEqual(out);
  });

  it("applies a lone task's writes once, before its condition reads them, as the full loop does", async () => {
    const out = await graph("Twice").invoke({ messages: inputOf() });
    expect(spec("Twice").owned).toEqual(["messages", "log"]);
    expect(ids(out.messages)).toEqual([...seq("u", 0, 8), ...seq("m", 0, 5)]);
    expect(out.log).toEqual(["n0", "n1", "n1b", "n2", "n3", "n3b", "n4"]);
    expect(out.turns).toBe(5);
    const full = await graph("Twice").invoke({ messages: inputOf() }, { configurable: { thread_id: "twice" }, checkpointer: new MemorySaver() });
    expect(full).toEqual(out);
  });

  it("fails a lone task whose writes fail before its condition, with the full loop's error", async () => {
    const lean = await graph("Remover").invoke({ messages: inputOf() }).then(() => undefined, (e: unknown) => e);
    const full = await graph("Remover")
      .invoke({ messages: inputOf() }, { configurable: { thread_id: "remover" }, checkpointer: new MemorySaver() })
      .then(() => undefined, (e: unknown) => e);
    expect(String(lean)).toContain("Attempting to delete a message with an ID that doesn't exist ('nowhere')");
    expect(lean).toBeInstanceOf((full as Error).constructor);
    expect(String(lean)).toBe(String(full));
  });

  it("keeps concurrent runs apart", async () => {
    const limits = [9, 10, 11, 12];
    const runs = await Promise.all(limits.map((limit) => graph("AsyncChat").invoke({ limit })));
    expect(runs.map((r) => ids(r.messages))).toEqual(limits.map((limit) => seq("m", 0, limit)));
  });

  it("leaves every values stream event as it was emitted", async () => {
    const events: { messages: Message[] }[] = [];
    for await (const e of await graph("Chat").stream({ limit: 3 }, { streamMode: "values" })) events.push(e as { messages: Message[] });
    expect(events.map((e) => ids(e.messages))).toEqual([[], ["m0"], ["m0", "m1"], ["m0", "m1", "m2"]]);
  });

  it("leaves checkpoints as they were taken", async () => {
    const g = graph("Chat");
    const cfg = { configurable: { thread_id: "owned" }, checkpointer: new MemorySaver() };
    await g.invoke({ limit: 3 }, cfg);
    await g.invoke({ limit: 5 }, cfg);
    const lengths: number[] = [];
    for await (const s of g.getStateHistory(cfg)) lengths.push((s.values as { messages: Message[] }).messages.length);
    expect(lengths).toEqual([5, 4, 3, 3, 3, 2, 1, 0, 0]);
  });
});

describe("an owned append log's run", () => {
  it("gives the same result as a copying run, leaves the input and earlier results alone", async () => {
    const input = seq("in", 0, 8);
    const first = await graph("Log").invoke({ log: input });
    expect(first.log).toEqual([...input, "n0", "n1", "n2", "n3"]);
    const second = await graph("Log").invoke({ log: input, count: 10 });
    expect(second.log).toEqual([...input, "n10", "n11", "n12", "n13"]);
    expect(input).toEqual(seq("in", 0, 8));
    expect(first.log).toEqual([...input, "n0", "n1", "n2", "n3"]);
  });

  it("never changes a list a node put into the state and kept", async () => {
    const out = await graph("LogOverwriter").invoke({});
    expect(out.log).toEqual([...seq("x", 1, 10), "n2", "n3"]);
    expect(givenLog.list).toEqual(givenLog.copy);
    expect(givenLog.list).toEqual(seq("x", 1, 10));
  });

  it("never changes a list a node was handed and kept", async () => {
    const out = await graph("LogKeeper").invoke({});
    expect(out.log).toEqual(["n0", "n1", "n2"]);
    expect(keptLogs.map((k) => k.list.length)).toEqual([0, 1, 2]);
  });

  it("keeps concat's meaning: a hole stays a hole, a non-spreadable array is one element", async () => {
    const out = await graph("LogOdd").invoke({ log: seq("in", 0, 8) });
    expect(out.log).toHaveLength(13);
    expect(out.log[8]).toBe("n0");
    expect(9 in out.log).toBe(false);
    expect(out.log[10]).toBe("after a hole");
    expect(Array.isArray(out.log[11]) && out.log[11][0]).toBe("kept whole");
    expect(out.log[12]).toBe("one item");
  });
});
