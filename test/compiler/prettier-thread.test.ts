/**
 * `graphc build`'s prettier thread (prettier-thread.ts): the drafts' statements it formats in advance,
 * and everything formatRaw asks it, give exactly prettier's output for the whole file, on every emit
 * fixture, including a final text that differs from its draft in one statement (a function found
 * synchronous by the TypeScript pass).
 */
import { format } from "prettier";
import { afterAll, describe, expect, it } from "vitest";
import { mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { check } from "../../compiler/check.ts";
import { lower } from "../../compiler/phases/4-lower/index.ts";
import { emitFileText } from "../../compiler/phases/5-emit/file.ts";
import { FormatCache } from "../../compiler/phases/5-emit/format-cache.ts";
import { PRETTIER_OPTIONS, formatRaw, prefetchFormats, withoutEmptyLines } from "../../compiler/phases/5-emit/format.ts";
import { prettierThread, startPrettierThread } from "../../compiler/phases/5-emit/prettier-thread.ts";
import { VERSION } from "../../compiler/version.ts";
import { tempDir } from "../temp-dir.ts";

const DIR = "test/fixtures/emit";
const tmp = tempDir("prettier-thread");
afterAll(() => tmp.remove());

describe("the prettier thread", () => {
  it("formats drafts in advance and finals on request exactly as prettier formats the whole file", async () => {
    const entries = readdirSync(DIR)
      .filter((f) => f.endsWith(".graph"))
      .map((f) => `${DIR}/${f}`);
    const ir = lower(check(entries).program!).value;
    // texts no other test formats (this process's caches do not know them)
    const drafts = ir.files.map((f) => ({
      path: `${f.file}.thread.ts`,
      text: `${withoutEmptyLines(emitFileText(f, ir, { version: VERSION }).text)}\nexport const threadTest = 1;`,
    }));
    mkdirSync(join(tmp.dir, "node_modules"), { recursive: true });
    const disk = FormatCache.open(tmp.dir, PRETTIER_OPTIONS)!;

    startPrettierThread();
    const thread = prettierThread()!;
    expect(thread).toBeDefined();
    prefetchFormats(drafts, disk);
    let prefetched = 0;
    const keep = thread.onFormatted!;
    thread.onFormatted = (raw, pretty) => {
      prefetched++;
      keep(raw, pretty);
    };

    for (const d of drafts) {
      // the final differs from its draft in its last statement, formatted on request
      const final = d.text.replace("threadTest = 1;", "threadTest = [1,2];");
      expect(await formatRaw(final, d.path, disk), d.path).toBe(await format(final, PRETTIER_OPTIONS));
    }
    expect(prefetched).toBeGreaterThan(drafts.length * 3);
    expect(prettierThread()).toBe(thread);
  });
});
