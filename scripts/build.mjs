#!/usr/bin/env node
// `npm run build`: compiles every package to dist/ (ESM JavaScript, .d.ts, declaration and source maps).
// Order matters: the savers compile against the runtime's built declarations, as a user's project does.
// The runtime's JavaScript is bundled per entry of its `exports` with shared chunks and minified, to stay
// inside its size budget (docs/packages.md); its source maps point to the TypeScript sources the package ships.
import { execFileSync } from "node:child_process";
import { copyFileSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleJs, exportConditions } from "./bundle-js.mjs";
import { checkDocs } from "./declaration-docs.mjs";
import { checkMangled } from "./mangle-props.mjs";
import { shakeDeclarations } from "./shake-declarations.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const TSC = join(ROOT, "node_modules", "typescript", "bin", "tsc");

/**
 * Package folders. `bundle`: the JavaScript is one minified esbuild bundle per entry of the package's
 * `exports`, modules shared by entries in chunks (`named`: the modules whose exported classes keep their
 * names); otherwise it is tsc's output. `documented`: the modules whose declarations keep their
 * doc comments (what users see in the editor); the other declarations are the runtime's internals, emitted
 * without comments to keep the install small (each with its own declaration map, so "go to definition"
 * still lands on the right source line).
 */
export const PACKAGES = [
  {
    dir: "runtime",
    bundle: {
      named: [
        "errors", "checkpoint/errors", "checkpoint/corrupt", "store/types", "graph", "command-class", "reducers", "spec",
        "checkpoint/memory", "checkpoint/stored-saver", "store/memory", "store/row-store", "static/graph",
      ],
    },
    documented: [
      "index", "core", "install", "saver", "spec", "graph", "config", "errors", "reducers", "command", "stream", "policy",
      "typed", "tracing", "trace-hooks", "checkpoint/types", "checkpoint/memory", "checkpoint/errors", "checkpoint/stored-saver",
      "static/graph", "install-streaming", "graph-base",
    ],
  },
  { dir: "checkpoint-sqlite" },
  { dir: "checkpoint-postgres" },
  { dir: "langgraph" },
  { dir: "unplugin" },
  { dir: "server" },
  { dir: "." },
];

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
  const bare = join(pkg, `.dist-bare-${process.pid}`);
  rmSync(bare, { recursive: true, force: true });
  tsc(pkg, "--emitDeclarationOnly", "--removeComments", "--outDir", bare);
  for (const f of readdirSync(bare, { recursive: true, encoding: "utf8" })) {
    const module = f.replace(/\.d\.ts(\.map)?$/, "");
    if (module === f || documented.includes(module.split(sep).join("/"))) continue;
    copyFileSync(join(bare, f), join(dist, f));
  }
  rmSync(bare, { recursive: true, force: true });
}

/** the `.d.ts` files the package's exports name (`types` conditions), in the build `dist` */
function exportedTypes(pkg, dist) {
  return exportConditions(pkg)
    .map((c) => c.types)
    .filter((t) => typeof t === "string")
    .map((t) => join(dist, t.replace(/^\.\/dist\//, "")));
}

/** Replaces `dist` by the finished build `next`: two renames, retried while a concurrent build swaps its own. */
function swapIn(next, dist) {
  const old = `${next}-old`;
  for (;;) {
    rmSync(old, { recursive: true, force: true });
    try {
      renameSync(dist, old);
    } catch (e) {
      if (e.code !== "ENOENT") throw e;
    }
    try {
      renameSync(next, dist);
      break;
    } catch (e) {
      if (e.code !== "ENOTEMPTY" && e.code !== "EEXIST") throw e;
    }
  }
  rmSync(old, { recursive: true, force: true });
}

export async function buildAll() {
  for (const { dir, bundle, documented } of PACKAGES) {
    const pkg = join(ROOT, dir);
    // built beside dist/ (same depth: the maps' relative source paths hold) and swapped in when complete, so
    // that a process importing the package meanwhile (a test's worker, a second build) never meets a
    // half-built or missing dist/
    const dist = join(pkg, `.dist-next-${process.pid}`);
    rmSync(dist, { recursive: true, force: true });
    // a bundled package's JavaScript comes from esbuild, its declarations from tsc
    if (bundle) tsc(pkg, "--emitDeclarationOnly", "--outDir", dist);
    else tsc(pkg, "--outDir", dist);
    if (documented) stripInternalDocs(pkg, dist, documented);
    jsSpecifiers(dist);
    if (documented) shakeDeclarations(dist, exportedTypes(pkg, dist));
    // what users hover stays documented (declaration-docs.mjs)
    if (documented) checkDocs(dist);
    // names survive only on the exported classes of the modules users meet (`named`); every other name is
    // minified (stack frames map back through the shipped source maps)
    if (bundle) {
      checkMangled(dist);
      await bundleJs(pkg, dist, bundle.named);
    }
    swapIn(dist, join(pkg, "dist"));
  }
  // the VS Code extension (private, not published to npm) is one esbuild bundle, not a tsc build
  await (await import("../vscode/scripts/bundle.mjs")).bundleExtension();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildAll();
