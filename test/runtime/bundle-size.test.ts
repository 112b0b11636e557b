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
  // the full runtime ("@graphc/runtime"): since the lean loop (2026-12-02) generated code of a lean-eligible
  // graph also holds it (its invoke runs on it), about 1.9 KB more; the speed work and SaverNow ~0.5 KB;
  // 17,589 / 17,621 / 30,164 B before the tiny branch (2026-12-02 05:45: 17,498 / 17,525 / 30,123 B); the
  // lean loop's bare single update (applyOne, W1 ×0.73–0.78) and owned lists (the bench app's `append` log is
  // lent: W4 flat) took them to 17,826 / 17,854 / 30,233 B (merged tree, 06:14); tiny2 (08:10): 17,801 /
  // 17,831 / 30,206 B (constructor-set fields declared only, lean graphs without routers' router code apart)
  // speed4 (09:10, merged with tiny2): 17,884 / 17,916 / 30,271 B — the full loop's bare lone update, one-task
  // arrays and graph-sized channel lists (W3 ×0.82–0.90, W2 ×0.89–0.99 in A/B)
  // tiny3 (10:40): 17,806 / 17,840 / 30,170 B — the app's graphs are StaticGraphs (their invoke runs the
  // static loop, without the lean loop's Command, Send and candidate code)
  // tiny4 (11:58, tiny3 merged on main at 40d87d8, which measures 17,851 / 17,883 / 30,253 B): 18,138 /
  // 18,164 / 30,479 B — "@graphc/runtime" installs the lean loop's code for a static graph's Commands
  // (LeanGraph.leanWrites: the LeanGraph and LeanLoop classes come along)
  // tiny5 (14:00): 17,659 / 17,688 / 30,062 B — a static graph's Command goes to writes.ts takeReturn and
  // static/commands.ts commandStep, installed with Command input (no lean loop classes); both loops share
  // their step plumbing (step-signal.ts, superstep.ts), both compiled graphs withConfig (graph-base.ts)
  // tiny6 (16:10): 16,113 / 16,136 / 30,025 B — a task's id without a checkpointer is random (no ids.ts
  // hash: −411 B), and generated code of lean-eligible graphs imports "@graphc/runtime/core" and installs
  // streaming and Command input itself, without node policies (policy.ts: −1,126 B on the first two);
  // `isCommand` by its tag alone: 16,108 / 16,131 / 30,020 B
  // small streams (2026-12-03): 16,378 / 16,389 / 30,300 B — a lean graph streams on its small loop (the full
  // loop's stream events, pushed by the small loops too), which the default build still carries beside the
  // full loop its Command input installs
  // small runs (2026-12-03): 9,885 / 9,926 / 30,460 B — a lean graph runs a Command as input (small-command.ts)
  // and maxConcurrency on its small loop, so the default build installs no full graph (a saver or a tracer
  // brings it: the checkpointer app carries both loops)
  // w6 ids (2026-12-03): 9,885 / 9,926 / 30,433 B — ids written as character codes (no hex table), MemoryStore
  // flattens texts by reading a character, the loop metadata's keys checked by for…in
  // open texts (2026-12-03): 9,885 / 9,926 / 30,479 B — an appended list's text is extended as the
  // concatenation it was built as instead of sliced (copied) whole at every step (delta.ts ChannelHead.open):
  // a checkpoint of a list of N elements costs O(1) characters instead of O(N); writes by task (the same
  // day): 30,557 B — MemoryStore keeps a fan-out's pending writes in one list per task (O(T) for T tasks'
  // writes against one checkpoint, where one scanned list cost O(T²)), `Object.hasOwn` for the package bytes
  // field order (2026-12-03, night): 9,962 / 9,991 / 30,561 B — a stream's `values` chunks and getState() list
  // the fields in declaration order, as LangGraph's (runtime/field-order.ts, +51 B where streaming is
  // installed), and the runtime's repeated object tests and own-key writes shared (objects.ts: −405 B of
  // package, which paid for the order; +26 B here, where the inline copies were the only ones)
  // policies with a policy (2026-12-04): 9,964 / 9,992 / 29,490 B — "@graphc/runtime" installs no node
  // policies (the generated module of a graph with them calls installPolicies()), so the checkpointer app,
  // which imports MemorySaver and Command from it, no longer bundles policy.ts (−1,071 B)
  // a Command brings Command input (2026-12-04): 8,890 / 8,919 / 29,502 B — constructing a `Command` installs
  // what runs one (runtime/command-class.ts), so generated code of lean-eligible graphs installs streaming
  // only: an app that never makes a Command bundles no small-command.ts, static/commands.ts nor the writes
  // code a returned Command needs (−1,074 B); +12 B where a Command is made (the install call)
  "two-node app (invoke)": { target: 4096, guard: 8_895 },
  "with stream()": { target: 6144, guard: 8_920 },
  "with a checkpointer + interrupts": { target: 10_240, guard: 29_505 },
  // the lean runtime (`graphc build --runtime lean`, "@graphc/runtime/core"); 8,350 B before LeanGraph and
  // CompiledGraph shared GraphBase and the two loops superstep.ts (pkgsize2: -2.5 KB of package, +126 B here)
  // 8,529 B before the tiny branch; 8,108 B after it (2026-12-02 05:45): no ParentCommand, input-Command
  // check nor join tables in a lean bundle, errors' fields declared, checkUpdate shared with a node's check
  // applyOne +116 B and the owned list's loan +290 B took it to 8,522 B (merged tree, 06:14); tiny2 (08:10):
  // 8,196 B — a graph without routers is `new LeanGraph(spec)`, which bundles no router code (-246 B), and
  // the lean classes' constructor-set fields are declared only
  // speed4 (09:10): 8,272 B — the methods-only task base the lean task shares with the full loop's
  // tiny3 (10:40): 7,524 B — a graph of static edges whose nodes declare no goto is a StaticGraph, run by
  // the static loop (runtime/static/): no Command, Send, router or candidate-mark code (−759 B)
  // tiny4 (11:58, on main at 40d87d8, which measures 8,276 B): 7,550 B (the static loop's chain step reuses
  // its array: +22 B, W1 ×0.75 in A/B); tiny5 (14:00): 7,556 B (StaticGraph's `runs`, LeanGraph beside it,
  // withConfig in GraphBase, the loops' shared step plumbing); tiny6 (16:10): 7,070 B (a lean task's id is
  // random: no ids.ts, −453 B; no `toParent` in the small loops, −31 B); 6,980 B with `isCommand` by its tag
  // alone (no `Command` class in a bundle that never makes one, −90 B); small streams (2026-12-03): 7,184 B (the
  // small loops' sink: events at a step's start and end and a task's, no early apply or loan while streaming)
  // small runs (2026-12-03): 7,354 B (maxConcurrency and the Command-input hook in the small loops)
  // a Command brings Command input (2026-12-04): 7,344 B (the static loop names `PARENT` without the class)
  "two-node app (invoke, lean runtime)": { target: 4096, guard: 7_350 },
  // (+30 B on 2026-12-02 04:20: the lean invoke reads a config without defaults as it is, W5 ×0.95);
  // 15,465 B before the tiny branch, 15,340 B after it, 15,701 B with applyOne and owned lists, 15,710 B
  // after tiny2 (the full loop's router code beside the lean loop's split)
  // speed4 (09:10): 15,817 B; tiny3 (10:40): 15,812 B; tiny4 (11:58): 15,698 B; tiny5 (14:00): 15,586 B;
  // tiny6 (16:10): 15,126 B (random task ids without a checkpointer, in both loops); 15,119 B (isCommand);
  // small streams (2026-12-03): 8,701 B — the stream runs on the static loop, "@graphc/runtime/streaming"
  // installs no full graph (−6.4 KB)
  // small runs (2026-12-03): 8,860 B
  // field order (2026-12-03, night): 8,916 B (the `values` chunks in declaration order)
  "with stream() (lean runtime + @graphc/runtime/streaming)": { target: 6144, guard: 8_920 },
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
