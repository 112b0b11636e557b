/** format(format(x)) == format(x) for every .graph file of the repository: samples and test fixtures. */
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { format } from "../../compiler/format/index.ts";
import { parse } from "../../grammar/index.ts";
import { graphFiles, ROOT } from "../graph-files.ts";

const files = [...graphFiles(join(ROOT, "samples")), ...graphFiles(join(ROOT, "test"))].sort();

describe("formatter idempotence over the repository's .graph files", () => {
  it("finds the samples", () => {
    expect(files.filter((f) => f.includes("samples")).length).toBeGreaterThanOrEqual(10);
  });

  for (const file of files) {
    const name = relative(ROOT, file);
    it(name, () => {
      const text = readFileSync(file, "utf8");
      const once = format(text, name);
      if (once.diagnostics.length > 0) {
        // a fixture with syntax errors is left exactly as it is
        expect(once.text).toBe(text);
        return;
      }
      const twice = format(once.text, name);
      expect(twice.diagnostics).toEqual([]);
      expect(twice.text).toBe(once.text);
      const comments = (t: string) => parse(t, name).ast.comments.map((c) => c.text.trimEnd()).sort();
      expect(comments(once.text)).toEqual(comments(text));
    });
  }
});
