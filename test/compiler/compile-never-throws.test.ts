/**
 * `compile()` never throws, as `check()` does not: `graphc check` now runs lowering, emission and the
 * TypeScript pass too, so an exception there must become a diagnostic (G9001), not a crashed CLI.
 */
import { describe, expect, it, vi } from "vitest";
import { compile, memoryHost } from "../../compiler/index.ts";

// an emitter bug, simulated
vi.mock("../../compiler/phases/5-emit/index.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../compiler/phases/5-emit/index.ts")>()),
  emitFile: () => Promise.reject(new RangeError("Maximum call stack size exceeded")),
}));

const GRAPH = `graph G {
  state { a: string }
  START -> END
}
`;

describe("compile on an exception after checking", () => {
  it("returns a G9001 at the entry file and no files", async () => {
    const r = await compile(["g.graph"], { host: memoryHost({ "g.graph": GRAPH }), typecheck: false });
    expect(r.files).toEqual([]);
    expect(r.diagnostics.map((x) => [x.code, x.span.file])).toEqual([["G9001", "g.graph"]]);
    expect(r.diagnostics[0]!.message).toContain("Maximum call stack size exceeded");
  });
});
