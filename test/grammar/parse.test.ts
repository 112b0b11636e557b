/**
 * Parser goldens: every test/fixtures/parse/*.graph parses to the AST in <name>.ast.json (diagnostics
 * included, normally none). Every test/fixtures/parse/errors/*.graph ends with `// expect:` lines giving
 * the exact diagnostics (code, span, message). `GRAPHC_BLESS=1` rewrites both kinds of expectation.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse, SYNTAX_ERRORS } from "../../grammar/index.ts";
import { BLESS, compact, diagnosticLine } from "./golden.ts";
import { GraphParser } from "../../grammar/parser.ts";

const dir = fileURLToPath(new URL("../fixtures/parse/", import.meta.url));
const errorsDir = join(dir, "errors");
const graphs = (d: string) =>
  readdirSync(d)
    .filter((f) => f.endsWith(".graph"))
    .sort();

describe("the grammar", () => {
  it("passes chevrotain's own checks (skipped when graphc builds its parser; a failing check throws)", () => {
    expect(() => new GraphParser(true)).not.toThrow();
  });
});

describe("parse goldens", () => {
  for (const name of graphs(dir)) {
    it(name, () => {
      const text = readFileSync(join(dir, name), "utf8");
      const { ast, diagnostics } = parse(text, name);
      const actual =
        JSON.stringify({ diagnostics: diagnostics.map(diagnosticLine), ast: compact(ast) }, null, 2) + "\n";
      const goldenPath = join(dir, name.replace(/\.graph$/, ".ast.json"));
      if (BLESS) writeFileSync(goldenPath, actual);
      expect(existsSync(goldenPath), `missing golden ${goldenPath}; run with GRAPHC_BLESS=1`).toBe(true);
      expect(actual).toBe(readFileSync(goldenPath, "utf8"));
      // the construct fixtures are all valid programs
      expect(diagnostics.map(diagnosticLine)).toEqual([]);
    });
  }
});

const EXPECT = /^\/\/ expect: (.*)$/gm;

describe("syntax error fixtures", () => {
  const files = graphs(errorsDir);
  for (const name of files) {
    it(name, () => {
      const path = join(errorsDir, name);
      const text = readFileSync(path, "utf8");
      const body = text.replace(/(\n\/\/ expect: .*)+\n?$/, "\n");
      const actual = parse(text, name).diagnostics.map(diagnosticLine);
      if (BLESS)
        writeFileSync(path, body.replace(/\n+$/, "\n") + "\n" + actual.map((l) => `// expect: ${l}`).join("\n") + "\n");
      const expected = [...readFileSync(path, "utf8").matchAll(EXPECT)].map((m) => m[1]);
      expect(expected.length, "an error fixture must expect at least one diagnostic").toBeGreaterThan(0);
      expect(actual).toEqual(expected);
    });
  }

  it("every G1xxx code has a fixture named after it that produces it", () => {
    const codes = Object.values(SYNTAX_ERRORS)
      .map((e) => e.code)
      .filter((c) => c.startsWith("G1"));
    for (const code of codes) {
      const fixture = files.find((f) => f.startsWith(code));
      expect(fixture, `no errors/${code}-*.graph fixture`).toBeDefined();
      const text = readFileSync(join(errorsDir, fixture!), "utf8");
      expect(parse(text, fixture!).diagnostics.map((d) => d.code)).toContain(code);
    }
  });

  it("declares each code and slug once, with a message and a hint", () => {
    const entries = Object.values(SYNTAX_ERRORS);
    expect(new Set(entries.map((e) => e.code)).size).toBe(entries.length);
    expect(new Set(entries.map((e) => e.slug)).size).toBe(entries.length);
    for (const e of entries) {
      expect(e.code).toMatch(/^G(1|9)\d{3}$/);
      expect(e.slug).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(e.message.length).toBeGreaterThan(5);
      expect(e.hint.length).toBeGreaterThan(5);
    }
  });
});
