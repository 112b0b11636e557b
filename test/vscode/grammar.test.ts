/**
 * The extension's TextMate grammar: every sample tokenizes to its golden token/scope dump
 * (test/fixtures/tmgrammar/<sample>.tokens; GRAPHC_BLESS=1 rewrites them — review the diff), and the
 * constructs of the language get the scopes themes colour, checked one by one on a snippet.
 */
import { existsSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { graphFiles, ROOT } from "../graph-files.ts";
import { dump, tokenize, type Token } from "../../vscode/scripts/tokenize.ts";
import { BLESS, expectGolden } from "../compiler/emit-golden.ts";
import { KW } from "../../grammar/tokens.ts";

const GOLDEN = join(ROOT, "test/fixtures/tmgrammar");
const samples = graphFiles(join(ROOT, "samples"));

describe("TextMate grammar goldens", () => {
  it("covers the samples, and every golden belongs to a sample", () => {
    expect(samples.length).toBeGreaterThanOrEqual(16);
    const expected = new Set(samples.map((f) => `${relative(join(ROOT, "samples"), f)}.tokens`));
    const goldens = existsSync(GOLDEN) ? (readdirSync(GOLDEN, { recursive: true, encoding: "utf8" }) as string[]).filter((f) => f.endsWith(".tokens")) : [];
    for (const g of goldens) {
      if (expected.has(g)) continue;
      if (BLESS) rmSync(join(GOLDEN, g));
      else expect.fail(`stale golden test/fixtures/tmgrammar/${g} (run with GRAPHC_BLESS=1)`);
    }
  });

  it.each(samples.map((f) => [relative(join(ROOT, "samples"), f)]))("tokenizes samples/%s as its golden", async (name) => {
    const actual = dump(await tokenize(readFileSync(join(ROOT, "samples", name), "utf8")));
    expectGolden(join(GOLDEN, `${name}.tokens`), actual);
  });
});

const SNIPPET = `import { pick, fan, work as doWork } from "./n.ts"
import { Inner } from "./inner.graph"
/* a block
   comment */
type Mode = "a" | "b"

graph Demo {
  vars { model: string = "\${MODEL:-m}" }
  limits { recursion: 15 }
  state {
    items: string[] = []  reduce append
    count: number = 0  reduce sum
    scratch: Record<string, number>? ephemeral
    mode: Mode = "a"  reduce keepLast
  }
  private Scratch { note: string }
  input  { items }
  output { count }
  interrupt before work

  node work({ items }) -> { count } goto [done, END] = doWork {
    retry { attempts: 3, backoff: 200ms }
  }
  subgraph inner = Inner { in { x <- count }, out { y -> count } }
  subgraph sub from "./sub.graph"

  START -> work -> {
    count > 2 && mode == "b" && !(items == null) && true != false => inner  // big
    _ => END
  }
  inner -> route(pick) { again: work, stop: END }
  work -> send(fan)
  [work, inner] -> END
  interrupt after inner
}

interface Shape { input { items: string[] } }
graph Other implements Shape {
  meta { owner: "team" }
}
`;

let tokens: Token[] | undefined;
async function scopesOf(text: string, line: number): Promise<string[]> {
  tokens ??= await tokenize(SNIPPET);
  const t = tokens.find((x) => x.line === line && x.text.trim() === text);
  if (t === undefined) throw new Error(`no token \`${text}\` on line ${line}`);
  return t.scopes;
}

describe("TextMate grammar scopes", () => {
  it.each([
    // [line, token, innermost scope]
    [1, "import", "keyword.control.import.graph"],
    [1, "from", "keyword.control.from.graph"],
    [1, "as", "keyword.control.as.graph"],
    [1, '"./n.ts"', "string.quoted.double.graph"],
    [3, "/*", "punctuation.definition.comment.graph"],
    [4, "comment", "comment.block.graph"],
    [4, "*/", "punctuation.definition.comment.graph"],
    [5, "type", "storage.type.type-alias.graph"],
    [5, "Mode", "entity.name.type.alias.graph"],
    [7, "graph", "storage.type.graph.graph"],
    [7, "Demo", "entity.name.class.graph"],
    [8, "vars", "keyword.other.block.vars.graph"],
    [8, "MODEL", "variable.other.env.graph"],
    [9, "limits", "keyword.other.block.limits.graph"],
    [9, "recursion", "support.type.property-name.option.graph"],
    [9, "15", "constant.numeric.graph"],
    [10, "state", "keyword.other.block.state.graph"],
    [11, "items", "variable.other.property.field.graph"],
    [11, "string", "support.type.primitive.graph"],
    [11, "reduce", "keyword.other.reduce.graph"],
    [11, "append", "support.function.reducer.graph"],
    [12, "sum", "support.function.reducer.graph"],
    [13, "Record", "entity.name.type.graph"],
    [13, "ephemeral", "storage.modifier.ephemeral.graph"],
    [14, "Mode", "entity.name.type.graph"],
    [14, "keepLast", "entity.name.function.reducer.graph"],
    [16, "private", "keyword.other.block.private.graph"],
    [16, "Scratch", "entity.name.type.schema.graph"],
    [17, "input", "keyword.other.block.input.graph"],
    [18, "output", "keyword.other.block.output.graph"],
    [19, "interrupt", "keyword.control.interrupt.graph"],
    [19, "before", "keyword.control.interrupt.graph"],
    [19, "work", "variable.other.node.graph"],
    [21, "node", "storage.type.node.graph"],
    [21, "work", "entity.name.function.node.graph"],
    [21, "items", "variable.other.field.graph"],
    [21, "goto", "keyword.control.goto.graph"],
    [21, "done", "variable.other.node.graph"],
    [21, "END", "constant.language.endpoint.graph"],
    [21, "doWork", "entity.name.function.impl.graph"],
    [22, "retry", "support.type.property-name.option.graph"],
    [22, "200ms", "constant.numeric.duration.graph"],
    [24, "subgraph", "storage.type.subgraph.graph"],
    [24, "inner", "entity.name.function.node.graph"],
    [24, "Inner", "entity.name.class.graph"],
    [24, "in", "keyword.other.mapping.in.graph"],
    [24, "<-", "keyword.operator.mapping.graph"],
    [24, "out", "keyword.other.mapping.out.graph"],
    [25, '"./sub.graph"', "string.quoted.double.graph"],
    [27, "START", "constant.language.endpoint.graph"],
    [27, "->", "keyword.operator.arrow.graph"],
    [28, "count", "variable.other.field.graph"],
    [28, "&&", "keyword.operator.logical.graph"],
    [28, "==", "keyword.operator.comparison.graph"],
    [28, "=>", "keyword.operator.arrow.condition.graph"],
    [28, "inner", "variable.other.node.graph"],
    [28, "//", "punctuation.definition.comment.graph"],
    [29, "_", "constant.language.default.graph"],
    [31, "route", "keyword.control.route.graph"],
    [31, "pick", "entity.name.function.router.graph"],
    [31, "again", "constant.other.case.graph"],
    [32, "send", "keyword.control.send.graph"],
    [32, "fan", "entity.name.function.send.graph"],
    [33, "[", "punctuation.definition.list.begin.graph"],
    [33, "inner", "variable.other.node.graph"],
  ] as const)("line %i: `%s` is %s", async (line, text, scope) => {
    expect((await scopesOf(text, line)).at(-1)).toBe(scope);
  });

  it("nests blocks: a field's type sits inside the state block inside the graph", async () => {
    expect(await scopesOf("string", 11)).toEqual([
      "meta.graph.graph", "meta.block.fields.graph", "meta.type.annotation.graph", "support.type.primitive.graph",
    ]);
    // the comment after a condition does not swallow the next case, and the graph closes on its last line
    expect((await scopesOf("_", 29))[1]).toBe("meta.edge.graph");
    expect(await scopesOf("}", 35)).toEqual(["meta.graph.graph", "punctuation.section.block.end.graph"]);
  });

  it("highlights every keyword of the lexer as a keyword, storage type or language constant", async () => {
    tokens ??= await tokenize(SNIPPET);
    for (const word of Object.keys(KW)) {
      const scopes = tokens.filter((t) => t.text.trim() === word).map((t) => t.scopes.at(-1)!);
      expect(scopes.some((s) => /^(keyword|storage|constant\.language)\./.test(s)), `${word}: ${scopes.join(", ")}`).toBe(true);
    }
  });
});

// issue 12's contract syntax (metadata, typed interfaces of hot-plug subgraphs), highlighted ahead of its parser
const CONTRACTS = `interface QueryService {
  input  { intent }
  output { query_result }
}

graph OrdersQuery implements QueryService {
  meta { owner: "orders-team", version: "1.2.0" }
  node q({ intent }) -> { query_result } = query
}
`;

describe("TextMate grammar: contract syntax", () => {
  it.each([
    [1, "interface", "storage.type.interface.graph"],
    [1, "QueryService", "entity.name.type.interface.graph"],
    [2, "input", "keyword.other.block.input.graph"],
    [6, "implements", "storage.modifier.implements.graph"],
    [6, "QueryService", "entity.name.type.interface.graph"],
    [7, "meta", "keyword.other.block.meta.graph"],
    [7, "owner", "support.type.property-name.option.graph"],
    [7, "1.2.0", "string.quoted.double.graph"],
    [8, "query", "entity.name.function.impl.graph"],
  ] as const)("line %i: `%s` is %s", async (line, text, scope) => {
    const t = (await tokenize(CONTRACTS)).find((x) => x.line === line && x.text.trim() === text);
    expect(t?.scopes.at(-1)).toBe(scope);
  });
});

describe("```graph fences in Markdown", () => {
  it("are highlighted with the .graph grammar (the README's example), other fences are not", async () => {
    const md = "# Title\n\n```graph\ngraph Hello {\n  node greet({ name }) -> { greeting } = greet\n}\n```\n\n```ts\nconst graph = 1\n```\n";
    const tokens = await tokenize(md, { markdown: true });
    const greet = tokens.find((t) => t.line === 5 && t.text === "greet" && t.scopes.at(-1) === "entity.name.function.impl.graph");
    expect(greet?.scopes).toEqual([
      "markup.fenced_code.block.markdown", "meta.embedded.block.graph", "meta.graph.graph", "meta.node.graph", "entity.name.function.impl.graph",
    ]);
    expect(tokens.find((t) => t.line === 3)?.scopes.at(-1)).toBe("punctuation.definition.markdown");
    // the fence closed: the TypeScript block after it is not read as .graph
    expect(tokens.filter((t) => t.line === 10).flatMap((t) => t.scopes)).toEqual([]);
  });
});
