/**
 * Robustness: parse + bind + check on mutated versions of the diagnostic fixtures (lines deleted, repeated,
 * swapped, names replaced, text truncated) must never hit an internal error (G9xxx), and every diagnostic
 * and related location must point inside its file. Fast (a few hundred cases); the grammar's property tests
 * run the large random campaigns.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { check } from "../../compiler/check.ts";
import { memoryHost } from "../../compiler/phases/2-bind/host.ts";
import { graphFiles } from "../graph-files.ts";
import { invalidSpan } from "../property/spans.ts";

const dir = join(import.meta.dirname, "../fixtures/diagnostics");

const NAMES = [
  "START",
  "END",
  "a",
  "x",
  "state",
  "node",
  "graph",
  "__proto__",
  "Flow",
  "notes",
  "reduce",
  "[",
  "]",
  "{",
  "}",
  "->",
  "=>",
  "_",
  "in",
  "out",
  '"${"',
  "0",
];

const mutation = fc.oneof(
  fc.record({ op: fc.constant("delete" as const), at: fc.nat(), len: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ op: fc.constant("repeat" as const), at: fc.nat(), len: fc.constant(1) }),
  fc.record({ op: fc.constant("swap" as const), at: fc.nat(), len: fc.nat() }),
  fc.record({ op: fc.constant("replace" as const), at: fc.nat(), len: fc.nat({ max: NAMES.length - 1 }) }),
  fc.record({ op: fc.constant("truncate" as const), at: fc.nat(), len: fc.constant(0) }),
);
type Mutation = typeof mutation extends fc.Arbitrary<infer M> ? M : never;

function mutate(text: string, muts: Mutation[]): string {
  let lines = text.split("\n");
  for (const m of muts) {
    const i = lines.length ? m.at % lines.length : 0;
    switch (m.op) {
      case "delete":
        lines.splice(i, m.len);
        break;
      case "repeat":
        lines.splice(i, 0, lines[i] ?? "");
        break;
      case "swap": {
        const j = lines.length ? m.len % lines.length : 0;
        [lines[i], lines[j]] = [lines[j] ?? "", lines[i] ?? ""];
        break;
      }
      case "replace": {
        const words = (lines[i] ?? "").split(/(\s+)/);
        const w = words.length ? (m.at >> 3) % words.length : 0;
        words[w] = NAMES[m.len]!;
        lines[i] = words.join("");
        break;
      }
      case "truncate":
        lines = lines
          .join("\n")
          .slice(0, m.at % (text.length + 1))
          .split("\n");
        break;
    }
  }
  return lines.join("\n");
}

describe("checker robustness", () => {
  // every fixture file, multi-file folders flattened
  const corpus = graphFiles(dir).map((f) => readFileSync(f, "utf8"));

  it("never fails internally and reports valid spans on mutated fixtures", () => {
    fc.assert(
      fc.property(
        fc.nat({ max: corpus.length - 1 }),
        fc.array(mutation, { minLength: 1, maxLength: 4 }),
        (pick, muts) => {
          const text = mutate(corpus[pick]!, muts);
          // a sibling file keeps `.graph` imports resolvable some of the time
          const files: Record<string, string> = { "m.graph": text, "child.graph": corpus[(pick + 1) % corpus.length]! };
          const { diagnostics } = check(["m.graph"], memoryHost(files));
          for (const x of diagnostics) expect(x.code, `${x.code}: ${x.message}\n--- input ---\n${text}`).not.toMatch(/^G9/);
          // every diagnostic's span and related spans inside their file, line/column agreeing with the offsets
          expect(invalidSpan(diagnostics, files)).toBeUndefined();
        },
      ),
      { numRuns: Number(process.env["ROBUST_RUNS"] ?? 400), ...(process.env["ROBUST_RUNS"] ? {} : { seed: 20261130 }) },
    );
  });
});
