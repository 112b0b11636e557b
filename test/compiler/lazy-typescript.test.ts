/**
 * A build checks types with native TypeScript 7 (ts-native.ts); ts-morph and the TypeScript JavaScript API it
 * carries (about 0.6 s to load) are for the fallback pass, `--watch` and the language server only
 * (compiler/ts-api.ts loads them on first use). A module of the build path that reads `ts` at its top level
 * loads them in every `graphc build`: a "nothing changed" build of samples/customer-service went from 1.2 to
 * 1.8 s that way. Importing the compiler must not load them.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");

describe("the compiler loads TypeScript's JavaScript API only when it is used", () => {
  it("importing the compiler and its native TypeScript pass loads no ts-morph", () => {
    const dir = mkdtempSync(join(tmpdir(), "graphc-lazy-ts-"));
    try {
      const script = join(dir, "probe.mts");
      const url = (p: string) =>
        JSON.stringify(pathToFileURL(join(ROOT, p)).href);
      writeFileSync(
        script,
        [
          `import { createRequire } from "node:module";`,
          `await import(${url("compiler/index.ts")});`,
          `await import(${url("compiler/phases/5-emit/ts-native.ts")});`,
          `await import(${url("compiler/phases/5-emit/ts-check.ts")});`,
          `const loaded = Object.keys(createRequire(import.meta.url).cache).filter((k) => /[\\\\/]ts-morph[\\\\/]|[\\\\/]@ts-morph[\\\\/]/.test(k));`,
          `console.log(JSON.stringify(loaded));`,
        ].join("\n"),
      );
      const run = spawnSync(process.execPath, ["--import", "tsx", script], {
        cwd: ROOT,
        encoding: "utf8",
      });
      expect(run.stderr).toBe("");
      expect(JSON.parse(run.stdout.trim())).toEqual([]);
      // the probe can see a load: reading `ts` makes one
      writeFileSync(
        script,
        [
          `import { createRequire } from "node:module";`,
          `const { ts } = await import(${url("compiler/ts-api.ts")});`,
          `void ts.TypeFlags;`,
          `console.log(Object.keys(createRequire(import.meta.url).cache).some((k) => /[\\\\/]ts-morph[\\\\/]/.test(k)));`,
        ].join("\n"),
      );
      const control = spawnSync(process.execPath, ["--import", "tsx", script], {
        cwd: ROOT,
        encoding: "utf8",
      });
      expect(control.stdout.trim()).toBe("true");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
