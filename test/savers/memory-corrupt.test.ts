/**
 * MemorySaver reports damaged stored text as SQL savers do (defect 4 of issue 8). Its records are bytes in
 * the process, so the test damages them through the store itself (a checkpoint put again with a damaged
 * field replaces it, keeping its writes; a write row is added), then reads through a second saver over the
 * same store (no cached head: the rows are really read back).
 */
import { describe, expect, it } from "vitest";
import { MemorySaver, type MemoryStore } from "../../runtime/checkpoint/memory.ts";
import { StoredSaver } from "../../runtime/checkpoint/stored-saver.ts";
import type { BlobRow } from "../../runtime/checkpoint/delta.ts";
import type { CheckpointRow } from "../../runtime/checkpoint/stored-saver.ts";
import { CORRUPTIONS, expectCorrupt, seed } from "./corrupt-cases.ts";

async function seeded() {
  const saver = new MemorySaver();
  const s = await seed(saver, "mem");
  const store = (saver as unknown as { store: MemoryStore }).store;
  /** puts checkpoint `id` again with its row and its own "messages" blob changed by `damage` */
  const replace = async (id: string, damage: (row: CheckpointRow, messages: BlobRow) => void) => {
    const row = (await store.get("mem", "", id))!;
    const messages = (await store.chains("mem", "", [["messages", id]])).get("messages")!.at(-1)!;
    damage(row, messages);
    store.insert(row, [messages]);
  };
  return { s, store, replace, reader: new StoredSaver(store) };
}

const caseNamed = (name: string) => CORRUPTIONS.find((c) => c.name === name)!;

describe("MemorySaver on corrupted stored text", () => {
  it("a blob whose base is its own checkpoint: CORRUPT_CHECKPOINT, not an endless walk", async () => {
    const { s, replace, reader } = await seeded();
    await replace(s.ids[2], (_, blob) => (blob.base = s.ids[2]));
    await expectCorrupt(reader, s, caseNamed("a blob whose base is its own checkpoint"));
  });

  it("a non-JSON header", async () => {
    const { s, replace, reader } = await seeded();
    await replace(s.ids[2], (row) => (row.header = "not json {"));
    await expectCorrupt(reader, s, caseNamed("a non-JSON header"));
  });

  it("a non-JSON pending write", async () => {
    const { s, store, reader } = await seeded();
    const [write] = await store.writes("mem", "", s.ids[2]);
    expect(write).toMatchObject({ task_id: "task-3", idx: 0, channel: "messages" });
    // a second row of the same task, read after the good one
    store.putWrites("mem", "", s.ids[2], [{ ...write!, idx: 1, value: "{oops" }]);
    await expectCorrupt(reader, s, caseNamed("a non-JSON pending write"));
  });

  it("an object where the chain's full array should be", async () => {
    const { s, replace, reader } = await seeded();
    await replace(s.ids[0], (_, blob) => (blob.data = '{"a":1}'));
    await expectCorrupt(reader, s, caseNamed("an object where the chain's full array should be"));
  });

  it("a replaced checkpoint keeps its writes and the blobs the new one does not own", async () => {
    const { s, store, replace } = await seeded();
    const before = await store.chains("mem", "", [["profile", s.ids[0]]]);
    await replace(s.ids[0], () => {});
    expect(await store.chains("mem", "", [["profile", s.ids[0]]])).toEqual(before);
    const writes = await store.writes("mem", "", s.ids[2]);
    await replace(s.ids[2], () => {});
    expect(await store.writes("mem", "", s.ids[2])).toEqual(writes);
  });
});
