// The published JavaScript of a bundled package (the runtime): one esbuild bundle per entry of its
// package.json `exports`, the modules several entries share in chunks (dist/chunks/), minified across
// modules. Against one minified file per module this drops every import/export statement and source map
// comment between modules, and lets the minifier rename what crosses module boundaries.
import { readFileSync, rmSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { build, transform } from "esbuild";
import { ts } from "ts-morph";
import { manglePattern } from "./mangle-props.mjs";

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
 * A named module's JavaScript (esbuild's transform of its TypeScript, with an inline source map that the
 * bundle's map chains back to the .ts source), each exported class given `static get name()`. esbuild's
 * `keepNames` would name every function too, with a static block per class: a side effect, for which a
 * user's bundler keeps every named class of a chunk it imports (all the stores and savers in an app that
 * uses none), and esbuild's minifier drops the pure annotations that could say otherwise. A getter is
 * side-effect free: an unused class is dropped, a used one keeps its name (non-enumerable, as a class's own).
 */
async function keepClassNames(path) {
  const { code } = await transform(readFileSync(path, "utf8"), {
    loader: "ts",
    format: "esm",
    target: "es2022",
    sourcemap: "inline",
    sourcefile: path,
    // what the bundle reads from the package's tsconfig (which `extends`, not followed here)
    tsconfigRaw: { compilerOptions: { target: "ES2022", verbatimModuleSyntax: true } },
  });
  const source = ts.createSourceFile(path, code, ts.ScriptTarget.Latest, true);
  // the module's exported classes (esbuild lists the exports at the end: `export { A, b as B }`); a class
  // keeps its own name, as it has unminified
  const exported = new Set();
  for (const s of source.statements) {
    if (ts.isExportDeclaration(s) && s.exportClause !== undefined && ts.isNamedExports(s.exportClause)) {
      for (const e of s.exportClause.elements) exported.add((e.propertyName ?? e.name).text);
    }
  }
  let out = code;
  for (const s of [...source.statements].reverse()) {
    if (!ts.isClassDeclaration(s) || s.name === undefined) continue;
    const isExported = exported.has(s.name.text) || (ts.getCombinedModifierFlags(s) & ts.ModifierFlags.Export) !== 0;
    if (!isExported) continue;
    // at the end of the class's first line, after its `{`: no mapped column moves
    const at = s.members.pos;
    if (code[at - 1] !== "{" || code[at] !== "\n") throw new Error(`${path}: class ${s.name.text} does not open its body at a line's end`);
    out = `${out.slice(0, at)} static get name() { return ${JSON.stringify(s.name.text)}; }${out.slice(at)}`;
  }
  return out;
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
      b.onLoad({ filter: /\.ts$/ }, async (args) => {
        const module = relative(pkg, args.path).slice(0, -3).split(sep).join("/");
        return named.includes(module) ? { contents: await keepClassNames(args.path), loader: "js" } : undefined;
      });
    },
  };
  // an entry that re-exports another (index → core, install) imports that entry's published file: its
  // export list is not repeated, and both entries still hand out the same module instances
  const entries = new Set(entryPoints.map((e) => resolve(e)));
  const entryImports = {
    name: "entry-imports",
    setup(b) {
      b.onResolve({ filter: /^\.\.?\// }, (args) => {
        if (!entries.has(args.importer)) return undefined;
        const target = resolve(dirname(args.importer), args.path);
        if (!entries.has(target) || target === args.importer) return undefined;
        return { path: `./${relative(dirname(args.importer), target).split(sep).join("/").replace(/\.ts$/, ".js")}`, external: true };
      });
    },
  };
  await build({
    entryPoints,
    outdir: dist,
    outbase: pkg,
    bundle: true,
    splitting: true,
    chunkNames: "chunks/[hash]",
    format: "esm",
    platform: "neutral",
    target: "es2022",
    tsconfig: join(pkg, "tsconfig.build.json"),
    minify: true,
    sourcemap: "linked",
    sourcesContent: false,
    legalComments: "none",
    // the runtime's internal member names, shortened (mangle-props.mjs says which and why they are safe)
    mangleProps: manglePattern(),
    plugins: [entryImports, keepNames],
    logLevel: "warning",
  });
}
