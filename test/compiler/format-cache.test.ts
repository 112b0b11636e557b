/**
 * The on-disk cache of prettier's output (format-cache.ts): what a later process reads is exactly what
 * prettier prints, it is keyed on prettier's options, and a build formats only the statements that
 * changed since the last process.
 */
import { format } from "prettier";
import { afterAll, describe, expect, it, vi } from "vitest";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { check } from "../../compiler/check.ts";
import { lower } from "../../compiler/phases/4-lower/index.ts";
import { emitFileText } from "../../compiler/phases/5-emit/file.ts";
import { FormatCache } from "../../compiler/phases/5-emit/format-cache.ts";
import { PRETTIER_OPTIONS, formatRaw, statementChunks, withoutEmptyLines } from "../../compiler/phases/5-emit/format.ts";
import { VERSION } from "../../compiler/version.ts";
import { tempDir } from "../temp-dir.ts";

const DIR = "test/fixtures/emit";

/** prettier calls, the compiler's included */
const calls = vi.hoisted(() => ({ n: 0 }));
vi.mock("prettier", async (importOriginal) => {
  const m = await importOriginal<typeof import("prettier")>();
  return { ...m, format: (...args: Parameters<typeof m.format>) => (calls.n++, m.format(...args)) };
});

const tmp = tempDir("format-cache");
afterAll(() => tmp.remove());

/** a project folder with its own node_modules (where the cache lives) */
function project(name: string): string {
  const dir = join(tmp.dir, name);
  mkdirSync(join(dir, "node_modules"), { recursive: true });
  return dir;
}

function fixtureRaw(): string {
  const checked = check([`${DIR}/${readdirSync(DIR).find((f) => f.endsWith(".graph"))}`]);
  const ir = lower(checked.program!).value;
  return withoutEmptyLines(emitFileText(ir.files[0]!, ir, { version: VERSION }).text);
}

describe("the disk cache of prettier's output", () => {
  it("gives a later process the file as prettier prints it, and only the changed statement to format", async () => {
    const dir = project("a");
    // a text no other test formatted (the in-memory caches of this process do not know it), with a
    // statement the printer of print/ refuses (a regular expression): prettier formats that file
    const raw = `${fixtureRaw()}\nexport const formatCacheTest = /1/;`;
    const first = FormatCache.open(dir, PRETTIER_OPTIONS)!;
    calls.n = 0;
    const pretty = await formatRaw(raw, "first.graph.ts", first);
    expect(calls.n).toBe(1); // whole
    first.save();
    expect(JSON.parse(readFileSync(join(dir, "node_modules/.cache/graphc/format.json"), "utf8"))).toBeTypeOf("object");

    // the next process: one statement edited, a path it never formatted; the others from the cache, the
    // edited one printed by print/
    const chunks = (await statementChunks(raw))!;
    const i = chunks.findIndex((c) => c.includes("\nexport type "));
    expect(i).toBeGreaterThan(0);
    const edited = chunks.map((c, j) => (j === i ? c.replace("export type ", "export   type ") : c)).join("");
    calls.n = 0;
    const again = await formatRaw(edited, "second.graph.ts", FormatCache.open(dir, PRETTIER_OPTIONS));
    expect(calls.n).toBe(0);
    expect(again).toBe(await format(edited, PRETTIER_OPTIONS));
    expect(again).toBe(pretty);
    // the refused statement edited: prettier formats it alone
    const refused = edited.replace("/1/", "/2/");
    calls.n = 0;
    const third = await formatRaw(refused, "third.graph.ts", FormatCache.open(dir, PRETTIER_OPTIONS));
    expect(calls.n).toBe(1);
    expect(third).toBe(await format(refused, PRETTIER_OPTIONS));
  });

  it("is keyed on prettier's options, and starts empty from an unreadable file", async () => {
    const dir = project("b");
    const c = FormatCache.open(dir, PRETTIER_OPTIONS)!;
    c.put("const a=1", "const a = 1;\n");
    c.save();
    expect(FormatCache.open(dir, PRETTIER_OPTIONS)!.get("const a=1")).toBe("const a = 1;\n");
    expect(FormatCache.open(dir, { ...PRETTIER_OPTIONS, printWidth: 80 })!.get("const a=1")).toBeUndefined();
    writeFileSync(join(dir, "node_modules/.cache/graphc/format.json"), "{ not json");
    expect(FormatCache.open(dir, PRETTIER_OPTIONS)!.get("const a=1")).toBeUndefined();
  });

  it("is read once per process (and written as it exits)", () => {
    const dir = project("c");
    const c = FormatCache.forProcess(dir, PRETTIER_OPTIONS)!;
    expect(FormatCache.forProcess(dir, PRETTIER_OPTIONS)).toBe(c);
    expect(FormatCache.open(dir, PRETTIER_OPTIONS)).not.toBe(c);
  });

  it("is not used without a node_modules folder above the project", () => {
    expect(FormatCache.open("/", PRETTIER_OPTIONS)).toBeUndefined();
  });
});
