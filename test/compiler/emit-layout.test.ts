/**
 * The linear layout for generated files too big for prettier (phases/5-emit/layout.ts): it changes only
 * layout (prettier prints the re-indented text exactly as it prints the emitters' text, on every emit
 * fixture: escapes, templates, comments included), and a file over the threshold gets it, deterministically,
 * as valid TypeScript with every line still mapped.
 */
import { format } from "prettier";
import { describe, expect, it } from "vitest";
import { readdirSync } from "node:fs";
import { ts } from "ts-morph";
import { check } from "../../compiler/check.ts";
import { memoryHost } from "../../compiler/phases/2-bind/host.ts";
import { lower } from "../../compiler/phases/4-lower/index.ts";
import { emitFile } from "../../compiler/phases/5-emit/index.ts";
import { emitFileText } from "../../compiler/phases/5-emit/file.ts";
import { PRETTIER_OPTIONS, withoutEmptyLines } from "../../compiler/phases/5-emit/format.ts";
import { PRETTIER_MAX_CHARS, prettierPays, reindent } from "../../compiler/phases/5-emit/layout.ts";
import { VERSION } from "../../compiler/version.ts";

const DIR = "test/fixtures/emit";
const options = { version: VERSION };

function lowered(entries: string[], host?: Parameters<typeof check>[1]) {
  const checked = check(entries, host);
  expect(checked.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return lower(checked.program!).value;
}

describe("reindent", () => {
  const entries = readdirSync(DIR)
    .filter((f) => f.endsWith(".graph"))
    .map((f) => `${DIR}/${f}`);

  it("changes only layout: prettier prints every emit fixture the same either way", async () => {
    const ir = lowered(entries);
    expect(ir.files.length).toBeGreaterThan(3);
    for (const f of ir.files) {
      const raw = withoutEmptyLines(emitFileText(f, ir, options).text);
      const laid = reindent(raw);
      expect(laid).not.toBe(raw);
      expect(await format(laid, PRETTIER_OPTIONS), f.file).toBe(await format(raw, PRETTIER_OPTIONS));
    }
  });

  it("keeps strings, template literals and comments as they are", () => {
    const text = ["const a = {", "b: `x", "   ${ {c: 1}.c }", "  y`,", "/* one", "   * two */", 'd: "}{",', "e: /[/}]/,", "};"].join("\n");
    expect(reindent(text)).toBe(
      ["const a = {", "  b: `x", "   ${ {c: 1}.c }", "  y`,", "  /* one", "   * two */", '  d: "}{",', "  e: /[/}]/,", "};"].join("\n"),
    );
  });

  it("indents the statements of a case label", () => {
    expect(reindent("switch (k) {\ncase 1:\nf();\nbreak;\ndefault:\ng();\n}")).toBe(
      "switch (k) {\n  case 1:\n    f();\n    break;\n  default:\n    g();\n}",
    );
  });
});

describe("files too big for prettier", () => {
  const n = 400;
  const text = `import { step } from "./steps.ts"\ngraph Wide {\n  state {\n${Array.from({ length: n }, (_, i) => `    f${i}: number = 0`).join("\n")}\n  }\n  node a(State) -> { f0, f1 } = step\n  START -> a -> END\n}\n`;
  const host = memoryHost({ "wide.graph": text, "steps.ts": "" });

  it("get the linear layout: deterministic, valid TypeScript, every line mapped as before", async () => {
    const ir = lowered(["wide.graph"], host);
    const raw = emitFileText(ir.files[0]!, ir, options);
    expect(raw.text.length).toBeGreaterThan(PRETTIER_MAX_CHARS);
    const a = await emitFile(ir.files[0]!, ir, text, options);
    const b = await emitFile(ir.files[0]!, ir, text, options);
    expect(a.value.text).toBe(b.value.text);
    expect(a.value.text).toContain('\nconst WideSpecInit: WideSpecType["init"] = () => ({\n  f0: 0,\n');
    const source = ts.createSourceFile("wide.graph.ts", a.value.text, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
    expect((source as unknown as { parseDiagnostics: unknown[] }).parseDiagnostics).toEqual([]);
    // the field `f7`'s apply case maps back to its state line
    const line = a.value.text.split("\n").findIndex((l) => l.trim().startsWith('case "f7": v["f7"] ='));
    expect(a.value.lines[line]?.start.line).toBe(4 + 7);
  });

  it("include one line too long for prettier: a union of 2,500 literals compiles (prettier overflowed on its input check)", async () => {
    const members = Array.from({ length: 2500 }, (_, i) => `"v${i}"`).join(" | ");
    const src = `type U = ${members}\ngraph G {\n  state { x: U = "v0" }\n  START -> END\n}\n`;
    const ir = lowered(["u.graph"], memoryHost({ "u.graph": src }));
    const raw = emitFileText(ir.files[0]!, ir, options).text;
    expect(raw.length).toBeLessThan(PRETTIER_MAX_CHARS);
    expect(prettierPays(raw)).toBe(false);
    const out = await emitFile(ir.files[0]!, ir, src, options);
    expect(out.value.text).toContain('"v2499"');
  });

  it("prettier pays for short texts with short lines only", () => {
    expect(prettierPays("const a = 1;\nconst b = 2;\n")).toBe(true);
    expect(prettierPays(`const a = [${"1, ".repeat(8000)}];`)).toBe(false);
    expect(prettierPays("x;\n".repeat(PRETTIER_MAX_CHARS))).toBe(false);
  });
});
