/**
 * The screenshots of docs/editor.md, made without VS Code (it cannot run here): pages built from the
 * extension's own parts, rendered by headless Chromium (Debian's `chromium`, driven by playwright-core).
 * - docs/img/editor-preview.png: a .graph file coloured by the extension's TextMate grammar (Dark+ colours),
 *   beside the "Show graph" webview page (vscode/src/preview-html.ts) with that graph's SVG;
 * - docs/img/preview-customer-service.png: the webview page alone, for the customer-service sample.
 * `npx tsx scripts/editor-screenshots.ts` rewrites both.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { previewHtml } from "../vscode/src/preview-html.ts";
import { tokenize } from "../vscode/scripts/tokenize.ts";
import { samplePictures } from "./sample-pictures.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";

/** VS Code's Dark+ colours for the scopes the grammar assigns; the most specific prefix wins. */
const DARK_PLUS: [prefix: string, colour: string][] = [
  ["comment", "#6a9955"],
  ["string", "#ce9178"],
  ["constant.numeric", "#b5cea8"],
  ["constant.language", "#569cd6"],
  ["constant.other", "#4fc1ff"],
  ["keyword.control", "#c586c0"],
  ["keyword.operator", "#d4d4d4"],
  ["keyword", "#569cd6"],
  ["storage", "#569cd6"],
  ["entity.name.class", "#4ec9b0"],
  ["entity.name.type", "#4ec9b0"],
  ["support.type.primitive", "#4ec9b0"],
  ["support.type.property-name", "#9cdcfe"],
  ["entity.name.function", "#dcdcaa"],
  ["support.function", "#dcdcaa"],
  ["variable", "#9cdcfe"],
];

function colourOf(scopes: readonly string[]): string {
  for (const scope of [...scopes].reverse()) {
    const hit = DARK_PLUS.filter(([p]) => scope === p || scope.startsWith(`${p}.`)).sort((a, b) => b[0].length - a[0].length)[0];
    if (hit !== undefined) return hit[1];
  }
  return "#d4d4d4";
}

const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The file's lines as coloured HTML, with line numbers, as the editor shows them. */
async function highlighted(text: string): Promise<string> {
  const tokens = await tokenize(text);
  const lines = text.split("\n");
  return lines
    .map((line, i) => {
      let html = "";
      let at = 0;
      for (const t of tokens.filter((x) => x.line === i + 1)) {
        const start = line.indexOf(t.text, at);
        html += escape(line.slice(at, start)) + `<span style="color:${colourOf(t.scopes)}">${escape(t.text)}</span>`;
        at = start + t.text.length;
      }
      html += escape(line.slice(at));
      return `<div class="l"><span class="n">${i + 1}</span>${html}</div>`;
    })
    .join("");
}

/** The CSS variables VS Code gives a webview, with Dark+ values. */
const WEBVIEW_THEME = `:root { --vscode-editor-background: #1e1e1e; --vscode-foreground: #cccccc; --vscode-errorForeground: #f48771;
  --vscode-font-family: "DejaVu Sans", sans-serif; --vscode-font-size: 13px; }`;

function withTheme(html: string): string {
  return html.replace("<style>", `<style>${WEBVIEW_THEME}\n`);
}

async function editorPage(file: string, graph: string, svg: string): Promise<string> {
  const source = readFileSync(join(ROOT, file), "utf8").trimEnd();
  const preview = withTheme(previewHtml({ title: `${graph} — ${file.split("/").pop()}`, svg }));
  return `<!DOCTYPE html><html><head><meta charset="UTF-8"><style>
  body { margin: 0; background: #1e1e1e; font-family: "DejaVu Sans", sans-serif; display: flex; }
  .pane { flex: 1; min-width: 0; } .tabs { background: #252526; color: #fff; font-size: 13px; }
  .tab { display: inline-block; padding: 8px 14px; background: #1e1e1e; border-top: 1px solid #0078d4; }
  pre { margin: 0; padding: 8px 0; font: 13px/19px "DejaVu Sans Mono", monospace; color: #d4d4d4; }
  .l { white-space: pre; } .n { display: inline-block; width: 3em; margin-right: 1.2em; text-align: right; color: #6e7681; }
  iframe { border: 0; width: 100%; height: 100vh; } .right { border-left: 1px solid #333; }
  </style></head><body>
  <div class="pane"><div class="tabs"><span class="tab">${file.split("/").pop()}</span></div><pre>${await highlighted(source)}</pre></div>
  <div class="pane right"><div class="tabs"><span class="tab">${graph} — ${file.split("/").pop()}</span></div>
  <iframe srcdoc="${preview.replace(/&/g, "&amp;").replace(/"/g, "&quot;")}"></iframe></div>
  </body></html>`;
}

async function shoot(html: string, out: string, viewport: { width: number; height: number }, fullPage: boolean): Promise<void> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  try {
    const page = await browser.newPage({ viewport, deviceScaleFactor: 1 });
    await page.setContent(html, { waitUntil: "load" });
    await page.screenshot({ path: join(ROOT, out), fullPage, timeout: 30_000 });
  } finally {
    await browser.close();
  }
}

const pictures = await samplePictures();
const svgOf = (graph: string) => pictures.find((p) => p.graph === graph)!.svg;

await shoot(await editorPage("samples/chatdev/react.graph", "ReactMain", svgOf("ReactMain")), "docs/img/editor-preview.png", { width: 1500, height: 760 }, false);
await shoot(withTheme(previewHtml({ title: "CustomerService — customer_service.graph", svg: svgOf("CustomerService") })), "docs/img/preview-customer-service.png", { width: 900, height: 600 }, true);
console.log("wrote docs/img/editor-preview.png, docs/img/preview-customer-service.png");
