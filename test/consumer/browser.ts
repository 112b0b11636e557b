/**
 * The browser half of the consumer tests: a Vite production build of the app's web/ folder, served from a
 * throw-away local HTTP server and opened in headless Chromium (Debian's `chromium`, driven by
 * playwright-core; `.ci/run` installs it).
 */
import { createServer, type Server } from "node:http";
import { readFileSync, statSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { extname, join, normalize } from "node:path";
import { chromium } from "playwright-core";
import { build } from "vite";

export const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";

/** Builds `app/web` into `app/web-dist`; returns the size in bytes of the JavaScript it wrote. */
export async function viteBuild(app: string): Promise<{ dir: string; jsBytes: number; files: string[] }> {
  const dir = join(app, "web-dist");
  const out = await build({
    root: join(app, "web"),
    configFile: false,
    logLevel: "silent",
    build: { outDir: dir, emptyOutDir: true },
  });
  const outputs = (Array.isArray(out) ? out : [out]).flatMap((o) => ("output" in o ? o.output : []));
  const js = outputs.filter((o) => o.fileName.endsWith(".js"));
  return { dir, files: outputs.map((o) => o.fileName), jsBytes: js.reduce((n, o) => n + statSync(join(dir, o.fileName)).size, 0) };
}

const TYPES: Record<string, string> = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css" };

function serve(dir: string): Promise<Server> {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname)).replace(/^(\.\.[/\\])+/, "");
    const file = join(dir, path === "/" ? "index.html" : path);
    try {
      const body = readFileSync(file);
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

/** Opens the built app, waits for it to finish; returns the page's list items and status line. */
export async function runInChromium(dir: string): Promise<{ updates: string[]; status: string }> {
  const server = await serve(dir);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  try {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    const { port } = server.address() as AddressInfo;
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.waitForFunction(() => document.getElementById("status")?.textContent !== "running", undefined, { timeout: 30_000 });
    const updates = await page.locator("#updates li").allTextContents();
    const status = (await page.locator("#status").textContent()) ?? "";
    if (errors.length > 0) throw new Error(`page errors: ${errors.join("\n")}`);
    return { updates, status };
  } finally {
    await browser.close();
    server.close();
  }
}
