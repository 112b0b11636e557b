/**
 * parse() is total: any text — random, binary, truncated, mutated — gives an AST and diagnostics, never
 * an exception, never an internal error, and every span lies inside the text.
 */
import fc from "fast-check";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse, type Span } from "../../grammar/index.ts";

const sample = readFileSync(fileURLToPath(new URL("../fixtures/parse/everything.graph", import.meta.url)), "utf8");

function checkTotal(text: string): void {
  const { ast, diagnostics } = parse(text, "fuzz.graph");
  expect(ast.kind).toBe("File");
  const inText = (s: Span) => s.start.offset >= 0 && s.end.offset <= text.length && s.start.offset <= s.end.offset;
  for (const d of diagnostics) {
    expect(d.code, d.message).toMatch(/^G1\d{3}$/); // G9100 would mean the parser crashed
    expect(inText(d.span), `${d.code} span`).toBe(true);
  }
  walkSpans(ast, (s) => expect(inText(s)).toBe(true));
}

function walkSpans(v: unknown, f: (s: Span) => void): void {
  if (Array.isArray(v)) for (const x of v) walkSpans(x, f);
  else if (v && typeof v === "object") {
    for (const [k, x] of Object.entries(v)) {
      if (k === "span") f(x as Span);
      else walkSpans(x, f);
    }
  }
}

/** tokens of the language, glued at random: reaches far more grammar states than random characters */
const vocabulary = [
  "graph",
  "G",
  "{",
  "}",
  "(",
  ")",
  "[",
  "]",
  "state",
  "input",
  "output",
  "private",
  "vars",
  "limits",
  "interrupt",
  "before",
  "after",
  "node",
  "subgraph",
  "from",
  "as",
  "import",
  "type",
  "reduce",
  "ephemeral",
  "goto",
  "route",
  "send",
  "in",
  "out",
  "START",
  "END",
  "true",
  "false",
  "null",
  "_",
  "->",
  "<-",
  "=>",
  "==",
  "!=",
  "<=",
  ">=",
  "&&",
  "||",
  "!",
  "?",
  "|",
  "<",
  ">",
  "=",
  "-",
  ",",
  ":",
  ".",
  "a",
  "b",
  "x1",
  '"s"',
  "'q'",
  '"unterminated',
  "1",
  "2.5",
  "10s",
  "5m",
  "3xs",
  "/* c */",
  "// l\n",
  "/*",
  "\n",
  " ",
  "é",
  "\u0000",
  ";",
];

describe("parse never throws", () => {
  it("handles empty, blank, binary and truncated input", () => {
    const cases = [
      "",
      " \n\t\r\n",
      "\uFEFFgraph G {}",
      String.fromCharCode(...Array.from({ length: 256 }, (_, i) => i)),
      "\u0000\u0001\uffff\ud800",
      '"',
      "'",
      "/*",
      "graph",
      "graph G {",
      "graph G { node",
      "graph G { a -> { x => ",
      "}}}}]]])))",
      "[".repeat(5000),
      "graph G { x -> { " + "!".repeat(5000) + "a => b } }",
      "graph G { state { x: unknown = " + "{a:".repeat(3000) + " } }",
    ];
    for (let i = 1; i < sample.length; i += 97) cases.push(sample.slice(0, i));
    for (const c of cases) checkTotal(c);
  });

  it("stays inside the stack on absurd nesting, even when called from deep inside a host", () => {
    const nasty = ["!(", "-[", "!!!!(", "{a:[", "!-(", "-".repeat(10) + "(", "((((!"].map(
      (unit) => `graph G { x -> { ${unit.repeat(400)}a => b } }`,
    );
    const atDepth = (n: number, f: () => void): void => (n === 0 ? f() : atDepth(n - 1, f));
    atDepth(1500, () => {
      for (const text of nasty) {
        const codes = parse(text, "deep.graph").diagnostics.map((d) => d.code);
        expect(codes).toContain("G1006");
        expect(codes).not.toContain("G9100");
      }
    });
  });

  it("handles random strings", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), (s) => checkTotal(s)),
      { numRuns: 300 },
    );
  });

  it("handles random token soup", () => {
    const soup = fc.array(fc.constantFrom(...vocabulary), { maxLength: 80 }).map((ts) => ts.join(" "));
    fc.assert(
      fc.property(soup, (s) => checkTotal(s)),
      { numRuns: 400 },
    );
  });

  it("handles mutations of a valid file (deletions, insertions, swaps)", () => {
    const mutation = fc.record({
      at: fc.nat({ max: sample.length - 1 }),
      del: fc.nat({ max: 12 }),
      ins: fc.constantFrom("", "{", "}", "(", "->", "=", ",", "node", "\n", '"', "/*", "[", "_ =>"),
    });
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 4 }), (ms) => {
        let text = sample;
        for (const m of ms) text = text.slice(0, m.at) + m.ins + text.slice(m.at + m.del);
        checkTotal(text);
      }),
      { numRuns: 120 },
    );
  });
});
