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
