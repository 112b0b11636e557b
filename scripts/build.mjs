#!/usr/bin/env node
// `npm run build`: compiles every package to dist/ (ESM JavaScript, .d.ts, declaration and source maps).
// Order matters: the savers compile against the runtime's built declarations, as a user's project does.
// The runtime's JavaScript is then minified (identifiers kept, so stack traces still read) to stay well
// inside its size budget; its source maps are chained to the TypeScript sources the package ships.
import { execFileSync } from "node:child_process";
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const TSC = join(ROOT, "node_modules", "typescript", "bin", "tsc");

/** package folder, and whether its JavaScript is minified */
export const PACKAGES = [
  { dir: "runtime", minify: true },
  { dir: "checkpoint-sqlite", minify: false },
  { dir: "checkpoint-postgres", minify: false },
  { dir: ".", minify: false },
];

function jsFiles(dir) {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".js"))
    .map((f) => join(dir, f));
}

export async function buildAll() {
  for (const { dir, minify } of PACKAGES) {
    const pkg = join(ROOT, dir);
    const dist = join(pkg, "dist");
    rmSync(dist, { recursive: true, force: true });
    execFileSync(process.execPath, [TSC, "-p", join(pkg, "tsconfig.build.json")], { stdio: "inherit" });
    if (minify) {
      await build({
        entryPoints: jsFiles(dist),
        outdir: dist,
        outbase: dist,
        allowOverwrite: true,
        bundle: false,
        format: "esm",
        platform: "neutral",
        target: "es2022",
        minify: true,
        // class and function names survive, so errors and stack traces name what they name in the sources
        keepNames: true,
        sourcesContent: false,
        sourcemap: "linked",
        legalComments: "none",
        logLevel: "warning",
      });
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildAll();
