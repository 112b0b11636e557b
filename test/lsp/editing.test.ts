/**
 * Completion, code actions, formatting, document symbols, semantic tokens and the `graphc/graphSvg`
 * request over stdio, on the customer-service sample and on unsaved documents beside it (documents open
 * in the editor override the disk).
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { format } from "../../compiler/format/index.ts";
import { LspClient, REPO, positionOf, uriOf } from "./client.ts";

const DIR = "samples/customer-service";
const MAIN = `${DIR}/customer_service.graph`;
let client: LspClient;
let main: string;
let text: string;

beforeAll(async () => {
  client = await LspClient.start({ typecheck: false, debounceMs: 0 });
  main = await client.open(MAIN);
  text = client.text(main);
}, 60_000);
afterAll(async () => {
  await client.stop();
});

interface Item {
  label: string;
}
const labels = async (uri: string, source: string, needle: string, delta: number, nth = 0) =>
  (await client.request<Item[]>("textDocument/completion", { textDocument: { uri }, position: positionOf(source, needle, nth, delta) })).map((i) => i.label);

describe("completion", () => {
  it("offers the graph's fields in a node's reads and writes", async () => {
    const reads = await labels(main, text, "human_handoff({ user_id, intent", "human_handoff({ user_id, ".length);
    expect(reads).toEqual(expect.arrayContaining(["messages", "user_id", "intent", "need_human", "unknown_streak"]));
    expect(reads).not.toContain("reception");
    const writes = await labels(main, text, "-> { messages, need_human } = handOff", "-> { ".length);
    expect(writes).toContain("need_human");
  });

  it("offers nodes (and END) in edges", async () => {
    const items = await labels(main, text, "query -> decide", "query -> ".length);
    expect(items).toEqual(expect.arrayContaining(["new_turn", "reception", "query", "decide", "execution", "human_handoff", "END"]));
    expect(items).not.toContain("intent");
  });

  it("offers the child's input fields on the child side of an `in` mapping, the parent's on the other", async () => {
    const child = await labels(main, text, "in  { messages, user_id, unknown_streak }", "in  { ".length);
    expect(child.sort()).toEqual(["messages", "unknown_streak", "user_id"]);
    const out = await labels(main, text, "out { messages, intent, entities, unknown_streak, need_human }", "out { ".length);
    expect(out.sort()).toEqual(["entities", "intent", "messages", "need_human", "unknown_streak"]);
  });

  it("offers reducers after `reduce`", async () => {
    expect(await labels(main, text, "reduce messages", "reduce ".length)).toEqual(expect.arrayContaining(["append", "messages", "sum", "merge", "union", "replace"]));
  });

  it("offers option names in a subgraph block and option values", async () => {
    const names = await labels(main, text, "timeout 10s", 0);
    expect(names).toEqual(expect.arrayContaining(["retry", "timeout", "cache", "defer", "on_error", "stateful", "in", "out"]));
    expect(names).not.toContain("uses");
    const src = text.replace("= handOff", "= handOff {\n    retry { attempts: 3, jitter: }\n    on_error: \n  }");
    const uri = await client.open(`${DIR}/completion-scratch.graph`, src);
    expect(await labels(uri, src, "jitter: ", "jitter: ".length)).toEqual(["true", "false"]);
    expect(await labels(uri, src, "on_error: ", "on_error: ".length)).toContain("new_turn");
    expect(await labels(uri, src, "retry { attempts", "retry { ".length)).toEqual(["attempts", "backoff", "factor", "max_interval", "jitter"]);
    await client.close(uri);
  });

  it("offers imported functions after `node … =` and a module's exports inside `import { }`", async () => {
    expect((await labels(main, text, "= newTurn", 2)).sort()).toEqual(["handOff", "newTurn"]);
    const ts = await labels(main, text, "import { newTurn, handOff }", "import { ".length);
    expect(ts).toEqual(expect.arrayContaining(["newTurn", "handOff"]));
    const graphs = await labels(main, text, "import { Intent, Entities", "import { ".length);
    expect(graphs).toEqual(expect.arrayContaining(["Intent", "Verdict", "Entities", "QueryResult", "ExecutionResult", "Approval"]));
    expect(await labels(main, text, "= Reception {", 2)).toEqual(expect.arrayContaining(["Reception", "Query", "Decision", "Execution", "graph"]));
  });
});

describe("code actions", () => {
  it("offers the did-you-mean fix, and applying it clears the diagnostic", async () => {
    const good = readFileSync(`${REPO}${DIR}/decision.graph`, "utf8");
    const broken = good.replace("node rules({ intent, query_result })", "node rules({ intnet, query_result })");
    const uri = await client.open(`${DIR}/actions-scratch.graph`, broken);
    const [diag] = await client.waitForDiagnostics(uri, (d) => d.length > 0, true);
    expect(diag).toMatchObject({ code: "G2006" });
    const actions = await client.request<{ title: string; kind: string; isPreferred: boolean; edit: { changes: Record<string, { newText: string }[]> } }[]>(
      "textDocument/codeAction",
      { textDocument: { uri }, range: diag!.range, context: { diagnostics: [diag] } },
    );
    expect(actions).toMatchObject([{ title: "Change `intnet` to `intent`", kind: "quickfix", isPreferred: true }]);
    expect(actions[0]!.edit.changes[uri]).toEqual([{ range: diag!.range, newText: "intent" }]);
    await client.change(uri, good);
    expect(await client.waitForDiagnostics(uri, (d) => d.length === 0)).toEqual([]);
    await client.close(uri);
  });
});

describe("formatting", () => {
  it("is graphc fmt: one edit to the formatted text, none for a formatted file", async () => {
    const messy = text.replace("  node new_turn() ->", "node    new_turn( )  ->").replace("  execution -> END", "execution->END");
    const uri = await client.open(`${DIR}/format-scratch.graph`, messy);
    const edits = await client.request<{ newText: string }[]>("textDocument/formatting", { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } });
    expect(edits).toHaveLength(1);
    expect(edits[0]!.newText).toBe(format(messy, "x.graph").text);
    expect(edits[0]!.newText).toBe(text);
    expect(await client.request("textDocument/formatting", { textDocument: { uri: main }, options: { tabSize: 2, insertSpaces: true } })).toEqual([]);
    await client.close(uri);
  });
});

describe("document symbols and semantic tokens", () => {
  it("outlines the graph with its fields, vars and nodes", async () => {
    const symbols = await client.request<{ name: string; kind: number; children?: { name: string; kind: number }[] }[]>("textDocument/documentSymbol", { textDocument: { uri: main } });
    expect(symbols.map((s) => s.name)).toEqual(["CustomerService"]);
    const children = symbols[0]!.children!.map((c) => c.name);
    expect(children).toEqual(expect.arrayContaining(["refundLimit", "messages", "need_human", "new_turn", "reception", "human_handoff"]));
    expect(symbols[0]!.children!.find((c) => c.name === "reception")!.kind).toBe(2); // Module: a subgraph
    expect(symbols[0]!.children!.find((c) => c.name === "new_turn")!.kind).toBe(12); // Function
  });

  it("classifies graphs, fields, nodes and imported functions", async () => {
    const legend = ["class", "type", "property", "function", "variable", "method", "namespace", "macro"];
    const { data } = await client.request<{ data: number[] }>("textDocument/semanticTokens/full", { textDocument: { uri: main } });
    const tokens: { line: number; char: number; length: number; type: string }[] = [];
    let line = 0;
    let char = 0;
    for (let i = 0; i < data.length; i += 5) {
      line += data[i]!;
      char = data[i] === 0 ? char + data[i + 1]! : data[i + 1]!;
      tokens.push({ line, char, length: data[i + 2]!, type: legend[data[i + 3]!]! });
    }
    const typeAt = (needle: string, delta = 0) => {
      const p = positionOf(text, needle, 0, delta);
      return tokens.find((t) => t.line === p.line && t.char === p.character)?.type;
    };
    expect(typeAt("graph CustomerService", 6)).toBe("class");
    expect(typeAt("need_human:")).toBe("property");
    expect(typeAt("new_turn ->", 0)).toBe("function");
    expect(typeAt("= newTurn", 2)).toBe("method");
    expect(typeAt("Intent          =")).toBe("type");
    expect(typeAt("reduce messages", 7)).toBe("macro");
  });
});

describe("graphc/graphSvg", () => {
  it("draws the document's graph as SVG", async () => {
    const { svg } = await client.request<{ svg: string }>("graphc/graphSvg", { uri: main });
    expect(svg).toMatch(/^<\?xml|<svg/);
    expect(svg).toContain("</svg>");
    for (const node of ["new_turn", "human_handoff"]) expect(svg).toContain(`>${node}</text>`);
    // a subgraph node is a cluster labelled as declared
    expect(svg).toContain(">reception = Reception</text>");
  });

  it("draws a file that is not open in the editor", async () => {
    const { svg } = await client.request<{ svg: string }>("graphc/graphSvg", { uri: uriOf("samples/research-writer/research.graph") });
    expect(svg).toContain("</svg>");
    expect(svg).toContain("Research");
  });

  it("answers an error for a graph the file does not declare", async () => {
    await expect(client.request("graphc/graphSvg", { uri: main, graph: "Nope" })).rejects.toThrow(/no graph `Nope` here \(graphs: CustomerService\)/);
  });
});
