import { describe, expect, it } from "vitest";
import { type BlobRow, type Head, INLINE_MAX, MAX_DEPTH, encodeCheckpoint, joinChain, parseHeader } from "../../runtime/checkpoint/delta.ts";
import type { Checkpoint } from "../../runtime/checkpoint/types.ts";

let n = 0;
function cp(values: Record<string, unknown>, versions: Record<string, number>): Checkpoint {
  return { v: 1, id: `c${String(++n).padStart(6, "0")}`, ts: "2024-01-01T00:00:00.000Z", channel_values: values, channel_versions: versions, versions_seen: {} };
}
const meta = { source: "loop" as const, step: 0, parents: {} };
const site = { thread_id: "t", checkpoint_ns: "", checkpoint_id: "c" };

/** Appends one item per step to `list`, returning every blob written (with its checkpoint id). */
function grow(steps: number, item: (i: number) => unknown): { blobs: (BlobRow & { id: string })[]; head: Head | undefined } {
  let head: Head | undefined;
  let list: unknown[] = [];
  const blobs: (BlobRow & { id: string })[] = [];
  for (let i = 0; i < steps; i++) {
    list = [...list, item(i)];
    const c = cp({ list }, { list: i + 1 });
    const out = encodeCheckpoint(c, meta, { list: i + 1 }, head);
    blobs.push(...out.blobs.map((b) => ({ ...b, id: c.id })));
    head = out.head;
  }
  return { blobs, head };
}

describe("delta layout", () => {
  it("appended lists are stored as deltas, with full snapshots at geometrically growing sizes", () => {
    const { blobs } = grow(800, (i) => ({ id: `m${i}`, text: "some message text ".repeat(5) }));
    const full = blobs.filter((b) => b.kind === 0);
    expect(blobs.filter((b) => b.kind === 1).length).toBeGreaterThan(780);
    // each snapshot is at least about twice the previous one: log2(800) of them
    expect(full.length).toBeLessThanOrEqual(11);
    for (let i = 1; i < full.length; i++) expect(full[i]!.data.length).toBeGreaterThan(1.9 * full[i - 1]!.data.length);
    // an append row holds only the new element and points at the previous checkpoint
    const last = blobs[blobs.length - 1]!;
    expect(last.kind).toBe(1);
    expect(JSON.parse(last.data)).toEqual([{ id: "m799", text: "some message text ".repeat(5) }]);
    expect(last.base).toBe(blobs[blobs.length - 2]!.id);
  });

  it("joinChain rebuilds the value from a snapshot and its appends", () => {
    const { blobs, head } = grow(100, (i) => i % 3 === 0 ? { i } : `item ${i}`);
    const byId = new Map(blobs.map((b) => [b.id, b]));
    const chain: BlobRow[] = [];
    let b = blobs[blobs.length - 1];
    while (b !== undefined) {
      chain.unshift(b);
      b = b.kind === 1 ? byId.get(b.base!) : undefined;
    }
    const owner = blobs[blobs.length - 1]!.id;
    const site = { thread_id: "t", checkpoint_ns: "", checkpoint_id: owner, channel: "list" };
    expect(joinChain(chain, site, owner)).toBe(head!.channels.get("list")!.json);
    expect(() => joinChain(chain.slice(1), site, owner)).toThrow(/lost its full snapshot/);
  });

  it("caps a chain at MAX_DEPTH rows even when the appends are tiny", () => {
    const { blobs } = grow(MAX_DEPTH + 200, (i) => (i === 0 ? "x".repeat(100_000) : 1));
    const depths = blobs.map((b) => b.depth);
    expect(Math.max(...depths)).toBe(MAX_DEPTH);
    expect(blobs[MAX_DEPTH + 1]!.kind).toBe(0);
  });

  it("unchanged channels (same version, not in newVersions) are not encoded again", () => {
    const big = "b".repeat(1000);
    const first = encodeCheckpoint(cp({ big, n: 1 }, { big: 1, n: 1 }), meta, {}, undefined);
    // the second value would throw if it were encoded: a function is not storable
    const second = encodeCheckpoint(cp({ big: () => big, n: 2 }, { big: 1, n: 2 }), meta, { n: 2 }, first.head);
    expect(second.blobs).toEqual([]);
    expect(parseHeader(second.header, site).vals).toEqual({ big: "@" + first.head.id, n: "=2" });
  });

  it("a new version with the same text keeps the old blob; small values live in the header", () => {
    const big = { text: "t".repeat(500) };
    const first = encodeCheckpoint(cp({ big }, { big: 1 }), meta, { big: 1 }, undefined);
    const second = encodeCheckpoint(cp({ big: { ...big } }, { big: 2 }), meta, { big: 2 }, first.head);
    expect(second.blobs).toEqual([]);
    const small = "s".repeat(INLINE_MAX - 2);
    const third = encodeCheckpoint(cp({ big, small }, { big: 2, small: 1 }), meta, { small: 1 }, second.head);
    expect(third.blobs).toEqual([]);
    expect(parseHeader(third.header, site).vals.small).toBe("=" + JSON.stringify(small));
  });

  it("a list edited and grown in one step is stored in full", () => {
    const a = { id: 1, t: "x".repeat(60) };
    const first = encodeCheckpoint(cp({ l: [a] }, { l: 1 }), meta, { l: 1 }, undefined);
    const second = encodeCheckpoint(cp({ l: [{ ...a, t: "y" }, a] }, { l: 2 }), meta, { l: 2 }, first.head);
    expect(second.blobs.map((b) => b.kind)).toEqual([0]);
  });
});
