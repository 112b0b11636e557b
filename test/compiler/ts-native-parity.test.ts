/**
 * The TypeScript pass runs on native TypeScript 7 (ts-native.ts) and, where its binary cannot run, on
 * ts-morph (ts-check.ts; `GRAPHC_TYPESCRIPT=js` forces it): both give the same diagnostics and the same
 * generated code (the `sync` answers). Each side is a fresh `graphc` process, as a user runs it. One
 * difference is TypeScript's own: TypeScript 7 prints a union's members in another order than TypeScript 6
 * (`'"x" | Promise<…> | readonly "x"[]'` for `'"x" | readonly "x"[] | Promise<…>'`), so messages are
 * compared with the `|`-separated parts of each line sorted.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempDir } from "../temp-dir.ts";

const BIN = join(import.meta.dirname, "..", "..", "bin", "graphc-dev.mjs");

const WRONG = `import { good, bad, pick } from "./app.nodes.ts"

graph Wrong {
  state { a: string, b: number = 0, c: string = "" }
  node good({ a }) -> { b } = good
  node bad({ a }) -> { b } = bad
  START -> good -> bad -> route(pick) { x: END }
}
`;

const OK = `import { good, later, pick } from "./app.nodes.ts"

graph Ok {
  state { a: string, b: number = 0 }
  node good({ a }) -> { b } = good
  node later({ a }) -> { b } = later
  START -> good -> later -> route(pick) { y: END }
}
`;

const NODES = `export function good(s: { a: string }) { return { b: s.a.length }; }
export async function later(s: { a: string }) { return { b: s.a.length + 1 }; }
/** reads a field the node does not receive, and returns a string for a number field */
export function bad(s: { a: string; c: string }) { return { b: s.c }; }
/** returns a key the router's cases do not list */
export function pick(): "y" { return "y"; }
`;

const tmp = tempDir("ts-parity");
afterAll(() => tmp.remove());
writeFileSync(join(tmp.dir, "wrong.graph"), WRONG);
writeFileSync(join(tmp.dir, "ok.graph"), OK);
writeFileSync(join(tmp.dir, "app.nodes.ts"), NODES);

/** each line with its ` | `-separated parts sorted (a message's closing `'.` aside): the same union printed in any member order */
const unordered = (text: string) =>
  text
    .split("\n")
    .map((l) => l.replace(/'\.$/, "").split(" | ").sort().join(" | "))
    .join("\n");

function graphc(args: readonly string[], pass: "native" | "js", cwd = tmp.dir) {
  const env = { ...process.env, GRAPHC_TYPESCRIPT: pass === "js" ? "js" : "" };
  return spawnSync(process.execPath, [BIN, ...args], { cwd, env, encoding: "utf8" });
}

describe("the native and the JavaScript TypeScript pass", () => {
  it("report the same errors", () => {
    const native = graphc(["check", "wrong.graph"], "native");
    const js = graphc(["check", "wrong.graph"], "js");
    expect(native.stderr).toContain("G3092");
    expect(native.stderr).toContain("G3093");
    expect(native.status).toBe(1);
    expect(unordered(native.stderr)).toBe(unordered(js.stderr));
  }, 120_000);

  it("generate the same code (which functions are synchronous)", () => {
    expect(graphc(["build", "ok.graph", "--out", "native"], "native").status).toBe(0);
    expect(graphc(["build", "ok.graph", "--out", "js"], "js").status).toBe(0);
    const native = readFileSync(join(tmp.dir, "native", "ok.graph.ts"), "utf8");
    expect(native).toMatch(/name: "good",[\s\S]*?sync: true/);
    expect(native).toMatch(/name: "later",[\s\S]*?sync: false/);
    expect(native).toBe(readFileSync(join(tmp.dir, "js", "ok.graph.ts"), "utf8"));
  }, 120_000);

  // generated code importing `./app.nodes.js` (tsc NodeNext) or `./app.nodes` (bundler resolution) must still
  // find each function's declaration: the pass once looked for the `.graph` file's `./app.nodes.ts` there and
  // marked every node asynchronous
  it.each([
    ["js", "", '"../app.nodes.js"'],
    ["none", '{ "compilerOptions": { "module": "esnext", "moduleResolution": "bundler" } }', '"../app.nodes"'],
  ])("find which functions are synchronous with --import-ext %s", (ext, tsconfig, imported) => {
    const dir = join(tmp.dir, `ext-${ext}`);
    mkdirSync(dir);
    for (const f of ["ok.graph", "app.nodes.ts"]) copyFileSync(join(tmp.dir, f), join(dir, f));
    if (tsconfig) writeFileSync(join(dir, "tsconfig.json"), tsconfig);
    for (const pass of ["native", "js"] as const) {
      expect(graphc(["build", "ok.graph", "--out", pass, "--import-ext", ext], pass, dir).status).toBe(0);
      const text = readFileSync(join(dir, pass, "ok.graph.ts"), "utf8");
      expect(text).toContain(imported);
      expect(text).toMatch(/name: "good",[\s\S]*?sync: true/);
      expect(text).toMatch(/name: "later",[\s\S]*?sync: false/);
    }
  }, 120_000);
});
