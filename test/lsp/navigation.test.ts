/**
 * Hover, go to definition, find references and rename over stdio, on the multi-file customer-service
 * sample (a parent graph and four subgraphs in their own files, types in a fifth).
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LspClient, REPO, positionOf, uriOf } from "./client.ts";

const DIR = "samples/customer-service";
const MAIN = `${DIR}/customer_service.graph`;
let client: LspClient;
let main: string;
let text: string;

interface Location {
  uri: string;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
}
interface TextEdit {
  range: Location["range"];
  newText: string;
}

beforeAll(async () => {
  client = await LspClient.start({ typecheck: false, debounceMs: 0 });
  main = await client.open(MAIN);
  text = client.text(main);
}, 60_000);
afterAll(async () => {
  await client.stop();
});

const at = (uri: string, position: { line: number; character: number }) => ({ textDocument: { uri }, position });
const hoverText = async (needle: string, nth = 0) =>
  (await client.request<{ contents: { value: string } } | null>("textDocument/hover", at(main, positionOf(text, needle, nth))))?.contents.value;
const lineOf = (file: string, needle: string) => readFileSync(`${REPO}${file}`, "utf8").split("\n").findIndex((l) => l.includes(needle));

/** applies LSP edits to a text (from the end, so earlier ranges stay valid) */
function apply(source: string, edits: readonly TextEdit[]): string {
  const lines = source.split("\n");
  const off = (p: { line: number; character: number }) => lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  return [...edits].sort((a, b) => off(b.range.start) - off(a.range.start)).reduce((s, e) => s.slice(0, off(e.range.start)) + e.newText + s.slice(off(e.range.end)), source);
}

