/**
 * Error recovery: one parse reports every independent syntax error, and still returns the rest of the
 * file as a (partial) AST.
 */
import { describe, expect, it } from "vitest";
import { parse, type GraphDecl, type NodeDecl } from "../../grammar/index.ts";
import { diagnosticLine } from "./golden.ts";

const graphOf = (text: string, i = 0) =>
  parse(text, "t.graph").ast.items.filter((x) => x.kind === "Graph")[i] as GraphDecl;

describe("recovery", () => {
  it("reports every independent error in one parse, one diagnostic per mistake", () => {
    const text = [
      "graph G {", //                                   1
      "  state {", //                                   2
      "    a: string", //                               3
      "    b: = 3", //                                  4  missing type
      "    c: number", //                               5
      "  }", //                                         6
      "  node x({ a }) -> { b } =", //                  7  missing impl
      "  node y({ a } -> { c } = implY", //             8  missing ')'
      "  START -> x -> -> y", //                        9  missing node
      "  x -> route(r) { k: }", //                     10  missing target
      "  interrupt during y", //                       11  bad keyword
      "  node z() = zz", //                            12  fine
      "  z -> END", //                                 13  fine
      "}", //                                          14
      "graph H { node END() = f }", //                 15  reserved word
    ].join("\n");
    const { ast, diagnostics } = parse(text, "t.graph");
    expect(diagnostics.map((d) => [d.code, d.span.start.line])).toEqual([
      ["G1011", 4],
      ["G1010", 7],
      ["G1010", 8],
      ["G1011", 9],
      ["G1011", 10],
      ["G1011", 11],
      ["G1013", 15],
    ]);
    // the members after the errors are still there
    const g = ast.items[0] as GraphDecl;
    const names = g.members.filter((m): m is NodeDecl => m.kind === "Node").map((n) => n.name.name);
    expect(names).toEqual(["x", "y", "z"]);
    expect(g.members.some((m) => m.kind === "Edge" && m.steps[0]?.names[0]?.name === "z")).toBe(true);
    expect((ast.items[1] as GraphDecl).name.name).toBe("H");
  });

  // chevrotain would insert the `}` a block expects before a token that may follow the block (`[` starts a
  // fan-in edge), closing `state` early: the rest of the graph was then "unexpected at the top level"
  it("never closes a block early: junk in a block skips to the block's own `}`", () => {
    const text = [
      "graph G {", //                                   1
      "  state {", //                                   2
      "    a: number = 0", //                           3
      "    b string[] = []", //                         4  missing ':'
      "  }", //                                         5
      "  node x({ a }) -> { a } = f", //                6  fine
      "  node y({ a } -> { a } = f", //                 7  missing ')'
      "  START -> x -> y -> END", //                    8  fine
      "}", //                                           9
    ].join("\n");
    const { ast, diagnostics } = parse(text, "t.graph");
    expect(diagnostics.map((d) => [d.code, d.span.start.line])).toEqual([
      ["G1011", 4],
      ["G1010", 7],
    ]);
    const g = ast.items[0] as GraphDecl;
    expect(ast.items).toHaveLength(1);
    expect(g.members.filter((m): m is NodeDecl => m.kind === "Node").map((n) => n.name.name)).toEqual(["x", "y"]);
  });

  it("ends a block whose `}` is missing before the next member's line: one diagnostic per missing brace", () => {
    const text = [
      "graph G {", //                                   1
      "  vars {", //                                    2
      '    greeting: string = "hi"', //                 3  `}` missing
      "  limits { recursion: 15 }", //                  4
      "  state {", //                                   5
      "    a: number = 0", //                           6  `}` missing
      "  node x({ a }) -> { a } = f {", //              7
      "    retry { attempts: 3 }", //                   8  the options' `}` missing
      "  START -> x -> END", //                         9
      "}", //                                          10
    ].join("\n");
    const { ast, diagnostics } = parse(text, "t.graph");
    expect(diagnostics.map((d) => [d.code, d.span.start.line])).toEqual([
      ["G1010", 3],
      ["G1010", 6],
      ["G1010", 8],
    ]);
    const g = ast.items[0] as GraphDecl;
    expect(g.members.map((m) => m.kind)).toEqual(["Vars", "Limits", "State", "Node", "Edge"]);
  });

  it("takes a mid-line `}` for a block's close only where that block opened on the same line", () => {
    const text = [
      "graph G {", //                                   1
      "  state {", //                                   2
      "    a: number = 0", //                           3
      "    b: Rec = }", //                              4  `{` deleted: this `}` does not close `state`
      "    c: number = 1", //                           5
      "  }", //                                         6
      "  node x({ a }) -> { a } = f", //                7
      "  x -> route(r) { k: }", //                      8  missing target: this `}` closes the cases
      "  START -> x -> END", //                         9
      "}", //                                          10
    ].join("\n");
    const { ast, diagnostics } = parse(text, "t.graph");
    expect(diagnostics.map((d) => [d.code, d.span.start.line])).toEqual([
      ["G1011", 4],
      ["G1011", 8],
    ]);
    const g = ast.items[0] as GraphDecl;
    expect(g.members.map((m) => m.kind)).toEqual(["State", "Node", "Edge", "Edge"]);
  });

  it("closes a list whose `}` is missing before a token that cannot continue it (`-> { a, b = f`)", () => {
    const text = [
      "graph G {", //                                   1
      "  state { a: number = 0, b: number = 0 }", //    2
      "  node x({ a }) -> { a, b = f", //               3  `}` missing before `=`
      "  node y({ a }) -> { b } = f", //                4
      "  START -> x -> y -> END", //                    5
      "}", //                                           6
    ].join("\n");
    const { ast, diagnostics } = parse(text, "t.graph");
    expect(diagnostics.map((d) => [d.code, d.span.start.line])).toEqual([["G1011", 3]]);
    const nodes = (ast.items[0] as GraphDecl).members.filter((m): m is NodeDecl => m.kind === "Node");
    expect(nodes.map((n) => [n.name.name, n.impl.name])).toEqual([
      ["x", "f"],
      ["y", "f"],
    ]);
  });

  it("ends an array whose `]` is missing before a field's line or its `reduce`: one diagnostic per missing bracket", () => {
    const text = [
      "graph G {", //                                   1
      "  state {", //                                   2
      "    log: string[] = [  reduce append", //         3  `]` missing before `reduce`
      "    count: number = 0", //                       4
      '    tags: string[] = ["a", "b"', //              5  `]` missing at the end of the line
      "    other: number = 1", //                       6
      "  }", //                                         7
      "  node x({ count }) -> { count } = f", //        8
      "  START -> x -> END", //                         9
      "}", //                                          10
    ].join("\n");
    const { ast, diagnostics } = parse(text, "t.graph");
    expect(diagnostics.map((d) => [d.code, d.span.start.line])).toEqual([
      ["G1011", 3],
      ["G1010", 5],
    ]);
    const g = ast.items[0] as GraphDecl;
    const state = g.members.find((m) => m.kind === "State");
    expect(state && "fields" in state ? state.fields.map((f) => f.name.name) : []).toEqual(["log", "count", "tags", "other"]);
    expect(g.members.filter((m) => m.kind === "Node")).toHaveLength(1);
  });

  // a block whose closing brace is missing ends before the first line it cannot hold: one diagnostic, and
  // everything after it parsed as written (bench: every punctuation character of the samples deleted in turn)
  it.each([
    {
      what: "a mapping, before its subgraph's option",
      lines: ["  subgraph s = S {", "    out { a, b", "    timeout 10s", "  }", "  node n() = f", "  START -> s -> n -> END"],
      expected: [["G1010", 4]],
    },
    {
      what: "a subgraph body, before the next member",
      lines: ["  subgraph s = S {", "    out { a, b }", "  node n() = f", "  START -> s -> n -> END"],
      expected: [["G1010", 4]],
    },
    {
      what: "a condition block, before the next edge",
      lines: ["  node n() = f", "  node m() = f", "  START -> n -> {", "    a == 1 => m", "    _ => END", "  m -> END"],
      expected: [["G1010", 7]],
    },
    {
      what: "route cases, before the next edge",
      lines: ["  node n() = f", "  node m() = f", "  START -> n -> route(r) {", "    yes: m", "    no: END", "  m -> END"],
      expected: [["G1010", 7]],
    },
  ])("ends $what when its `}` is missing", ({ lines, expected }) => {
    const text = ["graph G {", "  state { a: number = 0 }", ...lines, "}"].join("\n");
    const { ast, diagnostics } = parse(text, "t.graph");
    expect(diagnostics.map((d) => [d.code, d.span.start.line])).toEqual(expected);
    const members = (ast.items[0] as GraphDecl).members;
    // the members after the error are the graph's, as written
    expect(members.at(-1)?.kind).toBe("Edge");
  });

  it("ends an import list at `from` and an object type before the next item when their `}` is missing", () => {
    const text = [
      'import { f, g from "./n.ts"', //                  1  `}` missing before `from`
      "type T = { a: string, b?: number", //             2  `}` missing at the end of the line
      'type U = "x" | "y"', //                          3
      "graph G {", //                                   4
      "  state { a: number = 0 }", //                   5
      "  node n() = f", //                              6
      "  START -> n -> END", //                         7
      "}", //                                           8
    ].join("\n");
    const { ast, diagnostics } = parse(text, "t.graph");
    expect(diagnostics.map((d) => [d.code, d.span.start.line, d.message])).toEqual([
      ["G1011", 1, "unexpected 'from' in an import; expected a name to import or '}'"],
      ["G1010", 2, "expected '}' in a type, found the end of the line"],
    ]);
    expect(ast.items.map((i) => i.kind)).toEqual(["Import", "TypeAlias", "TypeAlias", "Graph"]);
  });

  it("ends an object value before the next field's line when its `}` is missing", () => {
    const text = [
      "graph G {", //                                   1
      "  state {", //                                   2
      '    r: R = { status: "none"', //                 3  `}` missing
      "    done: boolean = false", //                   4
      "  }", //                                         5
      "}", //                                           6
    ].join("\n");
    const { ast, diagnostics } = parse(text, "t.graph");
    expect(diagnostics.map((d) => [d.code, d.span.start.line])).toEqual([["G1010", 3]]);
    const state = (ast.items[0] as GraphDecl).members[0]!;
    expect("fields" in state ? state.fields.map((f) => f.name.name) : []).toEqual(["r", "done"]);
  });

  it("reads a default without its `=` as the default, with one diagnostic for the `=`", () => {
    const text = [
      "graph G {", //                                   1
      "  state {", //                                   2
      "    e: Entities {}", //                          3  `=` missing
      '    s: string "x"', //                           4  `=` missing
      "    b: boolean = false", //                      5
      "  }", //                                         6
      "}", //                                           7
    ].join("\n");
    const { ast, diagnostics } = parse(text, "t.graph");
    expect(diagnostics.map((d) => [d.code, d.span.start.line, d.message])).toEqual([
      ["G1010", 3, "expected '=' in a field, found '{'"],
      ["G1010", 4, 'expected \'=\' in a field, found string `"x"`'],
    ]);
    const state = (ast.items[0] as GraphDecl).members[0]!;
    expect("fields" in state ? state.fields.map((f) => [f.name.name, f.default?.kind]) : []).toEqual([
      ["e", "Object"],
      ["s", "Literal"],
      ["b", "Literal"],
    ]);
  });

  it("reads a node's option block whose `{` is missing as the block, with one diagnostic", () => {
    const text = [
      "graph G {", //                                   1
      "  node n() = f", //                              2
      "    timeout 10s", //                             3  `{` missing
      "    retry { attempts: 2 }", //                   4
      "  }", //                                         5
      "  START -> n -> END", //                         6
      "}", //                                           7
    ].join("\n");
    const { ast, diagnostics } = parse(text, "t.graph");
    expect(diagnostics.map((d) => [d.code, d.span.start.line, d.message])).toEqual([
      ["G1010", 3, "expected '{' in a node's options, found identifier `timeout`"],
    ]);
    const members = (ast.items[0] as GraphDecl).members;
    const n = members.find((m): m is NodeDecl => m.kind === "Node")!;
    expect(n.options.map((o) => o.name.name)).toEqual(["timeout", "retry"]);
    expect(members.map((m) => m.kind)).toEqual(["Node", "Edge"]);
  });

  it("reads an arrow with a character missing and a condition block whose `{` is missing, one diagnostic each", () => {
    const text = [
      "graph G {", //                                   1
      "  node a() = f", //                              2
      "  node b() = f", //                              3
      "  START -> a - b > END", //                      4  `-` and `>` for `->`
      "  a ->", //                                      5
      "    x == 1 => b", //                             6  `{` missing
      "    _ => END", //                                7
      "  }", //                                         8
      "}", //                                           9
    ].join("\n");
    const { ast, diagnostics } = parse(text, "t.graph");
    expect(diagnostics.map((d) => [d.code, d.span.start.line, d.message])).toEqual([
      ["G1010", 4, "expected '->' in an edge, found '-'"],
      ["G1010", 4, "expected '->' in an edge, found '>'"],
      ["G1010", 6, "expected '{' in a condition block, found identifier `x`"],
    ]);
    const edges = (ast.items[0] as GraphDecl).members.filter((m) => m.kind === "Edge");
    expect(edges.map((e) => [e.steps.map((s) => s.names.map((n) => n.name).join()), e.branch?.kind])).toEqual([
      [["START", "a", "b", "END"], undefined],
      [["a"], "Conditions"],
    ]);
  });

  it("skips a `}` that cannot close the graph (G1024): the members after it stay in the graph", () => {
    const text = [
      "graph G {", //                                   1
      "  state {", //                                   2
      '    r: R = status: "none" }', //                 3  the object's `{` missing: `}` closes `state`
      "  }", //                                         4  stray
      "  node n() = f", //                              5
      "  START -> n -> END", //                         6
      "}", //                                           7
      "graph H { node x() = f }", //                    8
    ].join("\n");
    const { ast, diagnostics } = parse(text, "t.graph");
    expect(diagnostics.map((d) => [d.code, d.span.start.line])).toEqual([
      ["G1011", 3],
      ["G1024", 4],
    ]);
    expect(diagnostics[1]!.message).toBe("unexpected '}': the graph goes on after it");
    const graphs = ast.items.filter((i): i is GraphDecl => i.kind === "Graph");
    expect(graphs.map((g) => [g.name.name, g.members.map((m) => m.kind)])).toEqual([
      ["G", ["State", "Node", "Edge"]],
      ["H", ["Node"]],
    ]);
    // a graph's own `}` is never stray, however it is indented, when the file goes on with a top-level item
    const indented = parse(["graph A {", "  node n() = f", "  }", "graph B { node m() = f }"].join("\n"), "t.graph");
    expect(indented.diagnostics).toEqual([]);
  });

  it("marks a missing name as a missing Ident with a zero-width span where it was expected", () => {
    const g = graphOf("graph G {\n  node x({ a }) -> { b } =\n  node y() = f\n}\n");
    const x = g.members[0] as NodeDecl;
    expect(x.impl).toMatchObject({ kind: "Ident", name: "", missing: true });
    expect(x.impl.span.start).toEqual(x.impl.span.end);
    expect(x.impl.span.start).toMatchObject({ line: 2, column: 27 });
    // the next line's `node` was not swallowed as the impl name
    expect((g.members[1] as NodeDecl).name.name).toBe("y");
  });

  it("keeps the partial node when its reads are unterminated", () => {
    const { ast, diagnostics } = parse("graph G {\n  node n({ a, b = f\n  START -> n\n}\n", "t.graph");
    expect(diagnostics.length).toBeGreaterThan(0);
    const g = ast.items[0] as GraphDecl;
    const n = g.members.find((m): m is NodeDecl => m.kind === "Node");
    expect(n?.name.name).toBe("n");
    expect(n?.reads).toMatchObject({ kind: "FieldList" });
    expect(g.members.some((m) => m.kind === "Edge")).toBe(true);
  });

  it("skips stray top-level text and parses the graphs after it", () => {
    const { ast, diagnostics } = parse("START -> a\n}\ngraph A { a -> END }\n)))\ngraph B { b -> END }\n", "t.graph");
    expect(diagnostics.map((d) => d.code)).toEqual(["G1012", "G1012"]);
    expect(ast.items.map((i) => (i.kind === "Graph" ? i.name.name : i.kind))).toEqual(["A", "B"]);
  });

  it("resumes after text the top-level rule cannot even start on", () => {
    // a lone `)` or `[` ends chevrotain's top-level rule early; parse() restarts at the next `graph`
    const { ast, diagnostics } = parse(")\ngraph A { a -> END }\n[ x\ngraph B { b -> END }", "t.graph");
    expect(diagnostics.map(diagnosticLine)).toEqual([
      "G1012 1:1-1:2 unexpected ')' at the top level of the file",
      "G1012 3:1-3:4 unexpected '[' at the top level of the file",
    ]);
    expect(ast.items.map((i) => i.kind === "Graph" && i.name.name)).toEqual(["A", "B"]);
  });

  it("reports a missing closing brace at the end of the file once, after the last token", () => {
    const { diagnostics } = parse("graph G {\n  state { a: string\n", "t.graph");
    expect(diagnostics.map(diagnosticLine)).toEqual([
      "G1010 2:20-2:20 expected '}' in the `state` block, found end of file",
    ]);
  });

  it("gives a bad character its own diagnostic and keeps the rest of that line quiet", () => {
    const { diagnostics } = parse("graph G {\n  START -> é -> END\n  a -> -> b\n}\n", "t.graph");
    expect(diagnostics.map((d) => `${d.code}@${d.span.start.line}`)).toEqual(["G1001@2", "G1011@3"]);
  });

  it("skips a bracketed group opened after the error as a whole when resynchronising", () => {
    const text = "graph G {\n  state { x: Record<string, number>= { a: 1 } }\n  a -> b\n}\ngraph H { c -> d }\n";
    const { ast, diagnostics } = parse(text, "t.graph");
    expect(diagnostics.map(diagnosticLine)).toEqual(["G1010 2:35-2:37 expected '>' in a type, found '>='"]);
    expect(ast.items.map((i) => i.kind === "Graph" && i.members.map((m) => m.kind))).toEqual([
      ["State", "Edge"],
      ["Edge"],
    ]);
  });

  it("does not take the next line's edge as a missing name", () => {
    const { ast, diagnostics } = parse("graph G {\n  interrupt before\n  a -> b\n}\n", "t.graph");
    expect(diagnostics.map(diagnosticLine)).toEqual([
      "G1010 2:19-2:19 expected identifier in an `interrupt` declaration, found the end of the line",
    ]);
    expect((ast.items[0] as GraphDecl).members.map((m) => m.kind)).toEqual(["Interrupt", "Edge"]);
  });

  it("words its messages itself: token labels, no chevrotain arrows", () => {
    const { diagnostics } = parse("graph G {\n  node n( = f\n  a -> route x\n  b -> [c d\n}\n", "t.graph");
    expect(diagnostics.length).toBeGreaterThan(1);
    for (const d of diagnostics) {
      expect(d.message).not.toMatch(/-->|<--|Expecting|token of type|EOF/);
      expect(d.hint).toBeTruthy();
      expect(d.label).toBeTruthy();
      expect(d.severity).toBe("error");
    }
  });
});
