/**
 * `import { App } from "./app.graph"` in one small app, built for real by each of the five bundlers with
 * @graphc/unplugin, then run with node: the graph's output, the source map back to the `.graph` lines,
 * and (where the bundler reports them) the files the build watches.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { nodeResolve } from "@rollup/plugin-node-resolve";
import { rspack } from "@rspack/core";
import { build as esbuild } from "esbuild";
import { rollup } from "rollup";
import { build as viteBuild } from "vite";
import { afterAll, describe, expect, it } from "vitest";
import webpack from "webpack";
import graphcEsbuild from "@graphc/unplugin/esbuild";
import graphcRollup from "@graphc/unplugin/rollup";
import graphcRspack from "@graphc/unplugin/rspack";
import graphcVite from "@graphc/unplugin/vite";
import graphcWebpack from "@graphc/unplugin/webpack";
import { copyApp, exactAliases, ROOT, EXPECTED, lineOf, originOf, runBundle, runCompiler, SOURCE_ALIASES, typescriptSources } from "./app.ts";

const app = copyApp("bundlers");
afterAll(() => app.remove());
const at = (f: string) => join(app.dir, f);

/** the line of app.graph the spec's `name: "App"` comes from: the graph's declaration */
const GRAPH_LINE = lineOf(at("app.graph"), "graph App {");
const NODE_LINE = lineOf(at("research.graph"), "node search");

/** the bundle runs and prints the graph's output; its source map leads to the .graph lines */
async function expectWorkingBundle(file: string): Promise<void> {
  expect(await runBundle(file)).toEqual(EXPECTED);
  expect(originOf(file, 'name: "App"')).toEqual({ source: expect.stringMatching(/app\.graph$/), line: GRAPH_LINE });
  expect(originOf(file, 'name: "search"')).toEqual({ source: expect.stringMatching(/research\.graph$/), line: NODE_LINE });
}

// webpack and Rspack: `$` makes an alias match the exact name only
const webpackAliases = Object.fromEntries(Object.entries(SOURCE_ALIASES).map(([name, file]) => [`${name}$`, file]));
const WATCHED = [at("app.graph"), at("research.graph"), at("nodes.ts")];

describe("@graphc/unplugin builds the app with", () => {
  it("Rollup 4 (+ @rollup/plugin-node-resolve): the bundle runs, maps to app.graph, watches every dependency", async () => {
    const bundle = await rollup({
      input: at("main.ts"),
      plugins: [graphcRollup({ cwd: app.dir }), typescriptSources.rollup(), nodeResolve()],
      logLevel: "silent",
    });
    const file = at("out/rollup.mjs");
    await bundle.write({ file, format: "es", sourcemap: true });
    await bundle.close();
    await expectWorkingBundle(file);
    expect(bundle.watchFiles).toEqual(expect.arrayContaining(WATCHED));
    // the types TypeScript reads for `./app.graph`, as `graphc build` writes them
    expect(existsSync(at("app.graph.ts")) && existsSync(at("research.graph.ts"))).toBe(true);
  });

  it("Vite 8 (library build)", async () => {
    const outDir = at("out/vite");
    await viteBuild({
      root: app.dir,
      configFile: false,
      logLevel: "silent",
      plugins: [graphcVite()],
      resolve: { alias: exactAliases() },
      build: {
        outDir,
        emptyOutDir: true,
        minify: false,
        sourcemap: true,
        lib: { entry: at("main.ts"), formats: ["es"], fileName: () => "main.mjs" },
      },
    });
    await expectWorkingBundle(join(outDir, "main.mjs"));
  });

  it("esbuild (@graphc/runtime through the app's tsconfig paths)", async () => {
    const outfile = at("out/esbuild.mjs");
    await esbuild({
      entryPoints: [at("main.ts")],
      absWorkingDir: app.dir,
      bundle: true,
      platform: "node",
      format: "esm",
      outfile,
      sourcemap: true,
      logLevel: "silent",
      plugins: [graphcEsbuild()],
    });
    await expectWorkingBundle(outfile);
  });

  it("webpack 5", async () => {
    const outDir = at("out/webpack");
    const stats = await runCompiler(
      webpack({
        mode: "none",
        context: app.dir,
        entry: at("main.ts"),
        target: "node",
        devtool: "source-map",
        output: { path: outDir, filename: "main.cjs" },
        resolve: { alias: webpackAliases },
        plugins: [graphcWebpack(), typescriptSources.webpack()],
      }),
    );
    expect(stats.hasErrors(), stats.toString("errors-only")).toBe(false);
    await expectWorkingBundle(join(outDir, "main.cjs"));
    expect([...stats.compilation.fileDependencies]).toEqual(expect.arrayContaining(WATCHED));
  });

  it("Rspack 2 (its own swc loader for the .ts files)", async () => {
    const outDir = at("out/rspack");
    const stats = await runCompiler(
      rspack({
        mode: "none",
        context: app.dir,
        entry: at("main.ts"),
        target: "node",
        devtool: "source-map",
        output: { path: outDir, filename: "main.cjs" },
        resolve: { alias: webpackAliases },
        module: { rules: [{ test: /\.ts$/, loader: "builtin:swc-loader", options: { jsc: { parser: { syntax: "typescript" } } } }] },
        plugins: [graphcRspack()],
      }),
    );
    expect(stats.hasErrors(), stats.toString("errors-only")).toBe(false);
    await expectWorkingBundle(join(outDir, "main.cjs"));
    expect([...stats.compilation.fileDependencies]).toEqual(expect.arrayContaining(WATCHED));
  });

  it("TypeScript users: tsc types `import { App } from \"./app.graph\"` from the app.graph.ts the plugin wrote (typed.ts)", async () => {
    // typed.ts has a @ts-expect-error on a misspelt input key: were App `any`, that directive would fail
    await promisify(execFile)(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", at("tsconfig.json")], {
      encoding: "utf8",
    }).catch((e: { stdout?: string }) => {
      throw new Error(`tsc failed:\n${e.stdout ?? String(e)}`);
    });
  });
});
