/**
 * Node functions are type-checked against the generated types: a wrong signature is a graphc diagnostic at
 * the `.graph` line that binds the function (TypeScript run in memory over the generated file and the
 * user's modules), and the same code is a TypeScript error in the IDE.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { compile, type CompileResult } from "../../compiler/index.ts";

const DIR = "test/_tmp-emit/typecheck";

const GRAPH = `import { good, bad, pick, toChild, missing } from "./wrong.nodes.ts"
import type { Msg } from "./wrong.nodes.ts"

graph Child {
  state { text: string }
  node keep({ text }) -> { text } = good2
  START -> keep -> END
}

graph Wrong {
  state { a: string, b: number = 0, c: string = "", msgs: Msg[] = [] }
  node good({ a }) -> { b } = good
  node bad({ a }) -> { b } = bad
  node gone({ a }) -> { b } = missing
  subgraph child = Child { in = toChild  out { } }
  START -> good -> bad -> gone -> child -> route(pick) { x: END }
  good -> {
    msgs[-1].txet == "hi" => END
    _                     => END
  }
}
`.replace('import { good,', 'import { good2, good,');

const NODES = `export interface Msg { text: string }
export function good(s: { a: string }) { return { b: s.a.length }; }
export function good2(s: { text: string }) { return { text: s.text }; }
/** reads a field the node does not receive, and returns a string for a number field */
export function bad(s: { a: string; c: string }) { return { b: s.c }; }
/** returns a key the router's cases do not list */
export function pick(): "y" { return "y"; }
/** returns a number where the child expects a string */
export function toChild() { return { text: 1 }; }
`;

let result: CompileResult;
beforeAll(async () => {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  writeFileSync(`${DIR}/wrong.graph`, GRAPH);
  writeFileSync(`${DIR}/wrong.nodes.ts`, NODES);
  result = await compile([`${DIR}/wrong.graph`]);
}, 120_000);

const lineOf = (needle: string) => GRAPH.split("\n").findIndex((l) => l.includes(needle)) + 1;
const at = (code: string) => result.diagnostics.filter((d) => d.code === code).map((d) => d.span.start.line);

describe("node functions checked against the generated types", () => {
  it("reports a node function with the wrong signature at its `node` line (G3092)", () => {
    expect(at("G3092")).toEqual([lineOf("node bad(")]);
    const d = result.diagnostics.find((x) => x.code === "G3092")!;
    expect(d.message).toMatch(/^function `bad` does not fit node `bad`: /);
    expect(d.severity).toBe("error");
  });

  it("reports a router whose result is not one of its case keys at the edge (G3093)", () => {
    expect(at("G3093")).toEqual([lineOf("route(pick)")]);
    expect(result.diagnostics.find((x) => x.code === "G3093")!.message).toMatch(/^router `pick` has the wrong type/);
  });

  it("reports a subgraph transform of the wrong type at the subgraph (G5090)", () => {
    expect(at("G5090")).toEqual([lineOf("subgraph child")]);
  });

  it("maps any other TypeScript error in generated code to the .graph line it came from (G3094)", () => {
    // `missing` is not exported by the module: TypeScript's error is on the import
    expect(at("G3094")).toContain(lineOf("import {"));
  });

  it("reports a path into an imported type that does not exist at its inline condition (G3094)", () => {
    const d = result.diagnostics.find((x) => x.code === "G3094" && x.span.start.line === lineOf("msgs[-1].txet"));
    expect(d?.message).toMatch(/Property 'txet' does not exist on type 'Msg'/);
  });

  it("does not report the well-typed node", () => {
    const lines = result.diagnostics.map((d) => d.span.start.line);
    expect(lines).not.toContain(lineOf("node good("));
  });

  it("sees the user's edits on the next build in the same process (watch mode)", async () => {
    writeFileSync(`${DIR}/wrong.nodes.ts`, NODES.replace("export function bad(s: { a: string; c: string }) { return { b: s.c }; }", "export async function bad(s: { a: string }) { return { b: s.a.length }; }"));
    const again = await compile([`${DIR}/wrong.graph`]);
    expect(again.diagnostics.filter((d) => d.code === "G3092")).toEqual([]);
    expect(again.files[0]!.text).toMatch(/name: "bad",[\s\S]*?sync: false/);
    expect(again.files[0]!.text).toMatch(/name: "good",[\s\S]*?sync: true/);
  });

  it("still returns the generated code, so the IDE shows the same errors", () => {
    expect(result.files).toHaveLength(1);
    expect(result.files[0]!.text).toContain("const fn: WrongBadFn = bad;");
  });
});
