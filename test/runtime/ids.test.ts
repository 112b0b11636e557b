/**
 * The runtime's ids (runtime/ids.ts). Task ids and interrupt ids are stored with a thread's pending writes
 * and matched again when the thread resumes, so they must never change from one graphc version to the next:
 * the pinned values below are what the runtime made before ids were written as character codes (2026-12-03).
 */
import { describe, expect, it } from "vitest";
import { checkpointId, hashHex, stableUuid } from "../../runtime/ids.ts";

const CHECKPOINT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-6[0-9a-f]{3}-([0-9a-f]{4})-([0-9a-f]{12})$/;

describe("ids", () => {
  it("a task id is a version 5 uuid of its name within its checkpoint id, the same as before", () => {
    const cases: [name: string, namespace: string, id: string][] = [
      ["1\0n0\0__pregel_pull\0n0", "01a23b44-9973-6010-0031-68d3b78e6cc3", "d870703d-035f-59f0-bfb6-27208b6498cb"],
      ["é😀", "x", "22c92ce7-a192-51de-abf9-97f73e89034b"],
    ];
    // twice round: the namespace's hash is cached between calls, and must not leak into another namespace's id
    for (const _ of [1, 2]) for (const [name, ns, id] of cases) expect(stableUuid(name, ns)).toBe(id);
    const a = stableUuid("n", "");
    stableUuid("n", "other");
    expect(stableUuid("n", "")).toBe(a);
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("an interrupt id is 32 hex digits of its namespace, the same as before", () => {
    expect(hashHex("")).toBe("f4558e763136a1cd2f59b645f26302c0");
    expect(hashHex("a|b:1")).toBe("aaa5610b79dcca6aa793c13e101a4977");
    expect(hashHex("graph|node:00000000-0000-0000-0000-000000000000")).toBe("9836eed7ee23d795ff3c23ef7d6299ca");
  });

  it("checkpoint ids sort in the order they were made, carry the step, and end in one per-process node id", () => {
    const ids = Array.from({ length: 5000 }, (_, i) => checkpointId(i - 1));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    const parts = ids.map((id) => CHECKPOINT_ID.exec(id));
    expect(parts.every((p) => p !== null)).toBe(true);
    expect(parts.slice(0, 3).map((p) => p![1])).toEqual(["ffff", "0000", "0001"]);
    expect(parts[4000]![1]).toBe((3999).toString(16).padStart(4, "0"));
    expect(new Set(parts.map((p) => p![2])).size).toBe(1);
    // the milliseconds since the epoch, as LangGraph's uuid6 puts them first
    const ms = parseInt(ids[0]!.slice(0, 8) + ids[0]!.slice(9, 13), 16);
    expect(Math.abs(ms - Date.now())).toBeLessThan(60_000);
  });
});
