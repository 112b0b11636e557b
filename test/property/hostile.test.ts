/**
 * Hostile programs (gen-hostile.ts): nesting and chains on both sides of every limit, huge unions, many
 * diagnostics, odd unicode. check() and format() never throw and never report an internal error (G9xxx),
 * every span is valid, and exactly the programs beyond a limit get that limit's code (docs/language.md,
 * "Limits"). Case count: runs.ts (GRAPHC_PROPERTY_RUNS).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { check } from "../../compiler/check.ts";
import { format } from "../../compiler/format/index.ts";
import { memoryHost } from "../../compiler/phases/2-bind/host.ts";
import { hostileProgram, LIMIT_CODES, type Hostile } from "./gen-hostile.ts";
import { runs } from "./runs.ts";
import { invalidSpan } from "./spans.ts";

const FILE = "main.graph";

/** a description of what is wrong, or undefined */
function problem(h: Hostile): string | undefined {
  const files = { [FILE]: h.text };
  let codes: string[];
  try {
    const { diagnostics } = check([FILE], memoryHost({ ...files, "f.ts": "" }));
    const internal = diagnostics.find((d) => d.code.startsWith("G9"));
    if (internal) return `internal error ${internal.code}: ${internal.message.slice(0, 200)}`;
    const spans = invalidSpan(diagnostics, files);
    if (spans) return `span: ${spans}`;
    codes = diagnostics.map((d) => d.code);
  } catch (e) {
    return `check threw ${String(e).slice(0, 200)}`;
  }
  const limits = codes.filter((c) => LIMIT_CODES.includes(c));
  if (h.code !== undefined && !limits.includes(h.code)) return `expected ${h.code}, got [${[...new Set(codes)].join(", ")}]`;
  if (h.code === undefined && limits.length > 0) return `unexpected limit code ${limits[0]}`;
  if (h.many && codes.filter((c) => c === h.many!.code).length < h.many.count) return `fewer than ${h.many.count} ${h.many.code}`;
  try {
    const f = format(h.text, FILE);
    if (f.diagnostics.some((d) => d.code.startsWith("G9"))) return "format: internal error";
    if (h.code?.startsWith("G1") && !f.diagnostics.some((d) => d.code === h.code)) return `format did not refuse with ${h.code}`;
  } catch (e) {
    return `format threw ${String(e).slice(0, 200)}`;
  }
  return undefined;
}

describe("hostile programs", () => {
  it("never throw, never G9xxx, valid spans, the limit code exactly beyond each limit", () => {
    fc.assert(
      fc.property(hostileProgram, (h) => {
        expect(problem(h), h.what).toBeUndefined();
      }),
      { numRuns: runs(0.004) },
    );
  });
});
