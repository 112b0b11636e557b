/**
 * Which graphs generated code makes a `StaticGraph` (compiler/phases/4-lower/lean.ts `staticEligible`): a
 * lean-eligible graph without routers whose nodes declare no goto, when the TypeScript pass proved every
 * node function Command-free (5-emit/return-facts.ts). Both TypeScript passes (native, and ts-morph with
 * `GRAPHC_TYPESCRIPT=js`) decide the same; without the pass no graph is static.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempDir } from "../temp-dir.ts";

const BIN = join(import.meta.dirname, "..", "..", "bin", "graphc-dev.mjs");

/** one graph per node function; each graph is `START -> n -> END` */
const FNS: Record<string, { code: string; static: boolean }> = {
  // an object type with fields of its own: no Command
  typed: { code: "export function typed(s: { a: number }): { a: number } { return { a: s.a + 1 }; }", static: true },
  // inferred, asynchronous, or nothing at all: still none
  inferred: { code: "export const inferred = (s: { a: number }) => ({ a: s.a + 1 });", static: true },
  later: { code: "export async function later(s: { a: number }) { return { a: s.a + 1 }; }", static: true },
  nothing: { code: "export function nothing(): void {}", static: true },
  // a weak type (every field optional, as the generated update types) a Command is not assignable to
  weak: { code: "export function weak(): { a?: number } { return {}; }", static: true },
  // cannot be told: `any`, a cast to `never`, a type with one of a Command's keys
  untyped: { code: "export const untyped: any = () => ({ a: 1 });", static: false },
  hidden: { code: "export function hidden() { return { a: 1 } as never; }", static: false },
  shaped: { code: "export function shaped(): { a?: number; update?: undefined } { return { a: 1 }; }", static: false },
};

const graphs = Object.keys(FNS)
  .map((f) => `graph ${f[0]!.toUpperCase()}${f.slice(1)} {\n  state { a: number = 0 }\n  node n({ a }) -> { a } = ${f}\n  START -> n -> END\n}\n`)
  .join("\n");
const SOURCE = `import { ${Object.keys(FNS).join(", ")} } from "./app.nodes.ts"\n\n${graphs}`;

const tmp = tempDir("static-eligible");
afterAll(() => tmp.remove());
writeFileSync(join(tmp.dir, "app.graph"), SOURCE);
writeFileSync(join(tmp.dir, "app.nodes.ts"), Object.values(FNS).map((f) => f.code).join("\n") + "\n");

/** builds app.graph into `out` and returns each graph's compiled-graph class */
function classes(out: string, env: Record<string, string>, args: string[] = []): Record<string, string> {
  const r = spawnSync(process.execPath, [BIN, "build", "app.graph", "--out", out, ...args], {
    cwd: tmp.dir,
    env: { ...process.env, ...env },
    encoding: "utf8",
  });
  expect(r.status, r.stderr).toBe(0);
  const text = readFileSync(join(tmp.dir, out, "app.graph.ts"), "utf8");
  const found: Record<string, string> = {};
  for (const m of text.matchAll(/export const (\w+) = new (\w+)</g)) found[m[1]!] = m[2]!;
  return found;
}

const expected = Object.fromEntries(
  Object.entries(FNS).map(([f, x]) => [`${f[0]!.toUpperCase()}${f.slice(1)}`, x.static ? "StaticGraph" : "LeanGraph"]),
);

describe("StaticGraph: node functions proven Command-free", () => {
  it("the native TypeScript pass proves the typed ones and not the others", () => {
    expect(classes("native", { GRAPHC_TYPESCRIPT: "" })).toEqual(expected);
  }, 120_000);

  it("the JavaScript TypeScript pass decides the same", () => {
    expect(classes("js", { GRAPHC_TYPESCRIPT: "js" })).toEqual(expected);
  }, 120_000);

  it("without the TypeScript pass nothing is proved", () => {
    const none = classes("none", {}, ["--no-typecheck"]);
    expect(Object.values(none).every((c) => c === "LeanGraph")).toBe(true);
    expect(Object.keys(none)).toEqual(Object.keys(expected));
  }, 120_000);
});
