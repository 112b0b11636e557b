/**
 * Generators of hostile programs: every nestable construct nested to random depths on both sides of its
 * limit, very long chains, huge unions, many diagnostics, odd unicode. Each case is one file and says which
 * limit code it must produce (or that it must produce none): the limits are docs/language.md's "Limits".
 */
import fc from "fast-check";

export interface Hostile {
  readonly what: string;
  readonly text: string;
  /** the limit code the file must report, or undefined when it must report no limit code */
  readonly code: string | undefined;
  /** at least this many diagnostics of `manyOf` (the many-diagnostics case) */
  readonly many?: { readonly code: string; readonly count: number };
}

export const LIMIT_CODES = ["G1006", "G1007", "G3014", "G5012"];

const NESTING = 64;
const TREE = 256;
const TYPE = 256;
const SUBGRAPHS = 64;

const repeat = (s: string, n: number, sep = ""): string => Array(n).fill(s).join(sep);
/** a var default at bracket cost 2 (`graph G {`, `vars {`) */
const inVars = (e: string) => `graph G {\n  state { a: boolean, n: number, o: unknown }\n  vars { v: unknown = ${e} }\n}\n`;
/** an edge condition at bracket cost 2 (`graph G {`, the condition block) */
const inCondition = (e: string) =>
  `import { f } from "./f"\ngraph G {\n  state { a: boolean, n: number, o: unknown }\n  node x() = f\n  START -> x -> {\n    ${e} => END\n    _ => END\n  }\n}\n`;

/** depths around a limit: mostly close to it (both sides), sometimes far beyond */
const around = (limit: number) =>
  fc.oneof(fc.integer({ min: 1, max: limit + 3 }), fc.integer({ min: limit - 3, max: limit + 3 }), fc.integer({ min: limit, max: limit * 8 }));

const place = fc.constantFrom(inVars, inCondition);

const bracketed = fc
  .tuple(fc.constantFrom(["[", "]"], ["(", ")"], ["{ k: ", " }"], ["len(", ")"]), around(NESTING), place)
  .map(([[open, close], d, at]): Hostile => ({
    what: `${d} × ${open}`,
    text: at(`${repeat(open!, d)}1${repeat(close!, d)}`),
    code: 2 + d > NESTING ? "G1006" : undefined,
  }));

const prefixed = fc.tuple(fc.constantFrom("!", "-", "! -"), around(NESTING), place).map(([op, d, at]): Hostile => {
  const ops = op.split(" ");
  return {
    what: `${d} prefix ${op}`,
    text: at(`${Array.from({ length: d }, (_, i) => ops[i % ops.length]).join(" ")} a`),
    code: 2 + d > NESTING ? "G1006" : undefined,
  };
});

const generic = around(NESTING).map(
  (d): Hostile => ({
    what: `${d} × Record<`,
    text: `type T = ${repeat("Record<string, ", d)}string${repeat(">", d)}\ngraph G { state { x: T } }\n`,
    code: d > NESTING ? "G1006" : undefined,
  }),
);

/** `n` operands of a binary operator, or a leaf with `n - 1` suffixes: tree depth `n` */
const chained = fc
  .tuple(fc.constantFrom(" || ", " && ", " == ", " != ", " < ", ".o", "[0]"), around(TREE), place)
  .map(([op, n, at]): Hostile => ({
    what: `chain of ${n} ${op.trim()}`,
    text: at(op.startsWith(" ") ? repeat("a", n, op) : `o${repeat(op, n - 1)}`),
    code: n > TREE ? "G1007" : undefined,
  }));

const typeChain = fc.tuple(fc.constantFrom("[]", "?"), around(TREE)).map(
  ([suffix, n]): Hostile => ({
    what: `type with ${n - 1} × ${suffix}`,
    text: `graph G {\n  state { x: string${repeat(suffix, n - 1)} }\n}\n`,
    code: n > TREE ? "G1007" : undefined,
  }),
);

/** `n` aliases T0 = T1 … used by a field: n + 1 levels */
const aliases = fc.tuple(around(TYPE), fc.boolean()).map(([n, reverse]): Hostile => {
  const decls = Array.from({ length: n }, (_, i) => `type T${i} = ${i + 1 < n ? `T${i + 1}` : "string"}`);
  if (reverse) decls.reverse();
  return { what: `${n} chained aliases`, text: `${decls.join("\n")}\ngraph G { state { x: T0 } }\n`, code: n + 1 > TYPE ? "G3014" : undefined };
});

