/** format(format(x)) == format(x) for every .graph file of the repository: samples and test fixtures. */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { format } from "../../compiler/format/index.ts";
import { parse } from "../../grammar/index.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));

function graphFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name.startsWith(".") || name.startsWith("_tmp")) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...graphFiles(p));
    else if (name.endsWith(".graph")) out.push(p);
  }
  return out;
}

const files = [...graphFiles(join(root, "samples")), ...graphFiles(join(root, "test"))].sort();

describe("formatter idempotence over the repository's .graph files", () => {
  it("finds the samples", () => {
    expect(files.filter((f) => f.includes("samples")).length).toBeGreaterThanOrEqual(10);
  });

  for (const file of files) {
    const name = relative(root, file);
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
