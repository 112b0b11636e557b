/**
 * The extension's logic that runs without VS Code: which graphc starts the server, how it is started,
 * which graphs "Show graph" offers, and the preview page.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { graphNames } from "../../vscode/src/graph-names.ts";
import { previewHtml } from "../../vscode/src/preview-html.ts";
import { resolveServer, serverCommand } from "../../vscode/src/server-path.ts";
// outside the repository: the lookup walks up to the file-system root and must meet no other graphc
const tmp = { dir: mkdtempSync(join(tmpdir(), "graphc-vscode-client-")) };
afterAll(() => rmSync(tmp.dir, { recursive: true, force: true }));

function pkg(dir: string, json: object): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify(json));
}

describe("resolveServer", () => {
  const project = join(tmp.dir, "project");
  const nested = join(project, "packages", "app");
  pkg(join(project, "node_modules", "graphc"), { name: "graphc", bin: { graphc: "bin/graphc.mjs" } });
  mkdirSync(join(project, "node_modules", "graphc", "bin"), { recursive: true });
  writeFileSync(join(project, "node_modules", "graphc", "bin", "graphc.mjs"), "");
  mkdirSync(nested, { recursive: true });

  it("finds the workspace's node_modules/graphc bin, from a nested folder too (as Node resolves)", () => {
    const bin = join(project, "node_modules", "graphc", "bin", "graphc.mjs");
    expect(resolveServer(undefined, [project])).toEqual({ path: bin, via: "workspace" });
    expect(resolveServer("", [nested])).toEqual({ path: bin, via: "workspace" });
  });

  it("prefers the graphc.serverPath setting, relative to the first workspace folder", () => {
    expect(resolveServer("/opt/graphc/bin/graphc.mjs", [project])).toEqual({ path: "/opt/graphc/bin/graphc.mjs", via: "setting" });
    expect(resolveServer("tools/graphc", [project])).toEqual({ path: join(project, "tools", "graphc"), via: "setting" });
  });

  it("finds nothing without graphc (a package of another name, a bin that is missing)", () => {
    const other = join(tmp.dir, "other");
    pkg(join(other, "node_modules", "graphc"), { name: "not-graphc", bin: "x.js" });
    expect(resolveServer(undefined, [other])).toBeUndefined();
    const noBin = join(tmp.dir, "no-bin");
    pkg(join(noBin, "node_modules", "graphc"), { name: "graphc", bin: { graphc: "bin/missing.mjs" } });
    expect(resolveServer(undefined, [noBin])).toBeUndefined();
    expect(resolveServer(undefined, [])).toBeUndefined();
  });

  it("uses the graphc repository's own bin when the workspace is graphc itself", () => {
    const repo = join(tmp.dir, "graphc-repo");
    pkg(repo, { name: "graphc", bin: { graphc: "bin/graphc.mjs" } });
    mkdirSync(join(repo, "bin"));
    writeFileSync(join(repo, "bin", "graphc.mjs"), "");
    expect(resolveServer(undefined, [repo])?.path).toBe(join(repo, "bin", "graphc.mjs"));
  });
});

describe("serverCommand", () => {
  it("runs a JavaScript entry with the editor's runtime acting as Node, with `lsp --stdio` and nothing else", () => {
    expect(serverCommand({ path: "/p/graphc.mjs", via: "workspace" }, "/usr/bin/code-node")).toEqual({
      command: "/usr/bin/code-node",
      args: ["/p/graphc.mjs", "lsp", "--stdio"],
      env: { ELECTRON_RUN_AS_NODE: "1" },
    });
  });

  it("runs an executable directly, through a shell on Windows (npm's .cmd shims)", () => {
    expect(serverCommand({ path: "/usr/local/bin/graphc", via: "setting" }, "node", "linux")).toEqual({ command: "/usr/local/bin/graphc", args: ["lsp", "--stdio"] });
    expect(serverCommand({ path: "C:\\bin\\graphc.cmd", via: "setting" }, "node", "win32")).toMatchObject({ shell: true });
  });
});

describe("graphNames", () => {
  it("lists the top-level graphs, not inline subgraphs, not names in comments", () => {
    const text = `graph A {\n  subgraph s = graph {\n    START -> x\n  }\n}\n// graph Commented {\n/* graph Hidden {\n*/\ngraph B { }\n`;
    expect(graphNames(text)).toEqual(["A", "B"]);
    expect(graphNames("type T = string\n")).toEqual([]);
  });
});

describe("previewHtml", () => {
  const svg = `<?xml version="1.0"?>\n<!DOCTYPE svg>\n<svg width="10pt"><g><title>a</title></g></svg>\n`;

  it("inlines the SVG element without its XML prolog, under a strict no-script CSP", () => {
    const html = previewHtml({ title: "Demo — demo.graph", svg });
    expect(html).toContain('<div class="card"><svg width="10pt"><g><title>a</title></g></svg>');
    expect(html).not.toContain("<?xml");
    expect(html).toMatch(/Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:;"/);
    expect(html).not.toMatch(/<script/i);
  });

  it("escapes the title and the error, and keeps the last picture under the error", () => {
    const html = previewHtml({ title: "<b>x</b>", svg, error: 'G2003 unknown node `gret` <"here">' });
    expect(html).toContain("<h1>&#60;b&#62;x&#60;/b&#62;</h1>");
    expect(html).toContain('<p class="error" role="alert">G2003 unknown node `gret` &#60;&#34;here&#34;&#62;</p>');
    expect(html).toContain("<title>a</title>");
    expect(previewHtml({ title: "t" })).toContain("No picture yet.");
  });
});
