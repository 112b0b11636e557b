/**
 * A subgraph node hands its child an input the compiler proved passes the child's input check (same field
 * tests on both sides, a reducer whose results keep the field's type, every required child field always
 * set) as checked: `runSubgraphNow(Child, input, true)`, and the child skips its `input` call. Where the
 * proof fails the child still checks, and a bad value is still its GraphInputError.
 */
import { copyFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildFiles } from "graphc";
import { GraphInputError } from "@graphc/runtime";
import { tempDir, type TempDir } from "../temp-dir.ts";

const FIXTURES = join(import.meta.dirname, "..", "fixtures", "subgraph-input");

describe("a subgraph's input handed over as checked", () => {
  let tmp: TempDir;
  let text = "";
  let Parent: { invoke(input: unknown): Promise<{ count: number; log: string[] }> };
  beforeAll(async () => {
    tmp = tempDir("subgraph-input");
    for (const f of ["input.graph", "input.nodes.ts"]) copyFileSync(join(FIXTURES, f), join(tmp.dir, f));
    const { outputs, diagnostics } = await buildFiles([join(tmp.dir, "input.graph")], { typecheck: false, importExt: "ts" });
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    for (const o of outputs) writeFileSync(o.path, o.text);
    text = outputs.find((o) => o.path.endsWith("input.graph.ts"))!.text;
    ({ Parent } = await import(pathToFileURL(join(tmp.dir, "input.graph.ts")).href));
  }, 60_000);
  afterAll(() => tmp.remove());

  it("passes `true` only for the projection of same-typed, always-set fields", () => {
    const calls = text.match(/ctx\.runSubgraphNow\([^)]*\)/g);
    expect(calls).toEqual([
      "ctx.runSubgraphNow(LeafSpec, input as Values, true)", // same: count and log, as the child's
      "ctx.runSubgraphNow(LeafSpec, input as Values)", // custom: `odd` folds with a custom reducer
      "ctx.runSubgraphNow(StrictSpec, input as Values)", // absent: `need` may be unset, Strict requires it
    ]);
  });

  it("runs the checked child on the projection as it is", async () => {
    const out = await Parent.invoke({ count: 2, need: 7 });
    expect(out.log).toEqual(["Leaf.note:3", "Leaf.note:2", "Strict.note:7"]);
    expect(out.count).toBe(7); // 2 + 1 (bump), + 3 + 1 (the child counts from 3, its old value comes back too)
  });

  it("keeps the child's check where the proof fails: a custom reducer's wrong value, an unset required field", async () => {
    // `lie` returns a string for a negative update: the child's check is all that stops it
    const bad = await Parent.invoke({ count: -5, need: 1 }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(GraphInputError);
    expect(String(bad)).toMatch(/graph "Leaf": input field "count" must be number, got string/);
    const missing = await Parent.invoke({ count: 1 }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(GraphInputError);
    expect(String(missing)).toMatch(/graph "Strict": required input field "count" \(number\) is missing/);
  });
});