describe("hover", () => {
  it("shows a field's type, reducer, default and who reads and writes it", async () => {
    const h = await hoverText("need_human:");
    expect(h).toContain("need_human: boolean");
    expect(h).toContain("field of graph `CustomerService`");
    expect(h).toContain("- reducer: none");
    expect(h).toContain("- default: `false`");
    expect(h).toContain("- read by: —");
    expect(h).toContain("- written by: `new_turn`, `reception`, `human_handoff`");
    expect(await hoverText("messages:")).toContain("- reducer: `messages`");
  });

  it("shows a node's reads, writes and the signature of its function", async () => {
    const h = await hoverText("human_handoff(");
    expect(h).toContain("- reads: `user_id`, `intent`, `entities`");
    expect(h).toContain("- writes: `messages`, `need_human`");
    expect(h).toMatch(/```ts\n.*handOff.*\(.*CustomerServiceHumanHandoffRead.*\)/);
  });

  it("shows a subgraph's child graph and its mapping", async () => {
    const h = await hoverText("subgraph reception", 0);
    expect(h).toBeUndefined(); // the keyword itself names nothing
    const sub = await hoverText("reception = Reception");
    expect(sub).toContain("subgraph reception = Reception");
    expect(sub).toContain("- in: `messages`, `user_id`, `unknown_streak`");
    expect(sub).toContain("- out: `messages`, `intent`, `entities`, `unknown_streak`, `need_human`");
  });
});

describe("go to definition", () => {
  const definition = (needle: string, delta = 0) => client.request<Location[]>("textDocument/definition", at(main, positionOf(text, needle, 0, delta)));

  it("jumps from a field use to its declaration", async () => {
    const [loc] = await definition("need_human          =>");
    expect(loc).toMatchObject({ uri: main, range: { start: { line: lineOf(MAIN, "need_human:       boolean") } } });
  });

  it("jumps from a subgraph's graph to its declaration in another file", async () => {
    const [loc] = await definition("= Reception", 2);
    expect(loc).toMatchObject({ uri: uriOf(`${DIR}/reception.graph`), range: { start: { line: lineOf(`${DIR}/reception.graph`, "graph Reception"), character: 6 } } });
  });

  it("jumps from a node's `= impl` to the TypeScript function", async () => {
    const [loc] = await definition("= newTurn", 2);
    const nodes = `${DIR}/customer_service.nodes.ts`;
    expect(loc).toMatchObject({ uri: uriOf(nodes), range: { start: { line: lineOf(nodes, "export function newTurn"), character: 16 } } });
  });

  it("jumps from `from \"x.graph\"` to the file", async () => {
    const [loc] = await definition('"./decision.graph"', 3);
    expect(loc).toMatchObject({ uri: uriOf(`${DIR}/decision.graph`), range: { start: { line: 0, character: 0 } } });
  });
});

describe("find references", () => {
  it("lists every use of a node, with or without its declaration", async () => {
    const pos = positionOf(text, "human_handoff(");
    const withDecl = await client.request<Location[]>("textDocument/references", { ...at(main, pos), context: { includeDeclaration: true } });
    const lines = withDecl.map((l) => l.range.start.line).sort((a, b) => a - b);
    const expected = text.split("\n").flatMap((l, i) => (/\bhuman_handoff\b/.test(l) && !l.trim().startsWith("//") ? [i] : []));
    expect(lines).toEqual(expected);
    const uses = await client.request<Location[]>("textDocument/references", { ...at(main, pos), context: { includeDeclaration: false } });
    expect(uses).toHaveLength(withDecl.length - 1);
  });

  it("finds a graph's uses across files", async () => {
    const decl = readFileSync(`${REPO}${DIR}/decision.graph`, "utf8");
    const refs = await client.request<Location[]>("textDocument/references", {
      textDocument: { uri: uriOf(`${DIR}/decision.graph`) },
      position: positionOf(decl, "graph Decision", 0, 6),
      context: { includeDeclaration: true },
    });
    expect(refs.map((r) => r.uri).sort()).toEqual([main, main, uriOf(`${DIR}/decision.graph`)].sort());
  });
});

describe("rename", () => {
  it("renames a graph across files: its declaration, the import and the subgraph", async () => {
    const decisionUri = uriOf(`${DIR}/decision.graph`);
    const decl = readFileSync(`${REPO}${DIR}/decision.graph`, "utf8");
    const position = positionOf(decl, "graph Decision", 0, 6);
    const prepared = await client.request<{ placeholder: string }>("textDocument/prepareRename", { textDocument: { uri: decisionUri }, position });
    expect(prepared.placeholder).toBe("Decision");
    const edit = await client.request<{ changes: Record<string, TextEdit[]> }>("textDocument/rename", { textDocument: { uri: decisionUri }, position, newName: "Decide" });
    expect(Object.keys(edit.changes).sort()).toEqual([main, decisionUri].sort());
    expect(apply(decl, edit.changes[decisionUri]!)).toContain("graph Decide {");
    const renamed = apply(text, edit.changes[main]!);
    expect(renamed).toContain('import { Decide } from "./decision.graph"');
    expect(renamed).toContain("subgraph decide = Decide {");
  });

  it("renames a field everywhere in its graph and spells out a same-name mapping to the child", async () => {
    const edit = await client.request<{ changes: Record<string, TextEdit[]> }>("textDocument/rename", {
      ...at(main, positionOf(text, "need_human:")),
      newName: "needs_human",
    });
    expect(Object.keys(edit.changes)).toEqual([main]);
    const renamed = apply(text, edit.changes[main]!);
    expect(renamed).toContain("needs_human:       boolean");
    expect(renamed).toContain("out { messages, intent, entities, unknown_streak, need_human -> needs_human }");
    expect(renamed).toContain("-> { messages, needs_human } = handOff");
    expect(renamed).toContain("needs_human          => human_handoff");
    expect(renamed).not.toMatch(/\bneed_human\b(?! ->)/);
  });

  it("renames a subgraph's field in its own file and spells out the parent's same-name mapping in another", async () => {
    const childUri = uriOf(`${DIR}/reception.graph`);
    const child = readFileSync(`${REPO}${DIR}/reception.graph`, "utf8");
    const edit = await client.request<{ changes: Record<string, TextEdit[]> }>("textDocument/rename", {
      textDocument: { uri: childUri },
      position: positionOf(child, "need_human:"),
      newName: "wants_human",
    });
    expect(Object.keys(edit.changes).sort()).toEqual([main, childUri].sort());
    const renamedChild = apply(child, edit.changes[childUri]!);
    expect(renamedChild).toContain("output { messages, intent, entities, unknown_streak, wants_human }");
    expect(renamedChild).not.toMatch(/\bneed_human\b/);
    expect(edit.changes[main]).toHaveLength(1);
    expect(apply(text, edit.changes[main]!)).toContain("out { messages, intent, entities, unknown_streak, wants_human -> need_human }");
  });

  it("refuses a name that is not an identifier", async () => {
    await expect(client.request("textDocument/rename", { ...at(main, positionOf(text, "need_human:")), newName: "two words" })).rejects.toThrow(/not a valid name/);
  });
});
