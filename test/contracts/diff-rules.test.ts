/**
 * The classification rules of compiler/contracts/diff.ts, one edit at a time, on in-memory sources (through
 * the public API: `manifestOf` and `diffManifests` from graphc).
 */
import { describe, expect, it } from "vitest";
import { diffManifests, manifestOf, memoryHost, type DiffResult } from "../../compiler/index.ts";

const BASE = `import { a, b, c, child } from "./n.ts"

graph Child {
  state { x: string }
  node c({ x }) -> { x } = c
  START -> c -> END
}

graph Other {
  state { x: string }
  node c({ x }) -> { x } = c
  START -> c -> END
}

graph G {
  meta { version: "1.4.0" }
  vars { model: string = "small", n: number = 3 }
  state {
    q:     string
    level: "low" | "high" = "low"
    res:   string | null = null
    x:     string = ""
    memo:  string = ""
  }
  input  { q, level }
  output { res }
  node a({ q }) -> { res, memo } = a
  node b({ res }) -> { res } = b
  subgraph sub = Child
  START -> a -> b -> sub -> END
}
`;

function diff(edit: (t: string) => string, base = BASE): DiffResult {
  const m = (text: string) => {
    const r = manifestOf(["g.graph"], memoryHost({ "g.graph": text }));
    expect(r.diagnostics.filter((x) => x.severity === "error")).toEqual([]);
    return r.manifest!;
  };
  return diffManifests(m(base), m(edit(base)));
}
const kinds = (r: DiffResult) => r.graphs.flatMap((g) => g.changes.map((c) => `${c.level} ${c.kind}`));

describe("diff rules", () => {
  it("input: widening is safe, narrowing and a new requirement are breaking", () => {
    expect(kinds(diff((t) => t.replace('level: "low" | "high"', 'level: "low" | "high" | "max"')))).toEqual(["safe input-field-widened"]);
    expect(kinds(diff((t) => t.replace('level: "low" | "high"', 'level: "low"')))).toEqual(["breaking input-field-narrowed"]);
    expect(kinds(diff((t) => t.replace("q:     string", "q:     number")))).toEqual(["breaking input-field-type-changed"]);
  });

  it("output: narrowing is safe, widening is breaking (callers read the new values)", () => {
    const narrowed = diff((t) => t.replace("res:   string | null = null", 'res:   string = ""'));
    expect(kinds(narrowed)).toEqual(["safe output-field-narrowed", "dangerous default-changed"]);
    expect(narrowed.fails).toBe(false);
    const widened = diff((t) => t.replace("res:   string | null", "res:   string | number | null"));
    expect(kinds(widened)).toEqual(["breaking output-field-widened"]);
    expect(widened.fails).toBe(true);
  });

  it("a state field outside the contract: type change and removal are dangerous", () => {
    expect(kinds(diff((t) => t.replace('memo:  string = ""', "memo:  number = 0")))).toEqual(["dangerous default-changed", "dangerous state-field-type-changed"]);
    expect(kinds(diff((t) => t.replace('    memo:  string = ""\n', "").replace("{ res, memo }", "{ res }")))).toEqual(["dangerous state-field-removed"]);
  });

  it("vars: a new required var is breaking, a changed default dangerous, a removed var dangerous", () => {
    expect(kinds(diff((t) => t.replace('vars { model: string = "small", n: number = 3 }', 'vars { model: string = "small", n: number = 3, key: string }')))).toEqual(["breaking var-added-required"]);
    expect(kinds(diff((t) => t.replace('model: string = "small"', 'model: string = "${MODEL:-small}"')))).toEqual(["dangerous var-default-changed"]);
    expect(kinds(diff((t) => t.replace('model: string = "small"', "model: string")))).toEqual(["breaking var-now-required"]);
    expect(kinds(diff((t) => t.replace(", n: number = 3", "")))).toEqual(["dangerous var-removed"]);
    expect(kinds(diff((t) => t.replace("n: number = 3", "n: number | string = 3")))).toEqual(["safe var-widened"]);
  });

  it("nodes and subgraphs: a removed node and a retargeted subgraph are dangerous, a new node safe", () => {
    expect(kinds(diff((t) => t.replace("subgraph sub = Child", "subgraph sub = Other")))).toEqual(["dangerous subgraph-changed"]);
    expect(kinds(diff((t) => t.replace("  node b({ res }) -> { res } = b\n", "").replace("-> b ->", "->")))).toEqual(["dangerous node-removed"]);
    expect(kinds(diff((t) => t.replace("  subgraph sub", "  node z({ q }) -> { memo } = c\n  subgraph sub").replace("START -> a", "START -> z -> a")))).toEqual(["safe node-added"]);
  });

  it("interrupts added or removed are dangerous; meta edits are safe", () => {
    expect(kinds(diff((t) => t.replace("  START -> a", "  interrupt after a\n  START -> a")))).toEqual(["dangerous interrupt-added"]);
    expect(kinds(diff((t) => t.replace('meta { version: "1.4.0" }', 'meta { version: "1.5.0", owner: "me" }')))).toEqual(["safe version-changed", "safe owner-changed"]);
  });

  it("a major bump announces breaking changes; a minor bump does not", () => {
    const narrowInput = (t: string) => t.replace("q:     string", "q:     number");
    expect(diff((t) => narrowInput(t).replace('"1.4.0"', '"2.0.0"')).fails).toBe(false);
    expect(diff((t) => narrowInput(t).replace('"1.4.0"', '"1.5.0"')).fails).toBe(true);
    expect(diff((t) => narrowInput(t).replace('    meta { version: "1.4.0" }\n', "")).fails).toBe(true);
  });
});

describe("diff rules for interfaces", () => {
  const WITH = `import { a } from "./n.ts"

interface Answers {
  input  { q: string }
  output { res: string }
}

graph G implements Answers {
  state { q: string, res: string = "" }
  input  { q }
  output { res }
  node a({ q }) -> { res } = a
  START -> a -> END
}
`;

  it("dropping an interface is breaking, adding one safe", () => {
    const dropped = diff((t) => t.replace("graph G implements Answers", "graph G"), WITH);
    expect(kinds(dropped)).toEqual(["breaking interface-dropped"]);
    expect(dropped.fails).toBe(true);
    expect(kinds(diff(() => WITH, WITH.replace("graph G implements Answers", "graph G")))).toEqual(["safe interface-added"]);
  });
});
