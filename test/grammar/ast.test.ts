/**
 * Specific AST properties the goldens show but do not name: spans nest, strings are decoded, durations
 * are in ms, negative numbers fold, inline graphs get synthesised names, separators are enforced, soft
 * keywords are names, and a large graph parses completely with one reused parser.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { bigGraph } from "../../bench/parse.ts";
import { parse, type GraphDecl, type Span, type SubgraphDecl } from "../../grammar/index.ts";
import { decodeString } from "../../grammar/tokens.ts";

const fixture = (name: string) =>
  readFileSync(fileURLToPath(new URL(`../fixtures/parse/${name}`, import.meta.url)), "utf8");

function graph(text: string): GraphDecl {
  const { ast, diagnostics } = parse(text, "t.graph");
  expect(diagnostics).toEqual([]);
  return ast.items.find((i) => i.kind === "Graph") as GraphDecl;
}

describe("spans", () => {
  it("every child span lies inside its parent's, and a node's text starts with its own source", () => {
    const text = fixture("everything.graph");
    const { ast } = parse(text, "everything.graph");
    let checked = 0;
    const visit = (node: unknown, parent: Span | undefined): void => {
      if (Array.isArray(node)) return node.forEach((n) => visit(n, parent));
      if (!node || typeof node !== "object") return;
      const o = node as { kind?: string; span?: Span };
      let here = parent;
      if (o.kind && o.span) {
        // synthesised inline-graph names reuse the subgraph's name span, outside the `graph { }` text
        const synthesised = o.kind === "Ident" && (node as { name: string }).name.includes("$");
        if (parent && !synthesised) {
          expect(o.span.start.offset, o.kind).toBeGreaterThanOrEqual(parent.start.offset);
          expect(o.span.end.offset, o.kind).toBeLessThanOrEqual(parent.end.offset);
        }
        if (o.kind === "Ident" && !synthesised) {
          expect(text.slice(o.span.start.offset, o.span.end.offset)).toBe((node as { name: string }).name);
        }
        checked++;
        here = o.span;
      }
      for (const [k, v] of Object.entries(node)) if (k !== "span" && k !== "comments") visit(v, here);
    };
    visit(ast.items, ast.span);
    expect(checked).toBeGreaterThan(400);
  });

  it("uses 1-based lines and columns in UTF-16 code units", () => {
    const g = graph('graph G {\n  state { s: string = "é😀" }\n\tSTART -> a\n}');
    const edge = g.members[1]!;
    expect(edge.span.start).toMatchObject({ line: 3, column: 2 });
    const field = (g.members[0] as { fields: { default: { span: Span } }[] }).fields[0]!;
    expect(field.default.span.end.column - field.default.span.start.column).toBe(5); // " é 😀(2 units) "
  });
});

describe("line endings", () => {
  it("parses CRLF and CR files like LF files, with the same lines and columns", () => {
    const lf = fixture("everything.graph");
    const strip = (v: unknown): unknown =>
      JSON.parse(JSON.stringify(v, (k, x: unknown) => (k === "offset" || k === "text" ? undefined : x)));
    const base = parse(lf, "f.graph");
    for (const eol of ["\r\n", "\r"]) {
      const other = parse(lf.replace(/\n/g, eol), "f.graph");
      expect(other.diagnostics).toEqual([]);
      expect(strip(other.ast.items)).toEqual(strip(base.ast.items));
    }
  });
});

describe("literals", () => {
  it("decodes every string escape", () => {
    expect(decodeString(String.raw`"a\nb\tc\r\\\"\'\0\b\f\v"`).value).toBe("a\nb\tc\r\\\"'\0\b\f\v");
    expect(decodeString(String.raw`'\u00e9\u{1F600}'`).value).toBe("é😀");
    expect(decodeString(String.raw`"\q"`).bad).toEqual([{ at: 1, escape: "\\q" }]);
    expect(decodeString('"open').terminated).toBe(false);
    expect(decodeString('"esc\\"').terminated).toBe(false);
  });

  it("converts durations to milliseconds", () => {
    const g = graph("graph G { node n() = f { a 500ms, b 0.5s, c 10s, d 5m, e 1h } }");
    const node = g.members[0] as { options: { value: { ms: number; raw: string } }[] };
    expect(node.options.map((o) => o.value.ms)).toEqual([500, 500, 10_000, 300_000, 3_600_000]);
  });

  it("folds a minus before a number into a negative literal, keeps it for names", () => {
    const g = graph("graph G { x -> { a[-1] == -2.5 => b, -n > 0 => c } }");
    const cases = (g.members[0] as { branch: { cases: { cond: unknown }[] } }).branch.cases;
    expect(cases[0]!.cond).toMatchObject({
      kind: "Binary",
      left: { kind: "Index", index: { kind: "Literal", value: -1, raw: "-1" } },
      right: { kind: "Literal", value: -2.5 },
    });
    expect(cases[1]!.cond).toMatchObject({ left: { kind: "Unary", op: "-", operand: { kind: "Name" } } });
  });
});

describe("graphs", () => {
  it("names an inline subgraph Parent$node (nested: Parent$outer$inner)", () => {
    const g = graph(
      "graph P {\n  subgraph outer = graph {\n    subgraph inner = graph { state { x: string } }\n  }\n}",
    );
    const outer = g.members[0] as SubgraphDecl;
    expect(outer.target.kind).toBe("InlineGraph");
    const og = (outer.target as { graph: GraphDecl }).graph;
    expect(og).toMatchObject({ kind: "Graph", inline: true, name: { name: "P$outer" } });
    const inner = og.members[0] as SubgraphDecl;
    expect(inner.target).toMatchObject({ graph: { name: { name: "P$outer$inner" }, inline: true } });
  });

  it("marks .graph imports", () => {
    const { ast } = parse(
      'import { A } from "./a.graph"\nimport { f } from "./f"\nimport type { T } from "./t"',
      "t.graph",
    );
    expect(ast.items.map((i) => i.kind === "Import" && [i.isGraph, i.typeOnly])).toEqual([
      [true, false],
      [false, false],
      [false, true],
    ]);
  });
});

describe("separators", () => {
  const codes = (text: string) => parse(text, "t.graph").diagnostics.map((d) => d.code);

  it("accepts commas, line breaks, and juxtaposition after '}' or before a keyword", () => {
    expect(codes("graph G { state { a: string, b: number } }")).toEqual([]);
    expect(codes("graph G { state {\n a: string\n b: number\n} }")).toEqual([]);
    expect(codes("graph G { state { a: string } node n() = f }")).toEqual([]);
    expect(codes("graph G { subgraph s = S { in { a } out { b } } }")).toEqual([]);
    expect(codes("graph G { subgraph s = S { in = f  out = g } }")).toEqual([]);
    expect(codes("graph G { x -> { a => b  _ => c } }")).toEqual([]);
    expect(codes("graph G { state { a: string, /* c */ b: number, } }")).toEqual([]);
    expect(codes("graph G { state { a: string /* c\n */ b: number } }")).toEqual([]);
  });

  it("rejects juxtaposed items on one line", () => {
    expect(codes("graph G { state { a: string b: number } }")).toEqual(["G1020"]);
    expect(codes("graph G { START -> a b -> END }")).toEqual(["G1020"]);
    expect(codes("graph G { x -> { a => b c => d } }")).toEqual(["G1020"]);
    expect(codes("graph G { node n() = f { timeout 1s retry { attempts: 1 } } }")).toEqual(["G1020"]);
    expect(codes("graph G { state { a: unknown = [1 2] } }")).toEqual(["G1020"]);
    expect(codes("graph G { state { a: string /* c */ b: number } }")).toEqual(["G1020"]);
  });
});

describe("scale", () => {
  it("parses a 5,000-node graph completely with the module-level parser", () => {
    const { ast, diagnostics } = parse(bigGraph(5000), "big.graph");
    expect(diagnostics).toEqual([]);
    const g = ast.items[1] as GraphDecl;
    expect(g.members.filter((m) => m.kind === "Node")).toHaveLength(5000);
    expect(g.members.filter((m) => m.kind === "Edge")).toHaveLength(5001);
  });
});
