/**
 * G3097 (compiler/phases/5-emit/undeclared-returns.ts): a node function whose return type has a field the
 * node does not write is a warning, from both TypeScript passes (native, and ts-morph with
 * `GRAPHC_TYPESCRIPT=js`), at the function of each node it serves; the build still succeeds, and the
 * warning is right: such a return fails at run time.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { tempDir } from "../temp-dir.ts";

const BIN = join(import.meta.dirname, "..", "..", "bin", "graphc-dev.mjs");

/** node → [its function's code, the fields the warning names (none: no warning)] */
const NODES: Record<string, { code: string; warns: string[] }> = {
  // the node's own fields: nothing to say
  exact: { code: "export function exact(s: { a: number }): { a: number } { return { a: s.a + 1 }; }", warns: [] },
  inferred: { code: "export const inferred = (s: { a: number }) => ({ a: s.a + 1 });", warns: [] },
  nothing: { code: "export function nothing(): void {}", warns: [] },
  // a wider type, as another node's update type: what it may return beyond the node's writes
  wider: { code: "export function wider(): { a?: number; b?: string } { return { a: 1 }; }", warns: ["b"] },
  partial: { code: "export function partial(): Partial<{ a: number; b: string; c: boolean }> { return {}; }", warns: ["b", "c"] },
  later: { code: "export async function later(): Promise<{ a: number; c?: boolean }> { return { a: 1 }; }", warns: ["c"] },
  either: { code: "export function either(x: { a: number }): { a: number } | { a: number; b: string } | void { return x.a < 5 ? { a: 1, b: 'x' } : { a: 1 }; }", warns: ["b"] },
  // cannot be told: nothing said
  untyped: { code: "export const untyped: any = () => ({ a: 2 });", warns: [] },
  indexed: { code: "export function indexed(): Record<string, number> { return { a: 1 }; }", warns: [] },
  // a type that could be a Command (it has one of its keys): the node may write through it
  shaped: { code: "export function shaped(): { a?: number; b?: string; update?: undefined } { return { a: 1 }; }", warns: [] },
};

const SOURCE = `import { ${Object.keys(NODES).join(", ")} } from "./app.nodes.ts"

graph App {
  state { a: number = 0, b: string = "", c: boolean = false }
${Object.keys(NODES)
  .map((n) => `  node ${n}({ a }) -> { a } = ${n}`)
  .join("\n")}
  // one function, two nodes: only the one that does not write \`b\` is told
  node both({ a }) -> { a, b } = wider
  START -> ${Object.keys(NODES).join(" -> ")} -> both -> END
}
`;

const tmp = tempDir("undeclared-returns");
afterAll(() => tmp.remove());
writeFileSync(join(tmp.dir, "app.graph"), SOURCE);
writeFileSync(join(tmp.dir, "app.nodes.ts"), Object.values(NODES).map((f) => f.code).join("\n") + "\n");

interface Json {
  code: string;
  severity: number;
  message: string;
  range: { start: { line: number } };
}

function warnings(env: Record<string, string>): Record<string, string> {
  const r = spawnSync(process.execPath, [BIN, "check", "--format", "json", "app.graph"], {
    cwd: tmp.dir,
    env: { ...process.env, ...env },
    encoding: "utf8",
  });
  expect(r.status, r.stderr).toBe(0);
  const found: Record<string, string> = {};
  const lines = SOURCE.split("\n");
  for (const x of JSON.parse(r.stdout) as Json[]) {
    expect(x.code).toBe("G3097");
    expect(x.severity).toBe(2);
    // keyed by the node whose line it points at
    const node = /node (\w+)/.exec(lines[x.range.start.line]!)![1]!;
    found[node] = x.message;
  }
  return found;
}

const quoted = (fields: string[]) => fields.map((f) => `\`${f}\``).join(", ");
const expected = Object.fromEntries(
  Object.entries(NODES)
    .filter(([, x]) => x.warns.length > 0)
    .map(([n, x]) => [n, `function \`${n}\` may return ${quoted(x.warns)}, which node \`${n}\` does not write`]),
);

describe("G3097: a node function that may return a field its node does not write", () => {
  it("the native TypeScript pass warns at each such node, and nowhere else", () => {
    expect(warnings({ GRAPHC_TYPESCRIPT: "" })).toEqual(expected);
  }, 120_000);

  it("the JavaScript TypeScript pass says the same", () => {
    expect(warnings({ GRAPHC_TYPESCRIPT: "js" })).toEqual(expected);
  }, 120_000);

  it("is only a warning: the build succeeds, and such a return fails at run time as the warning says", async () => {
    const r = spawnSync(process.execPath, [BIN, "build", "app.graph"], { cwd: tmp.dir, encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain("warning[G3097]");
    const { App } = (await import(pathToFileURL(join(tmp.dir, "app.graph.ts")).href)) as {
      App: { invoke(input: object): Promise<unknown> };
    };
    // `either` returns `{ a, b }` while `a` is below 5 (`wider` set it to 1)
    await expect(App.invoke({ a: 20 })).rejects.toThrow('node "either" of graph "App" cannot write "b" (it declares: a)');
  }, 120_000);
});
