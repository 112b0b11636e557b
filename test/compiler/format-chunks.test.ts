/**
 * Generated files are formatted one top-level statement at a time (format.ts `statementChunks`), so a
 * rebuild formats only the statements an edit changed: the pieces formatted one by one and joined must be
 * exactly prettier's output for the whole file.
 */
import { format } from "prettier";
import { describe, expect, it } from "vitest";
import { readdirSync } from "node:fs";
import { check } from "../../compiler/check.ts";
import { lower } from "../../compiler/phases/4-lower/index.ts";
import { emitFileText } from "../../compiler/phases/5-emit/file.ts";
import { PRETTIER_OPTIONS, statementChunks, withoutEmptyLines } from "../../compiler/phases/5-emit/format.ts";
import { VERSION } from "../../compiler/version.ts";

const DIR = "test/fixtures/emit";

describe("formatting by top-level statement", () => {
  it("prints every emit fixture exactly as prettier prints the whole file", async () => {
    const entries = readdirSync(DIR)
      .filter((f) => f.endsWith(".graph"))
      .map((f) => `${DIR}/${f}`);
    const checked = check(entries);
    expect(checked.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const ir = lower(checked.program!).value;
    expect(ir.files.length).toBeGreaterThan(3);
    for (const f of ir.files) {
      const raw = withoutEmptyLines(emitFileText(f, ir, { version: VERSION }).text);
      const chunks = statementChunks(raw);
      expect(chunks, f.file).toBeDefined();
      expect(chunks!.length, f.file).toBeGreaterThan(3);
      expect(chunks!.join(""), f.file).toBe(raw);
      let joined = "";
      for (const c of chunks!) joined += c.trim() === "" ? "" : await format(c, PRETTIER_OPTIONS);
      expect(joined, f.file).toBe(await format(raw, PRETTIER_OPTIONS));
    }
  });

  it("formats the whole file where pieces could print differently", () => {
    // a comment on the line a statement ends on stays on that line only when the file is formatted whole
    expect(statementChunks("const a = 1; // one\nconst b = 2;")).toBeUndefined();
    expect(statementChunks("const a = 1; /* one */\nconst b = 2;")).toBeUndefined();
    // prettier keeps the blank line after a directive prologue
    expect(statementChunks('"use strict";\nconst a = 1;')).toBeUndefined();
    expect(statementChunks("const a = ;\nconst b = 2;")).toBeUndefined();
    expect(statementChunks("const a = 1;\n// one\nconst b = 2;\n// end")).toEqual(["const a = 1;", "\n// one\nconst b = 2;", "\n// end"]);
  });
});