/** `n` graphs each using the next: n - 1 levels */
const subgraphChain = around(SUBGRAPHS).map(
  (n): Hostile => ({
    what: `${n} chained graphs`,
    text: Array.from({ length: n }, (_, i) =>
      i + 1 < n
        ? `graph G${i} {\n  state { x: string }\n  subgraph s = G${i + 1}\n  START -> s -> END\n}`
        : `graph G${i} {\n  state { x: string }\n  START -> END\n}`,
    ).join("\n"),
    code: n - 1 > SUBGRAPHS ? "G5012" : undefined,
  }),
);

/** inline subgraphs inside each other: bracket cost d + 2 (the outer graph and the innermost state) */
const inlineNesting = around(NESTING).map(
  (d): Hostile => ({
    what: `${d} nested inline graphs`,
    text: `graph G {\n${repeat("subgraph s = graph {\n", d)}state { x: string }\n${repeat("}\n", d)}}\n`,
    code: d + 2 > NESTING ? "G1006" : undefined,
  }),
);

/** option blocks inside each other: bracket cost d + 2 (the graph and the node's options) */
const optionNesting = around(NESTING).map(
  (d): Hostile => ({
    what: `${d} nested option blocks`,
    text: `import { f } from "./f"\ngraph G {\n  node n() = f { retry ${repeat("{ a ", d)}${repeat("}", d)} }\n  START -> n -> END\n}\n`,
    code: d + 2 > NESTING ? "G1006" : undefined,
  }),
);

const hugeUnion = fc.integer({ min: 1, max: 5000 }).map(
  (n): Hostile => ({
    what: `union of ${n}`,
    text: `type U = ${Array.from({ length: n }, (_, i) => `"v${i}"`).join(" | ")}\ngraph G { state { x: U = "v0" } }\n`,
    code: undefined,
  }),
);

const longEdgeChain = fc.integer({ min: 1, max: 4000 }).map(
  (n): Hostile => ({
    what: `edge chain of ${n}`,
    text: `import { f } from "./f"\ngraph G {\n  state { x: string }\n  node a() = f\n  START -> ${repeat("a", n, " -> ")} -> END\n}\n`,
    code: undefined,
  }),
);

const manyDiagnostics = fc.integer({ min: 1, max: 3000 }).map(
  (n): Hostile => ({
    what: `${n} unknown nodes`,
    text: `graph G {\n  state { x: string }\n${Array.from({ length: n }, (_, i) => `  START -> n${i}`).join("\n")}\n}\n`,
    code: undefined,
    many: { code: "G2003", count: n },
  }),
);

/** unicode where text may go (strings, comments) and where it may not (names, between tokens) */
const oddUnicode = fc
  .tuple(
    fc.string({ unit: "binary", maxLength: 40 }),
    fc.string({ unit: fc.constantFrom("\u2028", "\u2029", "\u202e", "\u200b", "\ufeff", "\ud800", "\udc00", "𝄞", "é", "\u0000", "\r", "\t"), maxLength: 12 }),
    fc.constantFrom("string", "comment", "name", "between"),
  )
  .map(([s, odd, where]): Hostile => {
    const text = s + odd;
    const lit = JSON.stringify(text).replace(/\\u2028|\\u2029/g, "");
    const body =
      where === "string"
        ? `  vars { v: string = ${lit} }`
        : where === "comment"
          ? `  // ${text.replace(/[\r\n\u2028\u2029]/g, " ")}\n  /* ${text.replace(/\*\//g, "")} */`
          : where === "name"
            ? `  state { ${text}: string }`
            : `  state ${text} { x: string }`;
    return { what: `unicode in ${where}`, text: `graph G {\n${body}\n}\n`, code: undefined };
  });

export const hostileProgram: fc.Arbitrary<Hostile> = fc.oneof(
  bracketed,
  prefixed,
  generic,
  chained,
  typeChain,
  aliases,
  subgraphChain,
  inlineNesting,
  optionNesting,
  hugeUnion,
  longEdgeChain,
  manyDiagnostics,
  oddUnicode,
);
