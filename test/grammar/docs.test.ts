/**
 * docs/language.md promises that its examples parse: every ```graph block must parse without a
 * diagnostic, and the G1xxx table there must list exactly the codes of grammar/parse-errors.ts.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse, SYNTAX_ERRORS } from "../../grammar/index.ts";
import { diagnosticLine } from "./golden.ts";

const doc = readFileSync(fileURLToPath(new URL("../../docs/language.md", import.meta.url)), "utf8");
const blocks = [...doc.matchAll(/```graph\n([\s\S]*?)```/g)].map((m) => m[1]!);

describe("docs/language.md", () => {
  it("has examples", () => expect(blocks.length).toBeGreaterThan(8));
  blocks.forEach((block, i) => {
    it(`example ${i + 1} parses cleanly`, () => {
      expect(parse(block, `language.md#${i + 1}`).diagnostics.map(diagnosticLine)).toEqual([]);
    });
  });

  it("lists every syntax code", () => {
    const documented = [...doc.matchAll(/^\| (G1\d{3}) \|/gm)].map((m) => m[1]);
    const declared = Object.values(SYNTAX_ERRORS)
      .map((e) => e.code)
      .filter((c) => c.startsWith("G1"));
    expect(documented).toEqual(declared);
  });
});
