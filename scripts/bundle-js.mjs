// The published JavaScript of a bundled package (the runtime): one esbuild bundle per entry of its
// package.json `exports`, the modules several entries share in chunks (dist/chunks/), minified across
// modules. Against one minified file per module this drops every import/export statement and source map
// comment between modules, and lets the minifier rename what crosses module boundaries.
import { readFileSync, rmSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { build, transform } from "esbuild";

/** the package's `exports` conditions objects (`types`, `import`), subpaths such as "./package.json" aside */
export function exportConditions(pkg) {
  const { exports } = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8"));
  return Object.values(exports).filter((e) => typeof e === "object" && e !== null);
}

/** dist/x.js → x.ts: tsc's rootDir is the package folder, so an entry's source sits at the same path */
function sourceOf(pkg, file) {
  return join(pkg, file.replace(/^\.\/dist\//, "").replace(/\.js$/, ".ts"));
}

/** the one `__name` helper the named modules share (esbuild's `keepNames` defines one in each module) */
const HELPER = "keep-names.js";
const HELPER_CODE = 'export const __name = (target, value) => Object.defineProperty(target, "name", { value, configurable: true });\n';

/**
 * A named module compiled with esbuild's `keepNames`, minus the names of its function declarations (their
 * stack frames map back through the source maps, as every other module's), with the shared helper.
 * Lines are replaced, never removed, so the inline source map stays exact.
 */
async function keepClassNames(path) {
  const { code } = await transform(readFileSync(path, "utf8"), {
    loader: "ts",
    format: "esm",
    target: "es2022",
    keepNames: true,
    // an inline source map, which the bundle's map chains back to the .ts source
    sourcemap: "inline",
    sourcefile: path,
    // what the bundle reads from the package's tsconfig (which `extends`, not followed here)
    tsconfigRaw: { compilerOptions: { target: "ES2022", verbatimModuleSyntax: true } },
  });
  return code
    .replace(/^var __defProp = Object\.defineProperty;$/m, `import { __name } from "${HELPER}";`)
    .replace(/^var __name = \(target, value\) => __defProp\(target, "name", \{ value, configurable: true \}\);$/m, "")
    .replace(/^__name\([\w$]+, "[\w$]+"\);$/gm, "");
}

/**
 * Bundles the package's entries into `dist`. `named`: the modules (paths without `.ts`, relative to the
 * package) whose class names survive minification: error classes name themselves with `new.target.name`,
 * and the classes users meet print by name.
 */
export async function bundleJs(pkg, dist, named) {
  const entryPoints = exportConditions(pkg)
    .map((c) => c.import)
    .filter((f) => typeof f === "string")
    .map((f) => sourceOf(pkg, f));
  rmSync(join(dist, "chunks"), { recursive: true, force: true });
  const keepNames = {
    name: "keep-class-names",
    setup(b) {
      b.onResolve({ filter: /^keep-names\.js$/ }, () => ({ path: HELPER, namespace: "graphc-build" }));
      b.onLoad({ filter: /.*/, namespace: "graphc-build" }, () => ({ contents: HELPER_CODE, loader: "js" }));
      b.onLoad({ filter: /\.ts$/ }, async (args) => {
        const module = relative(pkg, args.path).slice(0, -3).split(sep).join("/");
        return named.includes(module) ? { contents: await keepClassNames(args.path), loader: "js" } : undefined;
      });
    },
  };
  await build({
    entryPoints,
    outdir: dist,
    outbase: pkg,
    bundle: true,
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
    format: "esm",
    platform: "neutral",
    target: "es2022",
    tsconfig: join(pkg, "tsconfig.build.json"),
    minify: true,
    sourcemap: "linked",
    sourcesContent: false,
    legalComments: "none",
    plugins: [keepNames],
    logLevel: "warning",
  });
}
