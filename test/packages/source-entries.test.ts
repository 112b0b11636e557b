/**
 * In the repository every package name resolves to its TypeScript source: vitest and the test bundles use
 * test/source-entries.ts, tsc and tsx use tsconfig.json `paths`. They must name the same files, and each
 * entry must be a subpath the package really exports (so code that works here works for users).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ts } from "ts-morph";
import { describe, expect, it } from "vitest";
import { RUNTIME_VERSION } from "@graphc/runtime";
import { SOURCE_ENTRIES } from "../source-entries.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const PACKAGE_DIRS: Record<string, string> = {
  graphc: ".",
  "@graphc/runtime": "runtime",
  "@graphc/checkpoint-sqlite": "checkpoint-sqlite",
  "@graphc/checkpoint-postgres": "checkpoint-postgres",
  "@graphc/langgraph": "langgraph",
  "@graphc/server": "server",
};

describe("source entries", () => {
  it("tsconfig.json paths map the same names to the same files", () => {
    const config = ts.readConfigFile(join(ROOT, "tsconfig.json"), ts.sys.readFile).config as {
      compilerOptions: { paths: Record<string, string[]> };
    };
    const paths = Object.fromEntries(Object.entries(config.compilerOptions.paths).map(([k, [v]]) => [k, v!.replace(/^\.\//, "")]));
    expect(paths).toEqual(SOURCE_ENTRIES);
  });

  it("each name is a subpath its package exports, and each source file exists", () => {
    for (const [name, file] of Object.entries(SOURCE_ENTRIES)) {
      expect(existsSync(join(ROOT, file)), file).toBe(true);
      const pkgName = Object.keys(PACKAGE_DIRS).find((p) => name === p || name.startsWith(`${p}/`))!;
      const pkg = JSON.parse(readFileSync(join(ROOT, PACKAGE_DIRS[pkgName]!, "package.json"), "utf8")) as {
        name: string;
        exports: Record<string, { types: string; import: string }>;
      };
      expect(pkg.name).toBe(pkgName);
      const entry = pkg.exports[`.${name.slice(pkgName.length)}`];
      expect(entry, name).toBeDefined();
      // dist/x.js is compiled from the package's x.ts
      const source = join(PACKAGE_DIRS[pkgName]!, entry!.import.replace(/^\.\/dist\//, "").replace(/\.js$/, ".ts"));
      expect(join(source), name).toBe(join(file));
    }
  });
});

describe("package versions", () => {
  it("are one version: every package, the savers' peer on the runtime, and RUNTIME_VERSION", () => {
    const read = (dir: string) =>
      JSON.parse(readFileSync(join(ROOT, dir, "package.json"), "utf8")) as {
        version: string;
        peerDependencies?: Record<string, string>;
      };
    const versions = Object.values(PACKAGE_DIRS).map((dir) => read(dir).version);
    expect(new Set(versions)).toEqual(new Set([RUNTIME_VERSION]));
    for (const saver of ["checkpoint-sqlite", "checkpoint-postgres"]) {
      expect(read(saver).peerDependencies).toEqual({ "@graphc/runtime": RUNTIME_VERSION });
    }
  });
});
