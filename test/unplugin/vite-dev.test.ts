/**
 * A Vite dev server session on 127.0.0.1 with @graphc/unplugin: the browser's requests for the app's
 * modules, an edit of a `.graph` file (the server's watcher notices it, the next request has the new
 * code, and the graph the edit does not touch is not recompiled), then an error, which reaches the client
 * as Vite's `error` payload with the location and code frame its overlay shows, and its fix. Every wait is bounded;
 * the server is closed whatever happens.
 */
import { readFileSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { createServer, type ViteDevServer } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import graphcVite from "@graphc/unplugin/vite";
import { copyApp, exactAliases } from "./app.ts";

const app = copyApp("vite-dev");
const at = (f: string) => join(app.dir, f);
let server: ViteDevServer;
let base: string;
/** what the server sent its clients (HMR updates, reloads, errors), in order */
const sent: { type: string; err?: { message: string; loc?: unknown; frame?: string; plugin?: string } }[] = [];

beforeAll(async () => {
  server = await createServer({
    root: app.dir,
    configFile: false,
    logLevel: "silent",
    // the TypeScript pass is the editor's job in a dev loop; the bundler tests run it
    plugins: [graphcVite({ typecheck: false })],
    resolve: { alias: exactAliases() },
    optimizeDeps: { noDiscovery: true, include: [] },
    server: { host: "127.0.0.1", port: 0, strictPort: true },
  });
  const hot = server.environments.client.hot;
  const send = hot.send.bind(hot);
  hot.send = ((payload: unknown, ...rest: unknown[]) => {
    if (typeof payload === "object" && payload !== null) sent.push(payload as (typeof sent)[number]);
    return (send as (...a: unknown[]) => void)(payload, ...rest);
  }) as typeof hot.send;
  await server.listen();
  base = `http://127.0.0.1:${(server.httpServer!.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await server?.close();
  app.remove();
});

async function get(path: string): Promise<{ status: number; text: string }> {
  const res = await fetch(`${base}${path}`);
  return { status: res.status, text: await res.text() };
}

/** waits (at most 20 s) until the server has sent a payload of one of `types` after the first `from` */
async function sentAfter(from: number, types: readonly string[]): Promise<(typeof sent)[number]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const hit = sent.slice(from).find((p) => types.includes(p.type));
    if (hit) return hit;
    if (Date.now() > deadline) throw new Error(`no ${types.join("/")} payload; sent: ${JSON.stringify(sent.slice(from))}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** one write (a watcher must never see half an edit), replacing each [from, to] once */
const edit = (file: string, ...changes: [string, string][]) =>
  writeFileSync(at(file), changes.reduce((text, [from, to]) => text.replace(from, to), readFileSync(at(file), "utf8")));
const transformed = (file: string) => server.environments.client.moduleGraph.getModuleById(at(file))?.transformResult;

describe("a Vite dev server session", () => {
  it("serves the graphs as JavaScript modules", async () => {
    const main = await get("/main.ts");
    expect(main.status).toBe(200);
    expect(main.text).toContain("/app.graph?import");
    const graph = await get("/app.graph?import");
    expect(graph.status).toBe(200);
    expect(graph.text).toContain('name: "App"');
    expect(graph.text).toContain("/research.graph?import");
    expect(graph.text).not.toContain("type AppState");
    expect((await get("/research.graph?import")).text).toContain('name: "search"');
  });

  it("an edit of app.graph: the next request has the new module; research.graph is not recompiled", async () => {
    const research = transformed("research.graph");
    expect(research).toBeTruthy();
    const from = sent.length;
    edit("app.graph", ["node write(", "node compose("], ["-> write ->", "-> compose ->"]);
    await sentAfter(from, ["update", "full-reload"]);
    const graph = await get("/app.graph?import");
    expect(graph.text).toContain('name: "compose"');
    expect(transformed("research.graph")).toBe(research);
  });

  it("an edit of the nested research.graph: its module and the app.graph importing it are recompiled", async () => {
    const from = sent.length;
    edit("research.graph", ["node search(", "node lookup("], ["-> search ->", "-> lookup ->"]);
    await sentAfter(from, ["update", "full-reload"]);
    expect(transformed("research.graph")).toBeNull();
    expect(transformed("app.graph")).toBeNull();
    expect((await get("/research.graph?import")).text).toContain('name: "lookup"');
    expect((await get("/app.graph?import")).text).toContain('name: "compose"');
  });

  it("an error in app.graph reaches the client as Vite's error payload (message, loc, frame)", async () => {
    const from = sent.length;
    edit("app.graph", ["-> compose ->", "-> compse ->"]);
    await sentAfter(from, ["update", "full-reload"]);
    const graph = await get("/app.graph?import");
    expect(graph.status).toBe(500);
    const { err } = await sentAfter(from, ["error"]);
    const lines = readFileSync(at("app.graph"), "utf8").split("\n");
    const line = lines.findIndex((l) => l.includes("compse")) + 1;
    const column = lines[line - 1]!.indexOf("compse") + 1;
    expect(err?.plugin).toBe("graphc");
    expect(err?.message).toContain(`app.graph:${line}:${column}: error[G2003]: unknown node \`compse\``);
    expect(err?.loc).toEqual({ file: at("app.graph"), line, column: column - 1 });
    expect(err?.frame).toContain("did you mean `compose`?");
  });

  it("fixing the error serves the module again", async () => {
    const from = sent.length;
    edit("app.graph", ["-> compse ->", "-> compose ->"]);
    await sentAfter(from, ["update", "full-reload"]);
    const graph = await get("/app.graph?import");
    expect(graph.status).toBe(200);
    expect(graph.text).toContain('name: "compose"');
  });
});
