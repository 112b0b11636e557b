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

/**
 * Bundles the package's entries into `dist`. `named`: the modules (paths without `.ts`, relative to the
 * package) whose class and function names survive minification: error classes name themselves with
 * `new.target.name`, and the classes users meet print by name. Each is compiled with esbuild's `keepNames`
 * before bundling (the option is per build, and on every module it costs ~6 KB of `__name` calls).
 */
export async function bundleJs(pkg, dist, named) {
  const entryPoints = exportConditions(pkg)
    .map((c) => c.import)
    .filter((f) => typeof f === "string")
    .map((f) => sourceOf(pkg, f));
  rmSync(join(dist, "chunks"), { recursive: true, force: true });
  const keepNames = {
    name: "keep-names",
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, async (args) => {
        const module = relative(pkg, args.path).slice(0, -3).split(sep).join("/");
        if (!named.includes(module)) return undefined;
        const source = readFileSync(args.path, "utf8");
        // an inline source map, which the bundle's map chains back to the .ts source
        const { code } = await transform(source, {
          loader: "ts",
          format: "esm",
          target: "es2022",
          keepNames: true,
          sourcemap: "inline",
          sourcefile: args.path,
          // what the bundle reads from the package's tsconfig (which `extends`, not followed here)
          tsconfigRaw: { compilerOptions: { target: "ES2022", verbatimModuleSyntax: true } },
        });
        return { contents: code, loader: "js" };
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
