/** `graphc fmt [--check]`, run in-process. */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { HELLO_GRAPH, project, run } from "./harness.ts";

const MESSY = HELLO_GRAPH.replace("  input  { name }", "    input {name}").replace("START -> greet -> END", "START->greet->END");
const p = project({
  "formatted.graph": HELLO_GRAPH,
  "messy.graph": MESSY,
  "bad/syntax.graph": "graph G {\n  START -> -> END\n}\n",
});
afterAll(() => p.remove());
const read = (f: string) => readFileSync(join(p.dir, f), "utf8");

describe("graphc fmt", () => {
  it("--check lists the files that would change, exits 1 and writes nothing", async () => {
    const r = await run(p.dir, ["fmt", "--check", "formatted.graph", "messy.graph"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("messy.graph\n");
    expect(r.stderr).toContain("1 file is not formatted");
    expect(read("messy.graph")).toBe(MESSY);
  });

  it("--check exits 0 when everything is formatted", async () => {
    expect(await run(p.dir, ["fmt", "--check", "formatted.graph"])).toMatchObject({ code: 0, stdout: "" });
  });

  it("formats in place and leaves formatted files untouched", async () => {
    const before = statSync(join(p.dir, "formatted.graph")).mtimeMs;
    const r = await run(p.dir, ["fmt", "formatted.graph", "messy.graph"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("formatted messy.graph\n");
    expect(read("messy.graph")).toBe(HELLO_GRAPH);
    expect(statSync(join(p.dir, "formatted.graph")).mtimeMs).toBe(before);
  });

  it("refuses a file with syntax errors: prints them, exits 1, leaves the file alone", async () => {
    const r = await run(p.dir, ["fmt", "bad"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/error\[G1\d{3}\]/);
    expect(r.stderr).toContain("--> bad/syntax.graph:2:");
    expect(read("bad/syntax.graph")).toBe("graph G {\n  START -> -> END\n}\n");
  });
});
