/**
 * Formatter goldens: every test/fixtures/format/<name>.in.graph formats to <name>.out.graph, formatting is
 * idempotent, and no comment is lost. Re-bless the goldens with GRAPHC_BLESS=1 (review the diff).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { format } from "../../compiler/format/index.ts";
import { parse } from "../../grammar/index.ts";

const dir = fileURLToPath(new URL("../fixtures/format/", import.meta.url));
const bless = process.env["GRAPHC_BLESS"] === "1";
const pairs = readdirSync(dir)
  .filter((f) => f.endsWith(".in.graph"))
  .map((f) => f.slice(0, -".in.graph".length))
  .sort();

function commentTexts(text: string, file: string): string[] {
  return parse(text, file).ast.comments.map((c) => c.text.replace(/\s+$/, "")).sort();
}

describe("formatter goldens", () => {
  it("has fixtures", () => {
    expect(pairs.length).toBeGreaterThanOrEqual(8);
  });

  for (const name of pairs) {
    it(name, () => {
      const input = readFileSync(`${dir}${name}.in.graph`, "utf8");
      const outPath = `${dir}${name}.out.graph`;
      const r = format(input, `${name}.in.graph`);
      expect(r.diagnostics).toEqual([]);
      if (bless || !existsSync(outPath)) writeFileSync(outPath, r.text);
      expect(r.text).toBe(readFileSync(outPath, "utf8"));
      // idempotent, and the formatted file still parses cleanly with the same comments
      const again = format(r.text, `${name}.out.graph`);
      expect(again.diagnostics).toEqual([]);
      expect(again.text).toBe(r.text);
      expect(commentTexts(r.text, "out.graph")).toEqual(commentTexts(input, "in.graph"));
    });
  }
});

describe("formatter refusals", () => {
  it("returns the syntax errors and the text unchanged for a broken file", () => {
    const text = "graph G {\n  state { a: }\n  START -> -> END\n}\n";
    const r = format(text, "broken.graph");
    expect(r.text).toBe(text);
    expect(r.diagnostics.length).toBeGreaterThan(0);
    expect(r.diagnostics.every((d) => d.severity === "error" && /^G1\d{3}$/.test(d.code))).toBe(true);
  });

  it("prints an empty file as empty and ends every other file with one newline", () => {
    expect(format("", "e.graph").text).toBe("");
    expect(format("  \n\n", "e.graph").text).toBe("");
    expect(format("graph G {}", "g.graph").text).toBe("graph G {}\n");
    expect(format("// only a comment", "c.graph").text).toBe("// only a comment\n");
  });

  it("normalises CRLF line endings to LF", () => {
    const r = format("graph G {\r\n  START -> END\r\n}\r\n", "crlf.graph");
    expect(r.text).toBe("graph G {\n  START -> END\n}\n");
  });
});
