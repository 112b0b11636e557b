/**
 * Generated files are formatted one top-level statement at a time (format.ts `statementChunks`), so a
 * rebuild formats only the statements an edit changed: the pieces formatted one by one and joined must be
 * exactly prettier's output for the whole file.
 */
import { format } from "prettier";
import { describe, expect, it, vi } from "vitest";
import { readdirSync } from "node:fs";
import { check } from "../../compiler/check.ts";
import { lower } from "../../compiler/phases/4-lower/index.ts";
import { emitFileText } from "../../compiler/phases/5-emit/file.ts";
import { PRETTIER_OPTIONS, editedChunks, formatRaw, formattedPieces, statementChunks, withoutEmptyLines } from "../../compiler/phases/5-emit/format.ts";
import { VERSION } from "../../compiler/version.ts";

const DIR = "test/fixtures/emit";

/** prettier calls, the compiler's included */
const calls = vi.hoisted(() => ({ n: 0 }));
vi.mock("prettier", async (importOriginal) => {
  const m = await importOriginal<typeof import("prettier")>();
  return { ...m, format: (...args: Parameters<typeof m.format>) => (calls.n++, m.format(...args)) };
});

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
      const chunks = await statementChunks(raw);
      expect(chunks, f.file).toBeDefined();
      expect(chunks!.length, f.file).toBeGreaterThan(3);
      expect(chunks!.join(""), f.file).toBe(raw);
      const alone: string[] = [];
      for (const c of chunks!) alone.push(c.trim() === "" ? "" : await format(c, PRETTIER_OPTIONS));
      const whole = await format(raw, PRETTIER_OPTIONS);
      expect(alone.join(""), f.file).toBe(whole);
      // the whole file's output cut at its statements: what the cache keeps for each statement
      expect(await formattedPieces(whole, chunks!.length), f.file).toEqual(alone);
    }
  });

  it("formats an edited file from the statements it shares with the last version", async () => {
    const checked = check([`${DIR}/${readdirSync(DIR).find((f) => f.endsWith(".graph"))}`]);
    const ir = lower(checked.program!).value;
    // with a statement the printer of print/ refuses (a regular expression): prettier formats the file
    const raw = `${withoutEmptyLines(emitFileText(ir.files[0]!, ir, { version: VERSION }).text)}\nconst chunksTest = /1/;`;
    calls.n = 0;
    expect(await formatRaw(raw, "edited.graph.ts")).toBe(await format(raw, PRETTIER_OPTIONS));
    expect(calls.n).toBe(2); // the file whole, once here and once by formatRaw
    // one statement changed (and unformatted): the others come from the cache, the file is as prettier prints it
    const chunks = (await statementChunks(raw))!;
    const i = chunks.findIndex((c) => c.includes("\nexport type "));
    expect(i).toBeGreaterThan(0);
    const edited = chunks.map((c, j) => (j === i ? `${c.replace("export type ", "export   type ")};\nconst extra=/x/` : c)).join("");
    calls.n = 0;
    const pretty = await formatRaw(edited, "edited.graph.ts");
    // of the three statements the changed one became (the changed one, an empty `;`, a new const), print/
    // prints the first and refuses the others; no other statement is formatted
    expect(calls.n).toBe(2);
    expect(pretty).toBe(await format(edited, PRETTIER_OPTIONS));
    // the same text again (an edit undone, a rebuild with nothing changed): no prettier at all
    calls.n = 0;
    expect(await formatRaw(edited, "edited.graph.ts")).toBe(pretty);
    expect(await formatRaw(raw, "edited.graph.ts")).toBe(await format(raw, PRETTIER_OPTIONS));
    expect(calls.n).toBe(1);
  });

  it("cuts an edited file as a full parse does, parsing only around the edit", async () => {
    const entries = readdirSync(DIR)
      .filter((f) => f.endsWith(".graph"))
      .map((f) => `${DIR}/${f}`);
    const ir = lower(check(entries).program!).value;
    let edits = 0;
    for (const f of ir.files) {
      const raw = withoutEmptyLines(emitFileText(f, ir, { version: VERSION }).text);
      const old = (await statementChunks(raw))!;
      for (const i of [1, Math.floor(old.length / 2), old.length - 2]) {
        const variants = [
          // a statement changed inside, one removed, one added after it, one made unparsable
          old.map((c, j) => (j === i ? c.replace(/=/, "= ") : c)),
          old.filter((_, j) => j !== i),
          old.map((c, j) => (j === i ? `${c}\nconst added = (1);` : c)),
          old.map((c, j) => (j === i ? `${c}\nconst broken = ;` : c)),
          // a statement a previous one could continue: `}` then `(`
          old.map((c, j) => (j === i ? `${c}\n(0);` : c)),
        ];
        for (const v of variants) {
          const edited = v.join("");
          expect(await editedChunks(edited, old), `${f.file} #${i}`).toEqual(await statementChunks(edited));
          edits++;
        }
      }
    }
    expect(edits).toBeGreaterThan(50);
    // a `}` boundary before a text that could continue its statement: the whole text is parsed
    const text = "function a() {}\n(0);\nconst b = 1;";
    expect(await editedChunks(text, ["function a() {}", "\nconst b = 1;", ""])).toEqual(await statementChunks(text));
  });

  it("formats the whole file where pieces could print differently", async () => {
    // a comment on the line a statement ends on stays on that line only when the file is formatted whole
    expect(await statementChunks("const a = 1; // one\nconst b = 2;")).toBeUndefined();
    expect(await statementChunks("const a = 1; /* one */\nconst b = 2;")).toBeUndefined();
    // prettier keeps the blank line after a directive prologue
    expect(await statementChunks('"use strict";\nconst a = 1;')).toBeUndefined();
    expect(await statementChunks("const a = ;\nconst b = 2;")).toBeUndefined();
    expect(await statementChunks("const a = 1;\n// one\nconst b = 2;\n// end")).toEqual(["const a = 1;", "\n// one\nconst b = 2;", "\n// end"]);
  });
});
