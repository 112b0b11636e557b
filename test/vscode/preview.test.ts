/**
 * The "Show graph" preview (vscode/src/preview.ts), bundled as the extension bundles it and run against a
 * stand-in `vscode` API: which graph it asks for, the request it sends, one panel per file and graph,
 * redrawing after an edit, and the last good picture kept when a redraw fails.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Previews as PreviewsClass, SvgRequest } from "../../vscode/src/preview.ts";
import type { GraphSvgParams } from "../../vscode/src/protocol.ts";
import { ROOT } from "../graph-files.ts";
import { fakeDocument, fakeVscode, requireWithVscode } from "./fake-vscode.ts";

const tmp = mkdtempSync(join(tmpdir(), "graphc-preview-"));
const bundle = join(tmp, "preview.cjs");
beforeAll(async () => {
  await build({ entryPoints: [join(ROOT, "vscode/src/preview.ts")], outfile: bundle, bundle: true, platform: "node", format: "cjs", external: ["vscode"], logLevel: "warning" });
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const TWO_GRAPHS = "graph Draft {\n  START -> a\n}\n\ngraph Review {\n  START -> b\n}\n";

function setup(text: string, pick?: string) {
  const doc = fakeDocument("/w/demo.graph", text);
  const fake = fakeVscode({ workspace: "/w", activeDocument: doc, pick });
  const { Previews } = requireWithVscode<{ Previews: typeof PreviewsClass }>(bundle, fake.module);
  const sent: GraphSvgParams[] = [];
  let answer: (p: GraphSvgParams) => Promise<{ svg: string }> = async () => ({ svg: "<svg><title>v1</title></svg>" });
  let running = true;
  const request = (): SvgRequest => (running ? (p) => (sent.push(p), answer(p)) : undefined);
  const previews = new Previews(request);
  return {
    doc, fake, sent, previews,
    answerWith: (f: typeof answer) => void (answer = f),
    stopServer: () => void (running = false),
  };
}

describe("Show graph", () => {
  it("asks which graph when the file has several, and draws the one picked", async () => {
    const t = setup(TWO_GRAPHS, "Review");
    await t.previews.showActive();
    expect(t.fake.seen.picks).toEqual([["Draft", "Review"]]);
    expect(t.sent).toEqual([{ uri: "file:///w/demo.graph", graph: "Review" }]);
    expect(t.fake.seen.panels.map((p) => p.title)).toEqual(["Review — demo.graph"]);
    expect(t.fake.seen.panels[0]!.webview.html).toContain("<svg><title>v1</title></svg>");
    // the same graph again: the panel is revealed, not duplicated, and not redrawn
    await t.previews.showActive();
    expect(t.fake.seen.panels).toHaveLength(1);
    expect(t.fake.seen.panels[0]!.reveals).toBe(1);
    expect(t.sent).toHaveLength(1);
    t.previews.dispose();
  });

  it("sends nothing when the pick is dismissed; sends the only graph without asking", async () => {
    const dismissed = setup(TWO_GRAPHS, undefined);
    await dismissed.previews.showActive();
    expect(dismissed.sent).toEqual([]);
    expect(dismissed.fake.seen.panels).toEqual([]);
    const one = setup("graph Only {\n  START -> a\n}\n");
    await one.previews.showActive();
    expect(one.fake.seen.picks).toEqual([]);
    expect(one.sent).toEqual([{ uri: "file:///w/demo.graph", graph: "Only" }]);
  });

  it("redraws after an edit, and keeps the last good picture under the error while the file is broken", async () => {
    const t = setup("graph Only {\n  START -> a\n}\n");
    await t.previews.showActive();
    const panel = t.fake.seen.panels[0]!;
    t.answerWith(async () => {
      throw new Error("G2003 unknown node `gret`");
    });
    t.fake.edit(t.doc);
    await expect.poll(() => panel.webview.html, { timeout: 5000 }).toContain("G2003 unknown node `gret`");
    expect(panel.webview.html).toContain("<svg><title>v1</title></svg>");
    t.answerWith(async () => ({ svg: "<svg><title>v2</title></svg>" }));
    t.fake.edit(t.doc);
    await expect.poll(() => panel.webview.html, { timeout: 5000 }).toContain("<title>v2</title>");
    expect(panel.webview.html).not.toContain("G2003");
    // the server went away: nothing is sent, the picture stays under the explanation
    const before = t.sent.length;
    t.stopServer();
    t.fake.edit(t.doc);
    await expect.poll(() => panel.webview.html, { timeout: 5000 }).toContain("language server is not running");
    expect(t.sent).toHaveLength(before);
    expect(panel.webview.html).toContain("<title>v2</title>");
    t.previews.dispose();
  });
});
