/** Generators of broken input: random token streams and mutations of real `.graph` files. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { graphFiles, ROOT } from "../graph-files.ts";

const VOCABULARY = [
  "graph", "state", "input", "output", "private", "vars", "limits", "interrupt", "before", "after", "node",
  "subgraph", "from", "as", "import", "type", "reduce", "ephemeral", "goto", "route", "send", "in", "out",
  "true", "false", "null", "START", "END", "_", "State", "Input", "Output", "Record", "string", "number",
  "a", "b", "x", "foo_1", "__proto__", "constructor", `"s"`, `"${"${X:-y}"}"`, `'q'`, `"unterminated`, "1", "2.5",
  "10s", "5m", "3xyz", "->", "<-", "=>", "==", "!=", "<=", ">=", "&&", "||", "!", "?", "|", "<", ">", "=", "-",
  ",", ":", ".", "{", "}", "(", ")", "[", "]", "// c", "/* b */", "/* open", "\n", "\n\n", "@", "#", "\\", "é", "𝄞",
  "\u2028", "`",
];

export const tokenStream = fc
  .array(fc.tuple(fc.constantFrom(...VOCABULARY), fc.constantFrom(" ", "", "\n", "  ", "\t")), { maxLength: 60 })
  .map((ts) => ts.map(([t, s]) => t + s).join(""));

/** The texts of every `.graph` file under samples/ and test/fixtures/. */
export const corpus: readonly string[] = [...graphFiles(join(ROOT, "samples")), ...graphFiles(join(ROOT, "test/fixtures"))].map(
  (f) => readFileSync(f, "utf8"),
);

/** Token-ish pieces of a text (words, numbers, strings, punctuation runs, whitespace) for token-level edits. */
function pieces(text: string): string[] {
  return text.match(/"(?:[^"\\\n]|\\.)*"|[A-Za-z_][A-Za-z0-9_]*|\d+(?:\.\d+)?[a-z]*|\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\/|[^\sA-Za-z0-9_"]/g) ?? [];
}

type Mutation =
  | { op: "deleteChars" | "duplicateChars"; at: number; len: number }
  | { op: "swapChars"; at: number; other: number }
  | { op: "deleteToken" | "duplicateToken"; at: number }
  | { op: "swapTokens"; at: number; other: number }
  | { op: "insertToken"; at: number; token: string };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constantFrom("deleteChars" as const, "duplicateChars" as const), at: fc.nat(), len: fc.integer({ min: 1, max: 12 }) }),
  fc.record({ op: fc.constant("swapChars" as const), at: fc.nat(), other: fc.nat() }),
  fc.record({ op: fc.constantFrom("deleteToken" as const, "duplicateToken" as const), at: fc.nat() }),
  fc.record({ op: fc.constant("swapTokens" as const), at: fc.nat(), other: fc.nat() }),
  fc.record({ op: fc.constant("insertToken" as const), at: fc.nat(), token: fc.constantFrom(...VOCABULARY) }),
);

function apply(text: string, m: Mutation): string {
  if (text.length === 0) return m.op === "insertToken" ? m.token : text;
  switch (m.op) {
    case "deleteChars":
    case "duplicateChars": {
      const at = m.at % text.length;
      const piece = text.slice(at, at + m.len);
      return text.slice(0, at) + (m.op === "duplicateChars" ? piece + piece : "") + text.slice(at + m.len);
    }
    case "swapChars": {
      const cs = [...text];
      const i = m.at % cs.length;
      const j = m.other % cs.length;
      [cs[i], cs[j]] = [cs[j]!, cs[i]!];
      return cs.join("");
    }
    default: {
      const ps = pieces(text);
      if (ps.length === 0) return text;
      const i = m.at % ps.length;
      if (m.op === "deleteToken") ps.splice(i, 1);
      else if (m.op === "duplicateToken") ps.splice(i, 0, ps[i]!);
      else if (m.op === "insertToken") ps.splice(i, 0, ` ${m.token} `);
      else if (m.op === "swapTokens") {
        const j = m.other % ps.length;
        [ps[i], ps[j]] = [ps[j]!, ps[i]!];
      }
      return ps.join("");
    }
  }
}

/** A file of the corpus with 1–4 random edits. */
export const mutatedFile = fc
  .tuple(fc.nat(), fc.array(mutation, { minLength: 1, maxLength: 4 }))
  .map(([i, ms]) => ms.reduce(apply, corpus[i % corpus.length] ?? ""));
