#!/usr/bin/env node
// `npm run build`: compiles every package to dist/ (ESM JavaScript, .d.ts, declaration and source maps).
// Order matters: the savers compile against the runtime's built declarations, as a user's project does.
// The runtime's JavaScript is then minified (identifiers kept, so stack traces still read) to stay well
// inside its size budget; its source maps are chained to the TypeScript sources the package ships.
import { execFileSync } from "node:child_process";
import { copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const TSC = join(ROOT, "node_modules", "typescript", "bin", "tsc");

/**
 * Package folders. `minify`: minify the JavaScript. `documented`: the modules whose declarations keep their
 * doc comments (what users see in the editor); the other declarations are the runtime's internals, emitted
 * without comments to keep the install small (each with its own declaration map, so "go to definition"
 * still lands on the right source line).
 */
export const PACKAGES = [
  {
    dir: "runtime",
    minify: true,
    documented: [
      "index", "core", "install", "saver", "spec", "graph", "errors", "reducers", "command", "stream", "policy",
      "typed", "checkpoint/types", "checkpoint/memory", "checkpoint/errors", "checkpoint/stored-saver",
    ],
  },
  { dir: "checkpoint-sqlite", minify: false },
  { dir: "checkpoint-postgres", minify: false },
  { dir: "langgraph", minify: false },
  { dir: "server", minify: false },
  { dir: ".", minify: false },
];

function jsFiles(dir) {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".js"))
    .map((f) => join(dir, f));
}

function tsc(pkg, ...args) {
  execFileSync(process.execPath, [TSC, "-p", join(pkg, "tsconfig.build.json"), ...args], { stdio: "inherit" });
}

/**
 * tsc keeps the `.ts` of relative specifiers in declaration files (it rewrites them only in JavaScript):
 * `.ts` → `.js` has the same length, so the declaration maps stay exact.
 */
function jsSpecifiers(dist) {
  for (const f of readdirSync(dist, { recursive: true, encoding: "utf8" })) {
    if (!f.endsWith(".d.ts")) continue;
    const path = join(dist, f);
    const text = readFileSync(path, "utf8");
    const fixed = text.replace(/((?:from |import\()"\.\.?\/[^"]*)\.ts"/g, '$1.js"');
    if (fixed !== text) writeFileSync(path, fixed);
  }
}

/** Replaces the declarations of the modules not in `documented` by comment-free ones. */
function stripInternalDocs(pkg, dist, documented) {
  // same depth as dist/, so the declaration maps' relative source paths are the same
  const bare = join(pkg, ".dist-bare");
  rmSync(bare, { recursive: true, force: true });
  tsc(pkg, "--emitDeclarationOnly", "--removeComments", "--outDir", bare);
  for (const f of readdirSync(bare, { recursive: true, encoding: "utf8" })) {
    const module = f.replace(/\.d\.ts(\.map)?$/, "");
    if (module === f || documented.includes(module.split(sep).join("/"))) continue;
    copyFileSync(join(bare, f), join(dist, f));
  }
  rmSync(bare, { recursive: true, force: true });
}

/** the `.d.ts` files the package's exports name (`types` conditions), relative to the package folder */
function exportedTypes(pkg) {
  const { exports } = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8"));
  return Object.values(exports)
    .map((e) => (typeof e === "object" && e !== null ? e.types : undefined))
    .filter((t) => typeof t === "string");
}

/**
 * Deletes the declarations no exported entry reaches through its imports (the runtime's internals: the loop,
 * durable execution, tasks), with their maps: a user's type checker never opens them, and they are most of
 * what the runtime's install weighs beyond its JavaScript.
 */
function pruneDeclarations(pkg, dist) {
  const reached = new Set();
  const todo = exportedTypes(pkg).map((t) => join(pkg, t));
  while (todo.length > 0) {
    const file = todo.pop();
    if (reached.has(file)) continue;
    reached.add(file);
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(/(?:from |import\()"(\.\.?\/[^"]+)\.js"/g)) todo.push(join(dirname(file), `${m[1]}.d.ts`));
  }
  for (const f of readdirSync(dist, { recursive: true, encoding: "utf8" })) {
    const path = join(dist, f);
    if (f.endsWith(".d.ts") && !reached.has(path)) {
      rmSync(path);
      rmSync(`${path}.map`, { force: true });
    }
  }
}

export async function buildAll() {
  for (const { dir, minify, documented } of PACKAGES) {
    const pkg = join(ROOT, dir);
    const dist = join(pkg, "dist");
    rmSync(dist, { recursive: true, force: true });
    tsc(pkg);
    if (documented) stripInternalDocs(pkg, dist, documented);
    jsSpecifiers(dist);
    if (documented) pruneDeclarations(pkg, dist);
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
