/**
 * The graph IR (phases/4-lower) that every emitter reads: fields with reducers and initial values, node
 * read/write sets and triggers, join barriers, branch tables with inline conditions as expression trees,
 * subgraph mappings, options, vars, limits, interrupts. Plain data: it survives a JSON round trip.
 */
import { describe, expect, it } from "vitest";
import { check } from "../../compiler/check.ts";
import { lower, type GraphIR, type ProgramIR } from "../../compiler/index.ts";

function lowerFiles(files: string[]): ProgramIR {
  const checked = check(files);
  expect(checked.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  const lowered = lower(checked.program!);
  expect(lowered.diagnostics).toEqual([]);
  return lowered.value;
}

const graph = (ir: ProgramIR, name: string): GraphIR => ir.files.flatMap((f) => f.graphs).find((g) => g.name === name)!;

describe("lower", () => {
  const ir = lowerFiles([
    "test/fixtures/emit/reducers.graph",
    "test/fixtures/emit/branches.graph",
    "test/fixtures/emit/subgraphs.graph",
    "test/fixtures/emit/parent-command.graph",
  ]);

  it("is plain JSON data", () => {
    expect(JSON.parse(JSON.stringify(ir))).toEqual(ir);
  });

  it("gives each field its reducer, initial value (built-in empty values included) and flags", () => {
    const g = graph(ir, "Reducers");
    const f = (n: string) => g.fields.find((x) => x.name === n)!;
    expect(f("log").reducer).toEqual({ kind: "builtin", name: "append" });
    expect(f("total")).toMatchObject({ reducer: { kind: "builtin", name: "sum" }, init: { k: "lit", value: 0 }, alwaysSet: true });
    expect(f("messages").init).toEqual({ k: "array", items: [] });
    expect(f("best").reducer).toMatchObject({ kind: "custom", fn: { local: "keepLonger", sync: false } });
    expect(f("topic")).toMatchObject({ reducer: { kind: "replace" }, init: undefined, check: { k: "typeof", type: "string" } });
    expect(f("scratch")).toMatchObject({ ephemeral: true, alwaysSet: false });
    expect(f("summary").origin).toBe("private");
    expect(g.input).toEqual(["topic"]);
    expect(g.recursionLimit).toBe(10);
    expect(g.vars.find((v) => v.name === "greeting")!.default).toEqual({
      kind: "template",
      parts: [{ kind: "env", name: "GRAPHC_FIXTURE_GREETING", fallback: "hello" }],
    });
    expect(graph(ir, "Paused").interruptBefore).toEqual(["count"]);
  });

  it("records reads, writes, joins and options per node", () => {
    const g = graph(ir, "Branches");
    const joined = g.nodes.find((n) => n.name === "joined")!;
    expect(g.joins).toEqual([expect.objectContaining({ sources: ["left", "right"], target: "joined" })]);
    expect(joined.joins).toEqual([]);
    expect(g.nodes.find((n) => n.name === "left")!.joins).toEqual([0]);
    const review = g.nodes.find((n) => n.name === "review")!;
    expect(review).toMatchObject({ reads: ["results", "rounds"], writes: ["rounds"], goto: ["classify", "END"], options: { defer: true } });
    expect(g.nodes.find((n) => n.name === "dispatch")!.options).toEqual({
      retry: { maxAttempts: 3, initialIntervalMs: 10, backoffFactor: 2, maxIntervalMs: 1000, jitter: false },
      timeoutMs: 5000,
    });
    expect(g.nodes.find((n) => n.name === "classify")!.options.cache).toEqual({ ttlMs: 300_000, key: ["intent"] });
    expect(g.start.static.map((s) => s.to)).toEqual(["classify"]);
  });

  it("compiles inline conditions to an expression tree and keeps router cases as a table", () => {
    const g = graph(ir, "Branches");
    const [cond] = g.nodes.find((n) => n.name === "classify")!.branches;
    expect(cond?.kind).toBe("conditions");
    if (cond?.kind !== "conditions") return;
    expect(cond.cases.map((c) => c.targets)).toEqual([["left", "right"], ["dispatch"], ["END"], ["review"]]);
    expect(cond.cases[1]!.cond).toEqual({
      k: "binary",
      op: "&&",
      left: { k: "in", value: { k: "field", name: "intent" }, list: { k: "array", items: [{ k: "lit", value: "send" }, { k: "lit", value: "map" }] } },
      right: { k: "binary", op: "==", left: { k: "index", object: { k: "field", name: "items" }, index: { k: "lit", value: -1 } }, right: { k: "lit", value: 3 } },
    });
    expect(cond.cases[3]!.cond).toBeUndefined();
    const route = g.nodes.find((n) => n.name === "review")!.branches[0]!;
    expect(route).toMatchObject({ kind: "route", fn: { local: "again" }, cases: [{ key: "more", targets: ["classify"] }, { key: "all done", targets: ["END"] }] });
    expect(g.nodes.find((n) => n.name === "dispatch")!.branches[0]).toMatchObject({ kind: "send", fn: { local: "fanOut" } });
  });

  it("lowers subgraph mappings: shared names, renames with expressions, transforms, inline and file targets", () => {
    const g = graph(ir, "Subgraphs");
    const node = (n: string) => g.nodes.find((x) => x.name === n)!;
    expect(node("shared")).toMatchObject({
      kind: "subgraph",
      child: { name: "Child" },
      in: { kind: "fields", items: [{ child: "text", expr: { k: "field", name: "text" } }] },
      out: { kind: "fields", items: [{ child: "loud", parent: "loud" }, { child: "count", parent: "count" }] },
    });
    expect(node("renamed")).toMatchObject({
      in: { kind: "fields", items: [{ child: "text" }, { child: "tail", expr: { k: "index", index: { k: "lit", value: -1 } } }] },
      out: { kind: "fields", items: [{ child: "loud", parent: "shouted" }, { child: "count", parent: "count" }] },
    });
    expect(node("transformed")).toMatchObject({ in: { kind: "fn", fn: { local: "toChild" } }, out: { kind: "fn", fn: { local: "fromChild" } } });
    expect(node("inline_copy")).toMatchObject({ child: { name: "Subgraphs$inline_copy" } });
    const file = ir.files.find((f) => f.file.endsWith("subgraphs.graph"))!;
    // the inline graph comes before the graph that uses it
    expect(file.graphs.map((x) => x.name)).toEqual(["Subgraphs$inline_copy", "Subgraphs"]);
    expect(file.graphs[0]).toMatchObject({ inline: true, inlineNode: "inline_copy" });
    expect(node("by_file")).toMatchObject({ child: { name: "Child", file: "test/fixtures/emit/child.graph" } });
    // no `goto` and not stateful: both absent
    expect(node("shared").goto).toBeUndefined();
    expect("stateful" in node("shared")).toBe(false);
  });

  it("lowers a subgraph node's goto targets and the stateful flag", () => {
    const desk = graph(ir, "Desk").nodes.find((x) => x.name === "triage")!;
    expect(desk).toMatchObject({ kind: "subgraph", goto: ["human", "END"] });
    const notes = graph(ir, "Notes").nodes;
    expect(notes.map((x) => [x.name, x.kind === "subgraph" && x.stateful === true])).toEqual([
      ["kept", true],
      ["again", false],
    ]);
  });
});
