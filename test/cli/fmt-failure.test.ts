/**
 * `graphc fmt` never throws (issue 8, defect 6): whatever the formatter does on a file, fmt reports a
 * diagnostic and leaves that file byte for byte as it was, and still formats the others.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { HELLO_GRAPH, project, run } from "./harness.ts";

// a formatter bug on one file, simulated: the real formatter everywhere else
vi.mock("../../compiler/format/index.ts", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../compiler/format/index.ts")>();
  return {
    ...real,
    format: (text: string, file: string) => {
      if (file.endsWith("boom.graph")) throw new TypeError("Cannot read properties of undefined (reading 'kind')");
      return real.format(text, file);
    },
  };
});

const MESSY = HELLO_GRAPH.replace("START -> greet -> END", "START->greet->END");
// 12,000 member accesses in a condition: the formatter recursed once per `.a` and overflowed the stack
const DEEP = `graph G {
  state { a: string }
  node n({ a }) -> { a } = f
  START -> n -> {
    a${".a".repeat(12_000)} == "x" => END
    _ => END
  }
}
`;
const p = project({ "boom.graph": MESSY, "messy.graph": MESSY, "deep.graph": DEEP });
afterAll(() => p.remove());
const read = (f: string) => readFileSync(join(p.dir, f), "utf8");

describe("graphc fmt on a formatter failure", () => {
  it("reports a diagnostic, leaves that file untouched and formats the rest", async () => {
    const r = await run(p.dir, ["fmt", "boom.graph", "messy.graph"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("error[G9002]: internal formatter error: TypeError: Cannot read properties of undefined");
    expect(r.stderr).toContain("--> boom.graph:1:1");
    expect(r.stderr).toContain("this file was left unchanged");
    expect(read("boom.graph")).toBe(MESSY);
    expect(r.stdout).toBe("formatted messy.graph\n");
    expect(read("messy.graph")).not.toBe(MESSY);
  });

  it("never throws on a pathologically deep file: a diagnostic, the file as it was", async () => {
    for (const argv of [["fmt", "deep.graph"], ["fmt", "--check", "deep.graph"]]) {
      const r = await run(p.dir, argv);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/error\[G\d{4}\]/);
      expect(read("deep.graph")).toBe(DEEP);
    }
  });
});
