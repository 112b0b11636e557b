/**
 * The relative imports of generated code, pointed at the files on disk (unplugin/imports.ts): whatever
 * `--import-ext` graphc used for the user's tsc, the bundle imports the node module's `.ts` file and the
 * other graph's `.graph` file, which every bundler resolves without configuration.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { rewriteImports } from "../../unplugin/imports.ts";
import { tempDir } from "../temp-dir.ts";

const tmp = tempDir("unplugin-imports");
afterAll(() => tmp.remove());
for (const f of ["nodes.ts", "research.graph", "lib/index.ts"]) {
  mkdirSync(join(tmp.dir, f, ".."), { recursive: true });
  writeFileSync(join(tmp.dir, f), "");
}
const generated = join(tmp.dir, "app.graph.ts");
const rewrite = (spec: string) => rewriteImports(`import { a } from "${spec}";\n`, generated);

describe("rewriteImports", () => {
  it.each([
    ["./nodes.js", "./nodes.ts"],
    ["./nodes.ts", "./nodes.ts"],
    ["./nodes", "./nodes.ts"],
    ["./lib", "./lib/index.ts"],
    ["./research.graph.js", "./research.graph"],
    ["./research.graph.ts", "./research.graph"],
    ["./research.graph", "./research.graph"],
  ])("%s → %s", (spec, want) => {
    const out = rewrite(spec);
    expect(out.text).toBe(`import { a } from "${want}";\n`);
    expect(out.files).toEqual([join(tmp.dir, want.replace(/^\.\//, ""))]);
  });

  it("leaves packages and files that do not exist alone (the bundler reports those)", () => {
    for (const spec of ["@graphc/runtime", "./missing.js"]) {
      expect(rewrite(spec)).toEqual({ text: `import { a } from "${spec}";\n`, files: [] });
    }
  });
});
