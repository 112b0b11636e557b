import { describe, expect, it } from "vitest";
import { MemorySaver, MemoryStore, compareCodePoints } from "../../runtime/checkpoint/memory.ts";
import { flatText } from "../../runtime/checkpoint/stored-saver.ts";
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

  it("keeps the header and metadata texts exactly as given (flat copies; a text holding the separator as it is)", async () => {
    // JSON text never holds a raw NUL (JSON.stringify escapes it), but a store takes any text
    const texts = ["", "a", "\0", "x\0y", '{"v":1,"ts":"2026-12-02T13:00:00.000Z"}', JSON.stringify({ k: "é\u0301 \ud83d\ude00" })];
    for (const t of texts) expect(flatText(t)).toBe(t);
    const store = new MemoryStore();
    for (const [i, header] of texts.entries()) {
      const metadata = header + "|" + i;
      const row = { thread_id: "t", checkpoint_ns: "", checkpoint_id: `id${i}`, parent_id: null, header, metadata };
      store.insert(row, []);
      expect(await store.get("t", "", `id${i}`)).toEqual(row);
    }
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
