/**
 * A `.graph` file with an error fails the build in every bundler, with graphc's code and the error's
 * `file:line:col`; Rollup and Vite also get the code frame (`frame`) and the location (`loc`) they show.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { rspack } from "@rspack/core";
import { build as esbuild, type BuildFailure } from "esbuild";
import { rollup, type RollupError } from "rollup";
import { build as viteBuild } from "vite";
import { afterAll, describe, expect, it } from "vitest";
import webpack from "webpack";
import graphcEsbuild from "@graphc/unplugin/esbuild";
import graphcRollup from "@graphc/unplugin/rollup";
import graphcRspack from "@graphc/unplugin/rspack";
import graphcVite from "@graphc/unplugin/vite";
import graphcWebpack from "@graphc/unplugin/webpack";
import { copyApp, runCompiler, typescriptSources } from "./app.ts";

const app = copyApp("errors");
afterAll(() => app.remove());
const graphFile = join(app.dir, "app.graph");
const entry = join(app.dir, "main.ts");
// a misspelt node in an edge: G2003 where `wrte` starts
const EDGE = "  START -> research -> write -> END";
writeFileSync(graphFile, readFileSync(graphFile, "utf8").replace(EDGE, EDGE.replace("write", "wrte")));
const LINES = readFileSync(graphFile, "utf8").split("\n");
const LINE = LINES.findIndex((l) => l.includes("wrte")) + 1;
const COLUMN = LINES[LINE - 1]!.indexOf("wrte") + 1;
const WHERE = `app.graph:${LINE}:${COLUMN}`;

/** the rejection of `run` (which must reject) */
async function failure(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (e) {
    return e;
  }
  throw new Error("the build succeeded");
}

describe("a .graph file with an error fails the build with G2003 at app.graph:line:col", () => {
  it("Rollup: the message, `loc` and the code frame", async () => {
    const e = (await failure(() => rollup({ input: entry, plugins: [graphcRollup({ cwd: app.dir })], logLevel: "silent" }))) as RollupError;
    expect(e.message).toContain(`${WHERE}: error[G2003]: unknown node \`wrte\``);
    expect(e.pluginCode).toBe("G2003");
    expect(e.loc).toEqual({ file: graphFile, line: LINE, column: COLUMN - 1 });
    expect(e.frame).toContain(`--> ${WHERE}`);
    // paths relative to the project folder, hints included
    expect(e.frame).toContain("did you mean `write`? (declared at app.graph:");
  });

  it("Vite build (Rolldown): the message, `loc` and the code frame", async () => {
    const thrown = (await failure(() =>
      viteBuild({ root: app.dir, configFile: false, logLevel: "silent", plugins: [graphcVite()], build: { write: false, lib: { entry, formats: ["es"] } } }),
    )) as RollupError & { errors?: RollupError[] };
    // Rolldown throws one error for all of them
    const e = thrown.errors?.[0] ?? thrown;
    expect(e.loc).toEqual({ file: graphFile, line: LINE, column: COLUMN - 1 });
    expect(e.message).toContain(`${WHERE}: error[G2003]`);
    expect(e.frame).toContain(`--> ${WHERE}`);
    // paths relative to Vite's root (the plugin's default `cwd` there), not to the process's folder
    expect(e.frame).not.toContain("_tmp-unplugin");
  });

  it("esbuild: the error's location is the .graph position", async () => {
    const e = (await failure(() =>
      esbuild({ entryPoints: [entry], absWorkingDir: app.dir, bundle: true, write: false, logLevel: "silent", plugins: [graphcEsbuild()] }),
    )) as BuildFailure;
    // relative to esbuild's absWorkingDir, the plugin's default `cwd` there
    expect(e.errors[0]?.text.startsWith(`${WHERE}: error[G2003]`)).toBe(true);
    expect(e.errors[0]?.text).toContain("did you mean `write`?");
    // esbuild shows the file relative to its working directory
    expect(e.errors[0]?.location).toMatchObject({ file: "app.graph", line: LINE, column: COLUMN - 1 });
  });

  it("webpack and Rspack: the compilation's error carries the message and the code frame", async () => {
    const config = { mode: "none" as const, context: app.dir, entry, target: "node" as const, output: { path: join(app.dir, "out") } };
    const fromWebpack = await runCompiler(webpack({ ...config, plugins: [graphcWebpack()] }));
    const fromRspack = await runCompiler(rspack({ ...config, plugins: [graphcRspack()] }));
    for (const stats of [fromWebpack, fromRspack]) {
      expect(stats.hasErrors()).toBe(true);
      const text = stats.toString("errors-only");
      expect(text).toContain(`${WHERE}: error[G2003]`);
      expect(text).toContain("did you mean `write`?");
      // relative to the compiler's `context`, the plugin's default `cwd` there
      expect(text).toContain(`--> ${WHERE}`);
      expect(text).not.toContain("_tmp-unplugin-errors");
    }
  });
});

describe("graphc's warnings", () => {
  it("are bundler warnings with their code and location, and the build goes on", async () => {
    const warned = copyApp("warnings");
    try {
      const file = join(warned.dir, "app.graph");
      // a repeated edge: G4006
      writeFileSync(file, readFileSync(file, "utf8").replace(EDGE, `${EDGE}\n  research -> write`));
      const line = readFileSync(file, "utf8").split("\n").indexOf("  research -> write") + 1;
      const warnings: RollupError[] = [];
      const bundle = await rollup({
        input: join(warned.dir, "main.ts"),
        plugins: [graphcRollup({ cwd: warned.dir, typecheck: false }), typescriptSources.rollup()],
        onwarn: (w) => void warnings.push(w as RollupError),
      });
      await bundle.close();
      const ours = warnings.filter((w) => w.plugin === "graphc");
      expect(ours.map((w) => w.pluginCode)).toEqual(["G4006"]);
      expect(ours[0]?.message).toMatch(new RegExp(`app\\.graph:${line}:\\d+: warning\\[G4006\\]: edge \`research -> write\` is declared twice`));
    } finally {
      warned.remove();
    }
  });
});
