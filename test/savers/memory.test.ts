import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MemorySaver, MemoryStore, compareCodePoints } from "../../runtime/checkpoint/memory.ts";
import { type WriteRow, flatText } from "../../runtime/checkpoint/stored-saver.ts";
import { roundTrip } from "../../runtime/checkpoint/serde.ts";
import { cfg, checkpoint, meta, saverConformance } from "./conformance.ts";
import { runMessagesThread } from "./messages-thread.ts";

saverConformance(
  "MemorySaver",
  async () => {
    const saver = new MemorySaver();
    return { saver, storedSize: async () => saver.storedChars() };
  },
  false,
);

describe("MemorySaver specifics", () => {
  it("stores a 400-message thread in a few times the size of its final state", async () => {
    const saver = new MemorySaver();
    const last = await runMessagesThread(saver, "t", 400);
    const finalState = JSON.stringify(last.checkpoint.channel_values).length;
    // every message is stored once in deltas plus geometric snapshots; LangGraph's layout is ~400× here
    expect(saver.storedChars()).toBeLessThan(6 * finalState);
  });

  it("keeps the header and metadata texts exactly as given (flattened in place)", async () => {
    // JSON text never holds a raw NUL (JSON.stringify escapes it), but a store takes any text; a tree of
    // concatenated pieces (what JSON.stringify returns) reads back the same
    const texts = [
      "",
      "a",
      "\0",
      "x\0y",
      '{"v":1,"ts":"2026-12-02T13:00:00.000Z"}',
      JSON.stringify({ k: "é\u0301 \ud83d\ude00" }),
      JSON.stringify({ v: 1, cv: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`branch:to:n${i}`, i])) }),
    ];
    for (const t of texts) expect(flatText(t)).toBe(t);
    const store = new MemoryStore();
    for (const [i, header] of texts.entries()) {
      const metadata = header + "|" + i;
      const row = { thread_id: "t", checkpoint_ns: "", checkpoint_id: `id${i}`, parent_id: null, header, metadata };
      store.insert(row, []);
      expect(await store.get("t", "", `id${i}`)).toEqual(row);
    }
  });

  it("keeps a root loop checkpoint's metadata as its step, and reads every metadata back exactly as given", async () => {
    const metadatas: [metadata: Record<string, unknown>, keptAsStep: boolean][] = [
      [{ source: "loop", step: 7, parents: {} }, true],
      [{ source: "loop", step: -1, parents: {} }, true],
      [{ source: "loop", step: 2 ** 31 - 1, parents: {} }, true],
      [{ source: "loop", step: 2 ** 31, parents: {} }, false],
      [{ source: "input", step: -1, parents: {} }, false],
      [{ step: 7, source: "loop", parents: {} }, false],
      [{ source: "loop", step: 7, parents: {}, writes: { n1: { count: 1 } } }, false],
      [{ source: "loop", step: 7, parents: { "": "01a2" } }, false],
      [{ source: "loop", step: -0, parents: {} }, false],
      [{ source: "loop", step: 1.5, parents: {} }, false],
      [{ source: "loop", step: 7, parents: Object.create(null) as object }, false],
      [{ source: "loop", step: 7, parents: { $g: 1 } }, false],
      [{ source: "loop", step: 7, parents: [] }, false],
      // keys JSON leaves out (non-enumerable, symbols) do not stop it; its text has none of them either
      [Object.defineProperty({ source: "loop", step: 7, parents: {} }, "hidden", { value: 1 }), true],
      [{ source: "loop", step: 7, parents: { [Symbol("s")]: 1 } }, true],
    ];
    const saver = new MemorySaver();
    const store = (saver as unknown as { store: MemoryStore }).store;
    const rows = (store as unknown as { threads: Map<string, Map<string, { rows: Map<string, { metadata: unknown }> }>> }).threads;
    for (const [i, [metadata, keptAsStep]] of metadatas.entries()) {
      const thread = `m${i}`;
      const expected = roundTrip(metadata);
      await saver.put(cfg(thread), checkpoint({ x: i }), metadata as never, {});
      // changing the caller's object afterwards changes nothing stored
      (metadata.parents as Record<string, string>)["later"] = "x";
      const got = (await saver.getTuple(cfg(thread)))!.metadata;
      expect(got).toEqual(expected);
      expect(Object.keys(got)).toEqual(Object.keys(expected));
      expect(Object.is(got.step, expected.step)).toBe(true);
      const kept = [...rows.get(thread)!.get("")!.rows.values()][0]!.metadata;
      expect(typeof kept, JSON.stringify(metadata)).toBe(keptAsStep ? "number" : "string");
    }
    // history filters see the same metadata
    const listed = [];
    for await (const t of saver.list({ configurable: { thread_id: "m0" } }, { filter: { source: "loop", step: 7 } })) listed.push(t);
    expect(listed.map((t) => t.metadata)).toEqual([{ source: "loop", step: 7, parents: {} }]);
    const sizes = new MemorySaver();
    await sizes.put(cfg("s"), checkpoint({ x: 1 }), meta(12), {});
    // storedChars counts the text the step stands for
    const header = (await (sizes as unknown as { store: MemoryStore }).store.get("s", "", undefined))!;
    expect(sizes.storedChars()).toBe(header.header.length + JSON.stringify(meta(12)).length);
  });

  // MemoryStore keeps one task's writes in one list and several tasks' in a list per task, and searches
  // only a task's earlier calls for a row whose idx is above those before it in its call
  it("property: pending writes follow the store contract, whatever the calls (tasks, order, repeats, orphans)", async () => {
    const row = fc.record({
      task_id: fc.constantFrom("a", "b", "c", ""),
      idx: fc.integer({ min: -4, max: 3 }),
      channel: fc.constantFrom("x", "y", "__interrupt__"),
      value: fc.string({ maxLength: 3 }),
    });
    const call = fc.record({ id: fc.constantFrom("c1", "c2"), rows: fc.array(row, { maxLength: 6 }), insertAfter: fc.boolean() });
    await fc.assert(
      fc.asyncProperty(fc.array(call, { maxLength: 12 }), async (calls) => {
        const store = new MemoryStore();
        // the contract, naively: a row with idx < 0 replaces the same (task_id, idx), others are kept first
        const model = new Map<string, WriteRow[]>();
        for (const { id, rows, insertAfter } of calls) {
          store.putWrites("t", "", id, rows);
          const kept = model.get(id) ?? [];
          for (const r of rows) {
            const at = kept.findIndex((k) => k.task_id === r.task_id && k.idx === r.idx);
            if (at < 0) kept.push({ ...r });
            else if (r.idx < 0) kept[at] = { ...r };
          }
          model.set(id, kept);
          // writes put before their checkpoint are kept until it is (and after)
          if (insertAfter) store.insert({ thread_id: "t", checkpoint_ns: "", checkpoint_id: id, parent_id: null, header: "{}", metadata: "{}" }, []);
        }
        for (const [id, kept] of model) {
          const sorted = [...kept].sort((p, q) => compareCodePoints(p.task_id, q.task_id) || p.idx - q.idx);
          expect(await store.writes("t", "", id)).toEqual(sorted);
        }
      }),
      { numRuns: 400 },
    );
  });

  it("a fan-out's writes against one checkpoint: every task's rows kept, one call of many rows too", async () => {
    const store = new MemoryStore();
    const sends = Array.from({ length: 3000 }, (_, i): WriteRow => ({ task_id: "plan", idx: i, channel: "__pregel_tasks", value: String(i) }));
    store.putWrites("t", "", "c", sends);
    for (let i = 0; i < 3000; i++) {
      store.putWrites("t", "", "c", [
        { task_id: `w${String(i).padStart(4, "0")}`, idx: 0, channel: "results", value: `[${i}]` },
        { task_id: `w${String(i).padStart(4, "0")}`, idx: -3, channel: "__interrupt__", value: "1" },
      ]);
    }
    // a task putting its writes again: idx ≥ 0 kept first, idx < 0 replaced
    store.putWrites("t", "", "c", [
      { task_id: "w0007", idx: 0, channel: "results", value: "ignored" },
      { task_id: "w0007", idx: -3, channel: "__interrupt__", value: "2" },
    ]);
    const rows = await store.writes("t", "", "c");
    expect(rows).toHaveLength(9000);
    expect(rows.filter((r) => r.task_id === "plan").map((r) => r.value)).toEqual(sends.map((r) => r.value));
    expect(rows.filter((r) => r.task_id === "w0007")).toEqual([
      { task_id: "w0007", idx: -3, channel: "__interrupt__", value: "2" },
      { task_id: "w0007", idx: 0, channel: "results", value: "[7]" },
    ]);
  });

  it("is independent per instance", async () => {
    const a = new MemorySaver();
    const b = new MemorySaver();
    await a.put(cfg("t"), checkpoint({ x: 1 }), meta(-1), {});
    expect(await b.getTuple(cfg("t"))).toBeUndefined();
  });
});

describe("code point order", () => {
  it("orders strings as SQLite and Postgres (C) do, astral characters after U+FFFF", () => {
    const sorted = ["b", "a", "\u{1F600}", "\uFFFF", "ab", "", "\uE000"].sort(compareCodePoints);
    expect(sorted).toEqual(["", "a", "ab", "b", "\uE000", "\uFFFF", "\u{1F600}"]);
    expect(compareCodePoints("x\u{1F600}", "x\uFFFF")).toBe(1);
    expect(compareCodePoints("same", "same")).toBe(0);
  });
});
