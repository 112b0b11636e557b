/**
 * The message table itself: unique codes and slugs, banding, and docs/diagnostics.md in sync (its code tables
 * are generated from the table: re-bless with GRAPHC_BLESS=1).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MESSAGES } from "../../compiler/diagnostics/messages.ts";
import { SYNTAX_ERRORS } from "../../grammar/parse-errors.ts";

const entries = Object.entries(MESSAGES);
const docPath = join(import.meta.dirname, "../../docs/diagnostics.md");

const BANDS: Record<string, string> = {
  "2": "Names and imports (G2xxx)",
  "3": "Types, state, reducers, schemas (G3xxx)",
  "4": "Graph structure (G4xxx)",
  "5": "Subgraphs (G5xxx)",
  "6": "Options and vars (G6xxx)",
  "9": "Internal (G9xxx)",
};

/** the generated part of docs/diagnostics.md: one table per band */
function codeTables(): string {
  let out = "";
  let band = "";
  for (const m of [...Object.values(MESSAGES)].sort((a, b) => a.code.localeCompare(b.code))) {
    if (m.code[1] !== band) {
      band = m.code[1]!;
      out += `\n### ${BANDS[band]}\n\n| Code | Slug | Severity | Meaning |\n|---|---|---|---|\n`;
    }
    out += `| ${m.code} | \`${m.slug}\` | ${m.severity} | ${m.doc.replace(/\|/g, "\\|")} |\n`;
  }
  return out;
}

describe("diagnostic table", () => {
  it("declares each code and slug once", () => {
    const codes = entries.map(([, m]) => m.code);
    const slugs = entries.map(([, m]) => m.slug);
    expect(new Set(codes).size).toBe(codes.length);
    expect(new Set(slugs).size).toBe(slugs.length);
  });

  it("uses G + 4 digits in the compiler bands, kebab-case slugs and a doc line", () => {
    for (const [key, m] of entries) {
      expect(m.code, key).toMatch(/^G[2-69]\d{3}$/);
      expect(m.slug, key).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(m.doc.length, key).toBeGreaterThan(20);
      expect(["error", "warning"], key).toContain(m.severity);
    }
  });

  it("is documented in docs/diagnostics.md", () => {
    let doc = readFileSync(docPath, "utf8");
    for (const [marker, expected] of [
      ["codes", codeTables()],
      ["syntax", syntaxTable()],
    ] as const) {
      const start = doc.indexOf("-->", doc.indexOf(`<!-- ${marker}:start`)) + 3;
      const end = doc.indexOf(`<!-- ${marker}:end -->`);
      expect(start, marker).toBeGreaterThan(2);
      expect(end, marker).toBeGreaterThan(start);
      if (process.env["GRAPHC_BLESS"] === "1") doc = doc.slice(0, start) + expected + doc.slice(end);
      else expect(doc.slice(start, end), `${marker} table out of date: re-bless`).toBe(expected);
    }
    if (process.env["GRAPHC_BLESS"] === "1") writeFileSync(docPath, doc);
  });
});

/** the G1xxx table (grammar/parse-errors.ts is authoritative) */
function syntaxTable(): string {
  const rows = [...Object.values(SYNTAX_ERRORS)].sort((a, b) => a.code.localeCompare(b.code));
  return `\n| Code | Slug | Message |\n|---|---|---|\n${rows.map((m) => `| ${m.code} | \`${m.slug}\` | ${m.message.replace(/\|/g, "\\|")} |\n`).join("")}`;
}
