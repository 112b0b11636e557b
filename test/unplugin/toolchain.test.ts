/**
 * graphc is an optional peer of the plugin: its absence is one clear error, and the part of graphc's API
 * the plugin declares for itself (unplugin/toolchain.ts) is what graphc really exports.
 */
import { describe, expect, it } from "vitest";
import * as graphcModule from "graphc";
import { GraphcMissingError, loadToolchain, type GraphcApi } from "../../unplugin/toolchain.ts";
import { GraphModules } from "../../unplugin/graph-modules.ts";
import { resolveOptions } from "../../unplugin/options.ts";

// in a variable, so neither tsc nor vitest tries to resolve it ahead of the call
const ABSENT = "graphc-is-not-installed-in-this-project";

describe("loading graphc", () => {
  it("graphc's real exports fit the API the plugin declares, and the default loader finds graphc and its TypeScript", async () => {
    const declared: GraphcApi = graphcModule;
    const { graphc, ts } = await loadToolchain();
    expect(graphc.compile).toBe(declared.compile);
    expect(ts.transpileModule("const x: number = 1;", { fileName: "x.ts", compilerOptions: {} }).outputText).toContain("const x = 1;");
  });

  it("without graphc installed: GraphcMissingError saying how to install it", async () => {
    const failed = loadToolchain(() => import(ABSENT));
    await expect(failed).rejects.toBeInstanceOf(GraphcMissingError);
    await expect(failed).rejects.toThrow("add it as a devDependency (`npm install -D graphc`)");
  });

  it("any other failure to load graphc is passed on as it is", async () => {
    const broken = new Error("graphc's own import failed");
    await expect(loadToolchain(() => Promise.reject(broken))).rejects.toBe(broken);
  });

  it("a .graph module asked for without graphc fails with that error, and a later one tries again", async () => {
    let attempts = 0;
    const modules = new GraphModules(resolveOptions({ cwd: "/nowhere" }), () => {
      attempts++;
      return loadToolchain(() => import(ABSENT));
    });
    await expect(modules.load("/nowhere/app.graph")).rejects.toThrow(GraphcMissingError);
    await expect(modules.load("/nowhere/app.graph")).rejects.toThrow(GraphcMissingError);
    expect(attempts).toBe(2);
  });
});
