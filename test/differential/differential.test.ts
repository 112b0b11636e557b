/**
 * Differential test: random graphs (reducers, fan-out/fan-in, waiting joins, routers, inline conditions,
 * Send, Command, nested subgraphs) compiled by graphc and built with @langchain/langgraph must give the same
 * final state, the same `updates` per superstep, the same `values` after each superstep and the same error
 * class. GRAPHC_DIFF_RUNS sets the number of programs (default 300), GRAPHC_DIFF_SEED the first seed
 * (default 1): a failure prints the seed, which replays the program exactly. Join targets
 * with other triggers are included (README.md, fixed divergence 1).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { compare, explain, runBatch, type BatchResult } from "./batch.ts";
import { DEFAULT_OPTIONS, generateProgram } from "./gen.ts";
import { graphText } from "./graph-text.ts";
import { rootOf } from "./model.ts";
import { buildLangGraph } from "./langgraph.ts";
import { observe, type Observation } from "./observe.ts";

const RUNS = Number(process.env["GRAPHC_DIFF_RUNS"] ?? 300);
const FIRST_SEED = Number(process.env["GRAPHC_DIFF_SEED"] ?? 1);
// a run on the built runtime (GRAPHC_TEST_DIST, test/consumer) writes its own folder: it runs beside this one
const DIR = fileURLToPath(new URL(process.env.GRAPHC_TEST_DIST === "1" ? "../_tmp-diff-dist/run" : "../_tmp-diff/run", import.meta.url));
const GENERATOR = DEFAULT_OPTIONS;

describe("differential: graphc vs @langchain/langgraph", () => {
  it("the generator is deterministic and covers every feature", () => {
    expect(graphText(generateProgram(42))).toBe(graphText(generateProgram(42)));
    const seen = new Set<string>();
    // a fixed range, so that a small GRAPHC_DIFF_RUNS does not make this check fail
    for (let s = 1; s <= 300; s++) {
      const p = generateProgram(s);
      for (const g of p.graphs) {
        for (const n of g.nodes) seen.add(`node:${n.kind}`);
        for (const b of g.branches) seen.add(`branch:${b.kind}`);
        for (const e of g.edges)
          seen.add(e.join ? "edge:join" : e.to.length > 1 ? "edge:fan-out" : "edge:plain");
        for (const f of g.fields) seen.add(`reducer:${f.reducer}`);
        if (g.output) seen.add("child output schema");
        if (g !== rootOf(p) && g.nodes.some((n) => n.kind === "subgraph")) seen.add("nested subgraph");
      }
    }
    expect([...seen].sort()).toEqual(
      [
        "branch:cond",
        "branch:route",
        "branch:send",
        "child output schema",
        "edge:fan-out",
        "edge:join",
        "edge:plain",
        "nested subgraph",
        "node:command",
        "node:fn",
        "node:subgraph",
        "reducer:append",
        "reducer:replace",
        "reducer:sum",
      ].sort(),
    );
  });

  it("compare: updates are a multiset per superstep, values and errors are exact, LangGraph may drop a failed run's tail", () => {
    const p = generateProgram(1);
    const step = (updates: string[], values: string) => ({ updates, values });
    const base: Observation = { final: "F", steps: [step(["a", "b"], "v1"), step(["c"], "v2")] };
    expect(compare(p, base, { final: "F", steps: [step(["a", "b"], "v1"), step(["c"], "v2")] })).toEqual([]);
    // another update in a superstep, another values chunk, another final state, one superstep fewer
    expect(compare(p, base, { final: "F", steps: [step(["a", "x"], "v1"), step(["c"], "v2")] })).toHaveLength(
      1,
    );
    expect(compare(p, base, { final: "F", steps: [step(["a", "b"], "v1"), step(["c"], "v3")] })).toHaveLength(
      1,
    );
    expect(compare(p, base, { final: "G", steps: base.steps })).toHaveLength(1);
    expect(compare(p, base, { final: "F", steps: base.steps.slice(0, 1) }).map((m) => m.what)).toEqual([
      "number of supersteps streamed",
    ]);
    // error classes must match; on a failed run graphc may stream more supersteps than LangGraph delivered, not fewer
    const failed = (n: number, e = "GraphRecursionError"): Observation => ({
      invokeError: e,
      streamError: e,
      steps: base.steps.slice(0, n),
    });
    expect(compare(p, failed(2), failed(1))).toEqual([]);
    expect(compare(p, failed(1), failed(2))).toHaveLength(1);
    expect(compare(p, failed(2, "InvalidUpdateError"), failed(2)).map((m) => m.what)).toEqual([
      "invoke error class",
      "stream error class",
    ]);
    // an error the generator should never cause is reported even when both sides agree
    expect(compare(p, failed(2, "TypeError"), failed(2, "TypeError"))).toHaveLength(1);
  });

  it("the comparison catches a difference (a LangGraph run against a changed program)", async () => {
    const p = generateProgram(7);
    const changed = { ...p, input: { ...p.input, tot0: 1000 } };
    const a = await observe(buildLangGraph(p), p.input as Record<string, unknown>, p.recursionLimit);
    const b = await observe(buildLangGraph(changed), changed.input, changed.recursionLimit);
    expect(a.final ?? a.invokeError).not.toEqual(b.final ?? b.invokeError);
  });

  it(`${RUNS} random programs behave identically`, { timeout: 600_000 }, async () => {
    const result: BatchResult = await runBatch({
      firstSeed: FIRST_SEED,
      count: RUNS,
      dir: DIR,
      generator: GENERATOR,
    });
    expect(result.compileErrors, "graphc rejected generated programs").toEqual([]);
    const report = result.mismatches
      .slice(0, 5)
      .map((m) => explain(m, readFileSync(join(DIR, `${m.program.id}.graph`), "utf8")))
      .join("\n\n");
    expect(result.mismatches.length, `${result.mismatches.length} mismatches; first ones:\n${report}`).toBe(
      0,
    );
    // a real batch mostly runs to the end, over several supersteps (a tiny one, e.g. one replayed seed, may not)
    if (RUNS >= 50) {
      expect(result.outcomes["ok"] ?? 0).toBeGreaterThan(RUNS / 2);
      expect(result.supersteps).toBeGreaterThan(RUNS);
      // the lean loop runs a good share of them (and each is also compared with the full loop's invoke)
      expect(result.lean).toBeGreaterThan(RUNS / 10);
    }
  });
});
