/**
 * Bundle-size budgets (issue 9): small apps — the generated code of a `.graph` file plus the runtime —
 * bundled with esbuild --minify and compressed with gzip -9 (bench/size.ts; each bundle also runs and must
 * print what the app computes). Sizes are stable from run to run, unlike times, so they are tested here.
 *
 * `target` is the budget; `guard` is what this test holds today, the best size reached so far, where
 * it is above the target (docs/benchmarks.md, "Bundle-size budgets", gives the figures and what is missing).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { APPS, measureSizes, type SizeRow } from "../../bench/size.ts";

const BUDGETS: Readonly<Record<string, { target: number; guard: number }>> = {
  // raised by ~0.5 KB for the speed work of issue 9 (append fast path, task-less start step, join barriers
  // by node index, the messages id-map cache): docs/benchmarks.md, "Full-loop speed"
  "two-node app (invoke)": { target: 4096, guard: 15_800 },
  "with stream()": { target: 6144, guard: 15_850 },
  "with a checkpointer + interrupts": { target: 10_240, guard: 28_300 },
};

describe("bundle-size budgets (esbuild --minify, gzip -9)", () => {
  let rows: SizeRow[] = [];
  beforeAll(async () => {
    rows = await measureSizes();
  }, 60_000);

  it("measures every budgeted app, and each bundle runs", () => {
    expect(rows.map((r) => r.app)).toEqual(APPS.map((a) => a.name));
    expect(Object.keys(BUDGETS)).toEqual(APPS.map((a) => a.name));
  });

  for (const app of APPS) {
    const { target, guard } = BUDGETS[app.name]!;
    it(`${app.name}: at most ${Math.max(target, guard)} B gzip (target ${target} B)`, () => {
      const row = rows.find((r) => r.app === app.name)!;
      const top = row.top.map(([f, b]) => `${f} ${b}`).join(", ");
      expect(row.gzip, `${app.name}: ${row.gzip} B gzip, ${row.minified} B minified; largest parts: ${top}`).toBeLessThanOrEqual(
        Math.max(target, guard),
      );
    });
  }
});
