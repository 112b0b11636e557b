/**
 * Property tests: on any input — random token streams, real files with random edits, random well-formed
 * graphs — parse and check never throw, never report an internal error (G9xxx), and every diagnostic has
 * spans inside its file whose line/column agree with their offsets. The formatter is idempotent and keeps
 * every comment on every file it accepts. Case counts: runs.ts (GRAPHC_PROPERTY_RUNS).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { check } from "../../compiler/check.ts";
import { format } from "../../compiler/format/index.ts";
import { memoryHost } from "../../compiler/phases/2-bind/host.ts";
import { parse, type GraphFile, type ParseResult } from "../../grammar/index.ts";
import { corpus, mutatedFile, tokenStream } from "./gen-noise.ts";
import { validGraphText } from "./gen-valid.ts";
import { runs } from "./runs.ts";
import { invalidSpan } from "./spans.ts";

const FILE = "main.graph";
/** a second file for `import … from "./other.graph"` and `subgraph … from "./other.graph"` */
const OTHER = "other.graph";
const OTHER_TEXT = `graph Other {\n  state { f0: string, r: string }\n  START -> END\n}\n`;

/**
 * Parses and checks `text`; returns a problem description, or undefined when all is well. `parsed`: the
 * caller's own parse of `text`, when it already has one.
 */
function frontEndProblem(text: string, parsed: ParseResult = parse(text, FILE)): string | undefined {
  const files = { [FILE]: text, [OTHER]: OTHER_TEXT };
  const p1 = invalidSpan(parsed.diagnostics, files);
  if (p1 !== undefined) return `parse: ${p1}`;
  const checked = check([FILE], memoryHost(files));
  const internal = checked.diagnostics.find((d) => d.code.startsWith("G9"));
  if (internal !== undefined) return `check: internal error ${internal.message}`;
  const p2 = invalidSpan(checked.diagnostics, files);
  return p2 === undefined ? undefined : `check: ${p2}`;
}

/** Formats `text` if it parses; returns a problem description, or undefined. */
function formatterProblem(text: string): string | undefined {
  const once = format(text, FILE);
  if (once.diagnostics.length > 0) return once.text === text ? undefined : "changed a file it refused";
  const reparsed = parse(once.text, FILE);
  if (reparsed.diagnostics.some((d) => d.severity === "error")) return "formatted text has syntax errors";
  const comments = (ast: GraphFile) => ast.comments.map((c) => c.text.trimEnd()).sort().join("\n");
  if (comments(reparsed.ast) !== comments(parse(text, FILE).ast)) return "comments changed";
  const twice = format(once.text, FILE);
  return twice.text === once.text ? undefined : "not idempotent";
}

function ok(problem: string | undefined): void {
  expect(problem).toBeUndefined();
}

describe("front end never throws and reports valid spans", () => {
  it("has a corpus of real files to mutate", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(10);
  });

  it("random token streams", () => {
    fc.assert(fc.property(tokenStream, (t) => {
      ok(frontEndProblem(t));
    }), { numRuns: runs(0.75) });
  });

  it("mutated samples and fixtures", () => {
    fc.assert(fc.property(mutatedFile, (t) => {
      ok(frontEndProblem(t));
    }), { numRuns: runs(0.15) });
  });

  it("random well-formed graphs (which also parse without syntax errors)", () => {
    fc.assert(
      fc.property(fc.gen(), (g) => {
        const text = validGraphText(g);
        const parsed = parse(text, FILE);
        const errors = parsed.diagnostics.filter((d) => d.severity === "error");
        expect(errors.map((d) => `${d.code} ${d.message}`)).toEqual([]);
        ok(frontEndProblem(text, parsed));
      }),
      { numRuns: runs(0.03) },
    );
  });
});

describe("formatter", () => {
  it("is idempotent and keeps comments on random well-formed graphs", () => {
    fc.assert(fc.property(fc.gen(), (g) => {
      ok(formatterProblem(validGraphText(g)));
    }), { numRuns: runs(0.02) });
  });

  it("is idempotent on mutated files it accepts, and leaves the others alone", () => {
    fc.assert(fc.property(mutatedFile, (t) => {
      ok(formatterProblem(t));
    }), { numRuns: runs(0.05) });
  });
});
