/**
 * `checkUpdate` (the update of a Command given as input) shares the update check of a node that may write
 * every field of the graph (spec-nodes.ts `wholeWriter`): one function, called with node `undefined`. The
 * shared check must fail as the graph's own `checkUpdate` does (unknown key, wrong type: a Command input's
 * texts) and as the node's check for the node. The graph is the bundle-size app (test/fixtures/size), whose
 * two nodes write both fields.
 */
import { copyFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildFiles } from "graphc";
import { Command, InvalidUpdateError, MemorySaver, UpdateTypeError, type GraphSpec } from "@graphc/runtime";
import { tempDir, type TempDir } from "../temp-dir.ts";

const FIXTURES = join(import.meta.dirname, "..", "fixtures", "size");

describe("checkUpdate shared with a node's check", () => {
  let tmp: TempDir;
  let text = "";
  let mod: { App: { invoke(input: unknown, config?: object): Promise<unknown> }; AppSpec: GraphSpec };
  beforeAll(async () => {
    tmp = tempDir("shared-check");
    for (const f of ["app.graph", "nodes.ts"]) copyFileSync(join(FIXTURES, f), join(tmp.dir, f));
    const { outputs, diagnostics } = await buildFiles([join(tmp.dir, "app.graph")], { typecheck: false, importExt: "ts" });
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    for (const o of outputs) writeFileSync(o.path, o.text);
    text = outputs.find((o) => o.path.endsWith("app.graph.ts"))!.text;
    mod = await import(pathToFileURL(join(tmp.dir, "app.graph.ts")).href);
  }, 60_000);
  afterAll(() => tmp.remove());

  it("is one function: the nodes' check, called with undefined", () => {
    expect(text).toContain("const AppAUpdateCheck = (node: string | undefined) => (u: Values) =>");
    expect(text).toContain("checkUpdate: AppAUpdateCheck(undefined),");
    // the shared check alone: `apply`'s one-update path asks for each of the two fields with `in`
    expect(text.match(/for \(const k in u\)/g)).toHaveLength(1);
  });

  it("rejects a Command input's unknown key and wrong type with the Command-input texts", async () => {
    const check = mod.AppSpec.checkUpdate!;
    expect(() => check({ nope: 1 })).toThrow(InvalidUpdateError);
    expect(() => check({ nope: 1 })).toThrow('Command update given as input to graph "App" names unknown field "nope"');
    expect(() => check({ count: "1" })).toThrow(UpdateTypeError);
    expect(() => check({ count: "1" })).toThrow('Command update given as input to graph "App" wrote field "count" a value of type string, expected number');
    const config = { checkpointer: new MemorySaver(), configurable: { thread_id: "t" } };
    await mod.App.invoke({ count: 0 }, config);
    const err = await mod.App.invoke(new Command({ update: { nope: 1 } }), config).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidUpdateError);
    expect(err).toMatchObject({ graph: "App", field: "nope", node: undefined });
  });

  it("keeps the node's texts for the node", () => {
    const a = mod.AppSpec.nodes.find((n) => n.name === "a")!;
    expect(() => a.check({ nope: 1 })).toThrow('node "a" of graph "App" cannot write "nope" (it declares: count, log)');
    expect(() => a.check({ count: "1" })).toThrow('node "a" of graph "App" wrote field "count" a value of type string, expected number');
    expect(() => a.check({ count: 1, log: "x" })).not.toThrow();
  });
});
