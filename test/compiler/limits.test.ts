/**
 * The compiler's limits (docs/language.md, "Limits"): a program just over each limit gets the limit's code
 * at the place it is crossed, a program at the limit gets none and compiles; nothing is an internal error
 * (G9xxx), and the formatter never throws. Also: no spread `push(...)` in compiler/ or grammar/, and a
 * program with more diagnostics than a spread can pass gets all of them.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { check } from "../../compiler/check.ts";
import { compile } from "../../compiler/compile.ts";
import { format } from "../../compiler/format/index.ts";
import { memoryHost } from "../../compiler/phases/2-bind/host.ts";
import { MAX_TYPE_DEPTH } from "../../compiler/phases/2-bind/types.ts";
import { MAX_SUBGRAPH_DEPTH } from "../../compiler/phases/3-check/subgraphs.ts";
import { MAX_TREE_DEPTH } from "../../grammar/to-ast.ts";
import { MAX_NESTING } from "../../grammar/tokens.ts";

const FILE = "main.graph";

function codesOf(text: string): string[] {
  return check([FILE], memoryHost({ [FILE]: text })).diagnostics.map((d) => d.code);
}

function diagnosticsOf(text: string) {
  return check([FILE], memoryHost({ [FILE]: text })).diagnostics;
}

/** `n` copies of `part` joined by `sep` */
const repeat = (part: string, n: number, sep = ""): string => Array(n).fill(part).join(sep);

/** an expression of tree depth `depth` (a leaf is depth 1), per construct */
const deepExpr: Record<string, (depth: number) => string> = {
  or: (k) => repeat("a", k, " || "),
  and: (k) => repeat("a", k, " && "),
  eq: (k) => repeat("a", k, " == "),
  less: (k) => repeat("n", k, " < "),
  member: (k) => `o${repeat(".o", k - 1)}`,
  index: (k) => `l${repeat("[0]", k - 1)}`,
};

/** the same expression as a var default and as an edge condition */
const exprIn = (e: string) =>
  `import { f } from "./f"\ngraph G {\n  state { a: boolean, n: number, o: unknown, l: unknown }\n  vars { v: unknown = ${e} }\n  node x() = f\n  START -> x -> {\n    ${e} => END\n    _ => END\n  }\n}\n`;

const deepType: Record<string, (depth: number) => string> = {
  array: (k) => `string${repeat("[]", k - 1)}`,
  optional: (k) => `string${repeat("?", k - 1)}`,
};

describe("nesting of brackets, prefix operators and type arguments (G1006)", () => {
  const record = (k: number) => `type T = ${repeat("Record<string, ", k)}string${repeat(">", k)}\n`;

  it(`accepts ${MAX_NESTING} nested type arguments and rejects one more, where it is crossed`, () => {
    expect(codesOf(record(MAX_NESTING))).toEqual([]);
    const over = diagnosticsOf(record(MAX_NESTING + 1));
    expect(over.map((d) => d.code)).toEqual(["G1006"]);
    // the 65th `<`
    expect(over[0]!.span.start.offset).toBe(record(MAX_NESTING + 1).indexOf("<") + "Record<string, ".length * MAX_NESTING);
  });

  it("does not count comparisons as brackets", () => {
    const conditions = Array.from({ length: 100 }, (_, i) => `    n < ${i} => END`).join("\n");
    const text = `import { f } from "./f"\ngraph G {\n  state { n: number }\n  node x() = f\n  START -> x -> {\n${conditions}\n    _ => END\n  }\n}\n`;
    expect(codesOf(text)).toEqual([]);
  });

  it("reports 1,000 and 3,000 nested `Record<` as the limit, not as an internal parser error", () => {
    for (const k of [1000, 3000]) expect(codesOf(record(k))).toEqual(["G1006"]);
  });
});

describe(`expression and type trees deeper than ${MAX_TREE_DEPTH} levels (G1007)`, () => {
  for (const [name, build] of Object.entries(deepExpr)) {
    it(`${name}: at the limit it checks and formats, one level more is G1007`, () => {
      expect(codesOf(exprIn(build(MAX_TREE_DEPTH))).filter((c) => c.startsWith("G1") || c.startsWith("G9"))).toEqual([]);
      expect(format(exprIn(build(MAX_TREE_DEPTH)), FILE).diagnostics).toEqual([]);
      const over = codesOf(exprIn(build(MAX_TREE_DEPTH + 1)));
      expect(over).toEqual(["G1007", "G1007"]); // the var default and the condition
    });
  }

  for (const [name, build] of Object.entries(deepType)) {
    it(`${name} type: at the limit it parses, one level more is G1007`, () => {
      const text = (k: number) => `graph G {\n  state { x: ${build(k)} }\n}\n`;
      expect(codesOf(text(MAX_TREE_DEPTH)).filter((c) => c.startsWith("G1") || c.startsWith("G9"))).toEqual([]);
      expect(codesOf(text(MAX_TREE_DEPTH + 1))).toEqual(["G1007"]);
    });
  }

  it("points at the operator where the limit is crossed", () => {
    const e = deepExpr["member"]!(MAX_TREE_DEPTH + 1);
    const text = `graph G {\n  state { o: unknown }\n  vars { v: unknown = ${e} }\n}\n`;
    const [d] = diagnosticsOf(text);
    expect(d!.code).toBe("G1007");
    expect(text.slice(d!.span.start.offset, d!.span.end.offset)).toBe(".o");
    expect(d!.span.start.offset).toBe(text.indexOf("o.o") + 1 + 2 * (MAX_TREE_DEPTH - 1));
    expect(d!.hint).toBeTruthy();
  });

  it("reports the issue's sizes (3,000 and 12,000 members, 8,200 `||`) as G1007, and fmt refuses them", () => {
    for (const e of [deepExpr["member"]!(3000), deepExpr["member"]!(12000), deepExpr["or"]!(8200)]) {
      expect(codesOf(exprIn(e))).toEqual(["G1007", "G1007"]);
      expect(format(exprIn(e), FILE).diagnostics.map((d) => d.code)).toEqual(["G1007", "G1007"]);
    }
  });

  it("a condition at the limit compiles (emit and prettier included)", async () => {
    const text = exprIn(deepExpr["or"]!(MAX_TREE_DEPTH));
    const r = await compile([FILE], { host: memoryHost({ [FILE]: text, "f.ts": "" }), typecheck: false });
    expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(r.files[0]!.text.split("||").length).toBeGreaterThan(2 * (MAX_TREE_DEPTH - 1));
  });
});

