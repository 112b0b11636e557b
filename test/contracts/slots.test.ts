/**
 * Interfaces and slots in the manifest and in `graphc diff` (compiler/contracts/diff-slots.ts): the
 * manifest lists every interface's contract and every graph's slots with their default; an incompatible
 * interface change is breaking for each slot typed by it.
 */
import { describe, expect, it } from "vitest";
import { diffManifests, manifestOf, memoryHost, type DiffResult, type Manifest } from "../../compiler/index.ts";

const BASE = `import { a } from "./n.ts"

interface Answers {
  input  { q: string }
  output { res: string }
}

graph Impl implements Answers {
  state { q: string, res: string = "" }
  input  { q }
  output { res }
  node a({ q }) -> { res } = a
  START -> a -> END
}

graph Other implements Answers {
  state { q: string, res: string = "" }
  input  { q }
  output { res }
  node a({ q }) -> { res } = a
  START -> a -> END
}

graph Desk {
  state { q: string, res: string | null = null }
  subgraph ask: Answers = Impl
  subgraph open: Answers
  START -> ask -> open -> END
}
`;

const manifest = (text: string): Manifest => {
  const r = manifestOf(["g.graph"], memoryHost({ "g.graph": text }));
  expect(r.diagnostics.filter((x) => x.severity === "error")).toEqual([]);
  return r.manifest!;
};
const diff = (edit: (t: string) => string): DiffResult => diffManifests(manifest(BASE), manifest(edit(BASE)));
const kinds = (r: DiffResult) => r.graphs.flatMap((g) => g.changes.map((c) => `${g.name}: ${c.level} ${c.kind}`));

describe("slots in the manifest", () => {
  it("lists interfaces with their contract, and slots with their default", () => {
    const m = manifest(BASE);
    expect(m.interfaces?.map((i) => [i.name, i.file, Object.keys(i.fields)])).toEqual([["Answers", "g.graph", ["q", "res"]]]);
    expect(m.interfaces?.[0]?.output).toMatchObject({ properties: { res: { type: "string" } } });
    const desk = m.graphs.find((g) => g.name === "Desk")!;
    expect(desk.slots).toEqual([
      { node: "ask", interface: "Answers", source: "g.graph", default: { graph: "Impl", source: "g.graph" } },
      { node: "open", interface: "Answers", source: "g.graph" },
    ]);
    // the default is the graph the slot runs unless bound; an unbound slot runs none
    expect(desk.subgraphs.map((s) => [s.node, s.graph])).toEqual([["ask", "Impl"]]);
  });
});

describe("slots in graphc diff", () => {
  it("an incompatible interface change is breaking for every slot typed by it", () => {
    const widened = diff((t) => t.replace("output { res: string }", "output { res: string | null }"));
    expect(kinds(widened)).toEqual(["Desk: breaking slot-interface-changed", "Desk: breaking slot-interface-changed"]);
    expect(widened.graphs[0]!.changes[0]!.message).toBe(
      "slot `ask`: interface `Answers` changed incompatibly: output field `res` widened: `string` → `string | null`",
    );
    expect(widened.fails).toBe(true);
    // a compatible change (the interface asks for less) is not reported on the slots
    // (implementations and parent widened along, so the program still compiles)
    const relaxed = diff((t) => t.replaceAll("q: string", "q: string | null"));
    expect(kinds(relaxed).filter((k) => k.includes("slot-"))).toEqual([]);
    expect(kinds(relaxed)).toContain("Desk: safe input-field-widened");
  });

  it("retyping a slot or dropping its default is breaking, another default dangerous", () => {
    expect(kinds(diff((t) => t.replace("subgraph ask: Answers = Impl", "subgraph ask: Answers")))).toEqual([
      "Desk: breaking slot-default-removed",
    ]);
    expect(kinds(diff((t) => t.replace("subgraph ask: Answers = Impl", "subgraph ask: Answers = Other")))).toEqual([
      "Desk: dangerous subgraph-changed",
      "Desk: dangerous slot-default-changed",
    ]);
    const retyped = diff((t) => t.replace("subgraph open: Answers", "subgraph open: Answers2").replace("graph Desk", "interface Answers2 {\n  input { q: string }\n}\n\ngraph Desk"));
    expect(kinds(retyped)).toContain("Desk: breaking slot-interface-replaced");
  });
});
