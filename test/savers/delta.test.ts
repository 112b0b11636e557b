import { describe, expect, it } from "vitest";
import { type BlobRow, type Head, INLINE_MAX, MAX_DEPTH, encodeCheckpoint, joinChain, parseHeader } from "../../runtime/checkpoint/delta.ts";
import type { Checkpoint } from "../../runtime/checkpoint/types.ts";

let n = 0;
function cp(values: Record<string, unknown>, versions: Record<string, number>): Checkpoint {
  return { v: 1, id: `c${String(++n).padStart(6, "0")}`, ts: "2024-01-01T00:00:00.000Z", channel_values: values, channel_versions: versions, versions_seen: {} };
}
const site = { thread_id: "t", checkpoint_ns: "", checkpoint_id: "c" };

/** Appends one item per step to `list`, returning every blob written (with its checkpoint id). */
function grow(steps: number, item: (i: number) => unknown): { blobs: (BlobRow & { id: string })[]; head: Head | undefined } {
  let head: Head | undefined;
  let list: unknown[] = [];
  const blobs: (BlobRow & { id: string })[] = [];
  for (let i = 0; i < steps; i++) {
    list = [...list, item(i)];
    const c = cp({ list }, { list: i + 1 });
    const out = encodeCheckpoint(c, { list: i + 1 }, head);
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

  it("an extension's text continues its parent's open text (no copy of the whole text per step)", () => {
    let head: Head | undefined;
    let list: unknown[] = [];
    const kinds: number[] = [];
    const depths: number[] = [];
    for (let i = 0; i < 400; i++) {
      list = [...list, i % 2 ? `m${i}` : { id: `m${i}`, text: "message text ".repeat(3) }];
      const out = encodeCheckpoint(cp({ list }, { list: i + 1 }), { list: i + 1 }, head);
      const ch = out.head.channels.get("list")!;
      // the text is exactly the list's, whichever way it was built: across full blobs, the 64th appends
      // after them (where the open text is sliced anew) and the appends between
      expect(ch.json).toBe(JSON.stringify(list));
      if (i > 0) expect(ch.open! + "]").toBe(ch.json);
      kinds.push(out.blobs[0]!.kind);
      depths.push(out.blobs[0]!.depth);
      head = out.head;
    }
    expect(kinds.filter((k) => k === 0).length).toBeGreaterThan(2);
    expect(Math.max(...depths)).toBeGreaterThan(130);
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
    const first = encodeCheckpoint(cp({ big, n: 1 }, { big: 1, n: 1 }), {}, undefined);
    // the second value would throw if it were encoded: a function is not storable
    const second = encodeCheckpoint(cp({ big: () => big, n: 2 }, { big: 1, n: 2 }), { n: 2 }, first.head);
    expect(second.blobs).toEqual([]);
    expect(parseHeader(second.header, site).vals).toEqual({ big: "@" + first.head.id, n: "=2" });
  });

  it("a new version with the same text keeps the old blob; small values live in the header", () => {
    const big = { text: "t".repeat(500) };
    const first = encodeCheckpoint(cp({ big }, { big: 1 }), { big: 1 }, undefined);
    const second = encodeCheckpoint(cp({ big: { ...big } }, { big: 2 }), { big: 2 }, first.head);
    expect(second.blobs).toEqual([]);
    const small = "s".repeat(INLINE_MAX - 2);
    const third = encodeCheckpoint(cp({ big, small }, { big: 2, small: 1 }), { small: 1 }, second.head);
    expect(third.blobs).toEqual([]);
    expect(parseHeader(third.header, site).vals.small).toBe("=" + JSON.stringify(small));
  });

  it("two children extending one parent's list (a fork) each store exactly their own elements", () => {
    const item = (s: string) => ({ s, pad: "p".repeat(30) });
    const base = ["a", "b", "c", "d", "e", "f"].map(item);
    const parent = encodeCheckpoint(cp({ l: base }, { l: 1 }), { l: 1 }, undefined);
    const left = [...base, item("left")];
    const right = [...base, item("right1"), item("right2")];
    // the first child grows the parent's element list in place; the second must not see its element
    const one = encodeCheckpoint(cp({ l: left }, { l: 2 }), { l: 2 }, parent.head);
    const two = encodeCheckpoint(cp({ l: right }, { l: 2 }), { l: 2 }, parent.head);
    expect(one.blobs.map((x) => [x.kind, JSON.parse(x.data)])).toEqual([[1, [item("left")]]]);
    expect(two.blobs.map((x) => [x.kind, JSON.parse(x.data)])).toEqual([[1, [item("right1"), item("right2")]]]);
    expect(JSON.parse(one.head.channels.get("l")!.json)).toEqual(left);
    expect(JSON.parse(two.head.channels.get("l")!.json)).toEqual(right);
    // what the next child's prefix test compares against: each head's own elements, the same objects
    const elements = (h: Head) => h.channels.get("l")!.items!.slice(0, h.channels.get("l")!.count);
    expect(elements(one.head)).toEqual(left);
    expect(elements(two.head)).toEqual(right);
    expect(elements(parent.head)).toEqual(base);
    // grandchildren of both branches still extend their own parent
    const leftMore = [...left, item("left2")];
    const three = encodeCheckpoint(cp({ l: leftMore }, { l: 3 }), { l: 3 }, one.head);
    expect(three.blobs.map((x) => JSON.parse(x.data))).toEqual([[item("left2")]]);
    expect(JSON.parse(three.head.channels.get("l")!.json)).toEqual(leftMore);
    const rightMore = [...right, item("r3")];
    const four = encodeCheckpoint(cp({ l: rightMore }, { l: 3 }), { l: 3 }, two.head);
    expect(four.blobs.map((x) => [x.kind, JSON.parse(x.data)])).toEqual([[1, [item("r3")]]]);
    expect(JSON.parse(four.head.channels.get("l")!.json)).toEqual(rightMore);
    const rightEdited = [right[0], item("B"), ...right.slice(2), item("r3")];
    const five = encodeCheckpoint(cp({ l: rightEdited }, { l: 3 }), { l: 3 }, two.head);
    expect(five.blobs.map((x) => x.kind)).toEqual([0]);
    expect(JSON.parse(five.head.channels.get("l")!.json)).toEqual(rightEdited);
  });

  it("a caller that reuses its array (push in place) still gets deltas against what was stored", () => {
    const list: unknown[] = [];
    let head: Head | undefined;
    for (let i = 0; i < 40; i++) {
      list.push({ i, pad: "q".repeat(20) });
      const out = encodeCheckpoint(cp({ l: list }, { l: i + 1 }), { l: i + 1 }, head);
      head = out.head;
      expect(JSON.parse(head.channels.get("l")!.json)).toEqual(list);
    }
    // the caller changes an element it already handed over: stored values are taken as immutable, but its
    // own array is never read again after the put
    list.length = 3;
    const out = encodeCheckpoint(cp({ l: list }, { l: 41 }), { l: 41 }, head);
    expect(JSON.parse(out.head.channels.get("l")!.json)).toEqual(list);
  });

  it("a list edited and grown in one step is stored in full", () => {
    const a = { id: 1, t: "x".repeat(60) };
    const first = encodeCheckpoint(cp({ l: [a] }, { l: 1 }), { l: 1 }, undefined);
    const second = encodeCheckpoint(cp({ l: [{ ...a, t: "y" }, a] }, { l: 2 }), { l: 2 }, first.head);
    expect(second.blobs.map((b) => b.kind)).toEqual([0]);
  });
});