describe(`aliases expanding deeper than ${MAX_TYPE_DEPTH} levels (G3014)`, () => {
  /** `n` aliases T0 = T1 … = string (or `T1[]` …), declared in order or in reverse */
  const chain = (n: number, suffix: string, reverse = false) => {
    const aliases = Array.from({ length: n }, (_, i) => `type T${i} = ${i + 1 < n ? `T${i + 1}${suffix}` : "string"}`);
    if (reverse) aliases.reverse();
    return `${aliases.join("\n")}\ngraph G {\n  state { x: T0 }\n}\n`;
  };

  // the field's reference is level 1; a plain alias adds one level, `T[]` two (the array and the reference)
  for (const [name, suffix, longest] of [["plain", "", MAX_TYPE_DEPTH - 1], ["array", "[]", MAX_TYPE_DEPTH / 2]] as const) {
    for (const reverse of [false, true]) {
      it(`${name} chain${reverse ? " declared in reverse" : ""}: ${longest} aliases pass, ${longest + 1} are G3014`, () => {
        expect(codesOf(chain(longest, suffix, reverse))).toEqual([]);
        expect(codesOf(chain(longest + 1, suffix, reverse))).toEqual(["G3014"]);
      });
    }
  }

  it("2,470 chained aliases (the issue's size) are G3014, not G9001", () => {
    const codes = codesOf(chain(2470, ""));
    expect(codes.length).toBeGreaterThan(0);
    expect(new Set(codes)).toEqual(new Set(["G3014"]));
  });
});

describe(`subgraph chains deeper than ${MAX_SUBGRAPH_DEPTH} levels (G5012)`, () => {
  /** graphs G0 … G(n-1), each using the next as a subgraph: n - 1 levels below G0 */
  const chain = (n: number) =>
    Array.from({ length: n }, (_, i) =>
      i + 1 < n
        ? `graph G${i} {\n  state { x: string }\n  subgraph s = G${i + 1}\n  START -> s -> END\n}`
        : `graph G${i} {\n  state { x: string }\n  START -> END\n}`,
    ).join("\n");

  it(`${MAX_SUBGRAPH_DEPTH} levels warn once (G5007), ${MAX_SUBGRAPH_DEPTH + 1} are one G5012 where the level beyond starts`, () => {
    expect(codesOf(chain(MAX_SUBGRAPH_DEPTH + 1))).toEqual(["G5007"]);
    const text = chain(MAX_SUBGRAPH_DEPTH + 2);
    const over = diagnosticsOf(text);
    expect(over.map((d) => d.code)).toEqual(["G5012"]);
    expect(over[0]!.span.start.offset).toBe(text.indexOf(`subgraph s = G${MAX_SUBGRAPH_DEPTH + 1}\n`) + "subgraph ".length);
  });

  it("4,100 chained graphs (the issue's size) are one G5012, not G9001", () => {
    expect(codesOf(chain(4100))).toEqual(["G5012"]);
  });
});

describe("many diagnostics", () => {
  it("130,000 diagnostics (more than a spread call can pass) are all reported", () => {
    // one unknown escape is one G1004: a single string makes them cheaply
    const n = 130_000;
    const codes = codesOf(`graph G {\n  state { x: string = "${repeat("\\q", n)}" }\n}\n`);
    expect(codes.length).toBe(n);
    expect(new Set(codes)).toEqual(new Set(["G1004"]));
  });

  it("compiler/ and grammar/ never spread an array into push()", () => {
    const root = join(import.meta.dirname, "../..");
    const offenders: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (name.endsWith(".ts")) {
          readFileSync(path, "utf8")
            .split("\n")
            .forEach((line, i) => {
              const code = line.replace(/\/\/.*$/, "");
              if (!/^\s*\*/.test(code) && /\.(push|unshift)\(\s*\.\.\.|Math\.(max|min)\(\s*\.\.\./.test(code))
                offenders.push(`${path.slice(root.length + 1)}:${i + 1}`);
            });
        }
      }
    };
    walk(join(root, "compiler"));
    walk(join(root, "grammar"));
    expect(offenders).toEqual([]);
  });
});
