/**
 * Diagnostic golden tests. Each `test/fixtures/diagnostics/<code>-<slug>.graph` (or folder with a
 * `main.graph` entry, for multi-file cases) is checked and its pretty-rendered diagnostics compared with the
 * sibling `<name>.expected.txt`. Re-bless with `GRAPHC_BLESS=1 npx vitest run test/compiler/check-fixtures.test.ts`
 * and review the diff.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { check } from "../../compiler/check.ts";
import { MESSAGES } from "../../compiler/diagnostics/messages.ts";
import { renderPretty } from "../../compiler/diagnostics/render.ts";
import type { CompilerHost } from "../../compiler/phases/2-bind/host.ts";

const dir = join(import.meta.dirname, "../fixtures/diagnostics");
const bless = process.env["GRAPHC_BLESS"] === "1";

/** reads fixture files by their path relative to the fixtures folder (so rendered paths are short) */
const host: CompilerHost = {
  readFile(path) {
    const full = join(dir, path);
    return existsSync(full) && statSync(full).isFile() ? readFileSync(full, "utf8") : undefined;
  },
};

function run(entry: string): string {
  const { diagnostics } = check([entry], host);
  return renderPretty(diagnostics, { color: false, readFile: (f) => host.readFile(f) });
}

const cases = readdirSync(dir)
  .filter((n) => /^G\d{4}-/.test(n) && !n.endsWith(".expected.txt"))
  .map((n) => ({
    name: n.replace(/\.graph$/, ""),
    entry: statSync(join(dir, n)).isDirectory() ? `${n}/main.graph` : n,
  }));

/** Codes no `check()` input can produce: the emitter's (x090–x099, reported by the build) and internal errors. */
const notFromCheck = (code: string) => /^G\d09\d$/.test(code) || code.startsWith("G9");

describe("diagnostic fixtures", () => {
  for (const c of cases) {
    it(c.name, () => {
      const actual = run(c.entry);
      const code = c.name.slice(0, 5);
      expect(actual, "the fixture must produce its own code").toContain(`[${code}]`);
      const expectedPath = join(dir, `${c.name}.expected.txt`);
      if (bless) writeFileSync(expectedPath, actual);
      expect(existsSync(expectedPath), `${expectedPath} is missing: run with GRAPHC_BLESS=1 and review it`).toBe(true);
      expect(actual).toBe(readFileSync(expectedPath, "utf8"));
    });
  }

  it("has a fixture for every code in the table", () => {
    const covered = new Set(cases.map((c) => c.name.slice(0, 5)));
    const missing = Object.values(MESSAGES)
      .filter((m) => !notFromCheck(m.code) && !covered.has(m.code))
      .map((m) => `${m.code}-${m.slug}`);
    expect(missing).toEqual([]);
  });

  it("names each fixture after its code's slug", () => {
    const slugs = new Map(Object.values(MESSAGES).map((m) => [m.code, m.slug]));
    for (const c of cases) expect(c.name.slice(6).startsWith(slugs.get(c.name.slice(0, 5)) ?? "?"), c.name).toBe(true);
  });
});

describe("valid graphs", () => {
  const validDir = join(dir, "valid");
  const entries = readdirSync(validDir).map((n) =>
    statSync(join(validDir, n)).isDirectory() ? `valid/${n}/main.graph` : `valid/${n}`,
  );
  for (const entry of entries.filter((e) => e.endsWith(".graph"))) {
    it(`${entry} has no diagnostics`, () => {
      expect(run(entry)).toBe("");
    });
  }
});
