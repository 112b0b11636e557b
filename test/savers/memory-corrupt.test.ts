/**
 * MemorySaver reports damaged stored text as SQL savers do (defect 4 of issue 8). Its rows live in the
 * process, so the test reaches into the store to damage them, then reads through a second saver over the
 * same store (no cached head: the rows are really read back).
 */
import { describe, expect, it } from "vitest";
import { MemorySaver, type MemoryStore } from "../../runtime/checkpoint/memory.ts";
import { StoredSaver } from "../../runtime/checkpoint/stored-saver.ts";
import type { BlobRow } from "../../runtime/checkpoint/delta.ts";
import { CORRUPTIONS, expectCorrupt, seed } from "./corrupt-cases.ts";

interface StoredLike {
  header: string;
  blobs: BlobRow | BlobRow[] | null;
  writes: (string | number)[] | null;
}
type Rows = Map<string, Map<string, { rows: Map<string, StoredLike> }>>;

async function seeded() {
  const saver = new MemorySaver();
  const s = await seed(saver, "mem");
  const store = (saver as unknown as { store: MemoryStore }).store;
  const rows = (store as unknown as { threads: Rows }).threads.get("mem")!.get("")!.rows;
  return { s, rows, reader: new StoredSaver(store) };
}

const blobsOf = (row: StoredLike): BlobRow[] => (row.blobs === null ? [] : Array.isArray(row.blobs) ? row.blobs : [row.blobs]);
const caseNamed = (name: string) => CORRUPTIONS.find((c) => c.name === name)!;

describe("MemorySaver on corrupted stored text", () => {
  it("a blob whose base is its own checkpoint: CORRUPT_CHECKPOINT, not an endless walk", async () => {
    const { s, rows, reader } = await seeded();
    const blob = blobsOf(rows.get(s.ids[2])!).find((b) => b.channel === "messages")!;
    blob.base = s.ids[2];
    await expectCorrupt(reader, s, caseNamed("a blob whose base is its own checkpoint"));
  });

  it("a non-JSON header", async () => {
    const { s, rows, reader } = await seeded();
    rows.get(s.ids[2])!.header = "not json {";
    await expectCorrupt(reader, s, caseNamed("a non-JSON header"));
  });

  it("a non-JSON pending write", async () => {
    const { s, rows, reader } = await seeded();
    rows.get(s.ids[2])!.writes![3] = "{oops";
    await expectCorrupt(reader, s, caseNamed("a non-JSON pending write"));
  });

  it("an object where the chain's full array should be", async () => {
    const { s, rows, reader } = await seeded();
    blobsOf(rows.get(s.ids[0])!).find((b) => b.channel === "messages")!.data = '{"a":1}';
    await expectCorrupt(reader, s, caseNamed("an object where the chain's full array should be"));
  });
});
