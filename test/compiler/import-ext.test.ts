/**
 * `--import-ext js|ts|none`: the relative imports of generated code follow the user's module settings, by
 * default read from the nearest tsconfig.json (`.ts` when it allows `.ts` specifiers, else `.js`).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { withImportExt } from "../../compiler/phases/5-emit/import-ext.ts";
import { userTsconfig } from "../../compiler/user-tsconfig.ts";
import { project, run } from "../cli/harness.ts";

const CHILD = `import { shout } from "./child.nodes.ts"
graph Child {
  state { text: string, loud: string }
  input { text }
  output { loud }
  node shout({ text }) -> { loud } = shout
  START -> shout -> END
}
`;
const PARENT = `import { Child } from "./child.graph"
graph Parent {
  state { text: string, loud: string }
  input { text }
  output { loud }
  subgraph child = Child
  START -> child -> END
}
`;
const NODES = `import type { ChildShoutRead, ChildShoutUpdate } from "./child.graph.ts";
export const shout = (s: ChildShoutRead): ChildShoutUpdate => ({ loud: s.text.toUpperCase() });
`;

const p = project({ "child.graph": CHILD, "parent.graph": PARENT, "child.nodes.ts": NODES });
afterAll(() => p.remove());

const imports = (file: string) => [...readFileSync(join(p.dir, file), "utf8").matchAll(/ from "(\.[^"]*)";/g)].map((m) => m[1]);

describe("withImportExt", () => {
  it.each([
    ["./a.ts", "js", "./a.js"],
    ["./a.js", "ts", "./a.ts"],
    ["../x/a.mts", "js", "../x/a.mjs"],
    ["./a.cjs", "ts", "./a.cts"],
    ["./a.ts", "none", "./a"],
    ["./a.js", "none", "./a"],
    ["./a.mts", "none", "./a.mjs"],
    ["./a.ts", "ts", "./a.ts"],
    ["./types.d.ts", "js", "./types.d.ts"],
    ["./a", "js", "./a"],
    ["./a.json", "js", "./a.json"],
    ["some-package/a.ts", "js", "some-package/a.ts"],
  ] as const)("%s with %s is %s", (spec, ext, expected) => {
    expect(withImportExt(spec, ext)).toBe(expected);
  });
});

describe("graphc build --import-ext", () => {
  it("rewrites the node modules' and the child graph's imports", async () => {
    expect((await run(p.dir, ["build", "--no-typecheck", "--import-ext", "js"])).code).toBe(0);
    expect(imports("child.graph.ts")).toEqual(["./child.nodes.js"]);
    expect(imports("parent.graph.ts")).toEqual(["./child.graph.js"]);
    expect((await run(p.dir, ["build", "--no-typecheck", "--import-ext", "none"])).code).toBe(0);
    expect(imports("parent.graph.ts")).toEqual(["./child.graph"]);
  });

  it("defaults to the nearest tsconfig: .js without .ts imports, .ts with allowImportingTsExtensions or rewriteRelativeImportExtensions", async () => {
    const cases = [
      [{ module: "NodeNext" }, "./child.nodes.js"],
      [{ module: "NodeNext", allowImportingTsExtensions: true, noEmit: true }, "./child.nodes.ts"],
      [{ module: "NodeNext", rewriteRelativeImportExtensions: true }, "./child.nodes.ts"],
    ] as const;
    for (const [compilerOptions, expected] of cases) {
      const dir = join(p.dir, `case-${expected.slice(-2)}-${Object.keys(compilerOptions).length}`);
      p.write(`${dir.slice(p.dir.length + 1)}/tsconfig.json`, JSON.stringify({ compilerOptions }));
      for (const f of ["child.graph", "child.nodes.ts"]) writeFileSync(join(dir, f), readFileSync(join(p.dir, f)));
      expect(userTsconfig(dir).file).toBe(join(dir, "tsconfig.json"));
      expect((await run(dir, ["build", "--no-typecheck", "child.graph"])).code).toBe(0);
      expect(imports(join(dir.slice(p.dir.length + 1), "child.graph.ts"))).toEqual([expected]);
    }
  });

  it("refuses an unknown extension (usage error)", async () => {
    const r = await run(p.dir, ["build", "--import-ext", "mjs"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("js, ts, none");
  });
});
