/**
 * The packaged extension: `npm run vsix` (vscode/scripts/vsix.mjs: esbuild bundle, then @vscode/vsce
 * offline) produces a .vsix holding exactly the extension's files, and the bundled entry it ships loads and
 * activates against a stand-in for the `vscode` API: both commands registered (the ones package.json
 * declares), and without any graphc in the workspace a warning that names the `graphc.serverPath` setting.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import Module from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../graph-files.ts";
import { fakeVscode, requireWithVscode } from "./fake-vscode.ts";

const tmp = mkdtempSync(join(tmpdir(), "graphc-vsix-"));
const vsix = join(tmp, "graphc-vscode-0.1.0.vsix");
const manifest = JSON.parse(readFileSync(join(ROOT, "vscode/package.json"), "utf8")) as {
  main: string;
  contributes: { commands: { command: string }[]; configurationDefaults: Record<string, Record<string, unknown>>; languages: { id: string; extensions: string[] }[] };
};

beforeAll(() => {
  // vsce runs `npm run vscode:prepublish`: without the npm_* settings of an outer `npm test` (workspaces, prefix)
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  execFileSync(process.execPath, [join(ROOT, "vscode/scripts/vsix.mjs"), "--out", vsix], { cwd: ROOT, stdio: "pipe", env });
}, 120_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("npm run vsix", () => {
  it("packages the bundle, grammars, language configuration, README and LICENSE, and nothing else", () => {
    const listing = execFileSync("unzip", ["-Z1", vsix], { encoding: "utf8" }).trim().split("\n").sort();
    expect(listing).toEqual(
      [
        "[Content_Types].xml",
        "extension.vsixmanifest",
        "extension/LICENSE.txt",
        "extension/dist/extension.cjs",
        "extension/language-configuration.json",
        "extension/package.json",
        "extension/readme.md",
        "extension/syntaxes/graph.tmLanguage.json",
        "extension/syntaxes/graph.markdown.tmLanguage.json",
      ].sort(),
    );
    const packed = JSON.parse(execFileSync("unzip", ["-p", vsix, "extension/package.json"], { encoding: "utf8" })) as typeof manifest;
    expect(packed.main).toBe("./dist/extension.cjs");
    expect(packed.contributes.configurationDefaults["[graph]"]).toMatchObject({ "editor.formatOnSave": true });
    expect(packed.contributes.languages[0]).toMatchObject({ id: "graph", extensions: [".graph"] });
    const grammar = JSON.parse(execFileSync("unzip", ["-p", vsix, "extension/syntaxes/graph.tmLanguage.json"], { encoding: "utf8" })) as { scopeName: string };
    expect(grammar.scopeName).toBe("source.graph");
  });

  it("bundles the language client into one file that needs only `vscode` and Node built-ins", () => {
    const bundle = execFileSync("unzip", ["-p", vsix, "extension/dist/extension.cjs"], { encoding: "utf8" });
    const required = new Set([...bundle.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]!));
    expect(required).toContain("vscode");
    for (const r of required) if (r !== "vscode") expect(Module.isBuiltin(r), r).toBe(true);
  });
});

describe("the bundled extension", () => {
  it("activates without a graphc: registers its commands and says how to get a server", async () => {
    const bundle = join(tmp, "extension.cjs");
    execFileSync("unzip", ["-o", "-j", vsix, "extension/dist/extension.cjs", "-d", tmp]);
    const { module, seen } = fakeVscode({ workspace: tmp });
    const ext = requireWithVscode<{ activate: (ctx: unknown) => Promise<void>; deactivate: () => Promise<void> }>(bundle, module);
    await ext.activate({ subscriptions: [] });
    expect([...seen.commands.keys()].sort()).toEqual(manifest.contributes.commands.map((c) => c.command).sort());
    expect(seen.warnings).toHaveLength(1);
    expect(seen.warnings[0]).toContain("graphc.serverPath");
    // Show graph without a .graph editor explains itself instead of failing
    await seen.commands.get("graphc.showGraph")!();
    expect(seen.infos).toEqual(["graphc: open a .graph file to show its graph."]);
    await ext.deactivate();
  });
});
