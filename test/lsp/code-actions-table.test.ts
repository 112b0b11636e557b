/**
 * Every "did you mean …?" hint the checker gives in the diagnostic fixtures becomes a quick fix, and
 * applying the fix removes that diagnostic (in-process: the stdio test in editing.test.ts shows the same
 * actions reach a client).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { check } from "../../compiler/check.ts";
import type { CompilerHost } from "../../compiler/phases/2-bind/host.ts";
import { quickFixes, suggestedNames } from "../../compiler/lsp/code-actions.ts";
import { pathToUri } from "../../compiler/lsp/paths.ts";

const dir = join(import.meta.dirname, "../fixtures/diagnostics");
const overlay = new Map<string, string>();
const host: CompilerHost = {
  readFile(path) {
    const full = join(dir, path);
    return overlay.get(path) ?? (existsSync(full) && statSync(full).isFile() ? readFileSync(full, "utf8") : undefined);
  },
};
const entries = readdirSync(dir)
  .filter((n) => /^G\d{4}-/.test(n) && !n.endsWith(".expected.txt"))
  .map((n) => (statSync(join(dir, n)).isDirectory() ? `${n}/main.graph` : n));

const everything = { start: { line: 0, character: 0 }, end: { line: 100_000, character: 0 } };

describe("quick fixes for did-you-mean hints", () => {
  const fixed = new Set<string>();
  const hinted = new Set<string>();
  for (const entry of entries) {
    const { diagnostics } = check([entry], host);
    for (const x of diagnostics.filter((x) => suggestedNames(x.hint).length > 0)) {
      hinted.add(x.code);
      it(`${x.code} ${x.message} (${entry})`, () => {
        const file = x.span.file;
        const text = host.readFile(file)!;
        const actions = quickFixes([x], text, everything);
        expect(actions.map((a) => a.title)).toEqual(suggestedNames(x.hint).map((n) => `Change \`${text.slice(x.span.start.offset, x.span.end.offset)}\` to \`${n}\``));
        const edit = actions[0]!.edit!.changes![pathToUri(file)]![0]!;
        overlay.set(file, text.slice(0, x.span.start.offset) + edit.newText + text.slice(x.span.end.offset));
        try {
          const after = check([entry], host).diagnostics;
          expect(after.some((y) => y.code === x.code && y.span.file === file && y.span.start.offset === x.span.start.offset)).toBe(false);
        } finally {
          overlay.delete(file);
        }
        fixed.add(x.code);
      });
    }
  }
  it("covers every code whose fixture gives a did-you-mean hint", () => {
    expect([...fixed].sort()).toEqual([...hinted].sort());
    expect(hinted.size).toBeGreaterThanOrEqual(14);
  });
});
