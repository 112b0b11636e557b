/**
 * Subgraph nodes' `goto [..]` (where a child's Command.PARENT may route: reachability, unknown targets,
 * duplicates) and the `stateful` option (subgraph nodes only, a boolean), through check().
 */
import { describe, expect, it } from "vitest";
import { check } from "../../compiler/check.ts";
import { memoryHost } from "../../compiler/phases/2-bind/host.ts";
import type { SubgraphNode } from "../../compiler/phases/2-bind/model.ts";

function program(subgraph: string, extra = "") {
  const src = `import { ask, human } from "./nodes.ts"
graph Desk {
  state { question: string }
  ${subgraph}
  node human({ question }) -> { question } = human ${extra}
  START -> triage -> END
  human -> END
}
graph Triage {
  state { question: string }
  node ask({ question }) goto [] = ask
  START -> ask -> END
}
`;
  const r = check(["main.graph"], memoryHost({ "main.graph": src }));
  return { ...r, codes: r.diagnostics.map((x) => `${x.code} ${x.span.start.line}:${x.span.start.column}`) };
}

describe("subgraph goto", () => {
  it("makes a node reached only by a child's Command.PARENT reachable, and binds the targets", () => {
    const r = program("subgraph triage = Triage goto [human, END]");
    expect(r.codes).toEqual([]);
    const node = r.program!.graphs.find((g) => g.name === "Desk")!.nodes.get("triage") as SubgraphNode;
    expect(node.goto?.map((t) => t.name)).toEqual(["human", "END"]);
  });

  it("without it the node is unreachable (G4004), as in LangGraph without `ends`", () => {
    expect(program("subgraph triage = Triage").codes).toEqual(["G4004 5:8"]);
  });

  it("reports unknown targets, START and duplicates like a node's goto list", () => {
    expect(program("subgraph triage = Triage goto [humn, START, human, human]").codes).toEqual([
      "G2017 4:34",
      "G4013 4:40",
      "G2004 4:54",
    ]);
  });

  it("follows an inline graph too", () => {
    const inline = program(`subgraph triage = graph {
    state { question: string }
    node ask({ question }) goto [] = ask
    START -> ask -> END
  } goto [human]`);
    expect(inline.codes).toEqual([]);
  });
});

describe("stateful", () => {
  it("is accepted on a subgraph node as a flag or a boolean", () => {
    for (const s of ["{ stateful }", "{ stateful: true }", "{ stateful: false }"]) {
      const r = program(`subgraph triage = Triage goto [human] ${s}`);
      expect(r.codes, s).toEqual([]);
      const node = r.program!.graphs.find((g) => g.name === "Desk")!.nodes.get("triage")!;
      expect(node.options.stateful, s).toBe(s !== "{ stateful: false }");
    }
  });

  it("is G6010 on a function node, G6006 with a non-boolean value, G6007 twice", () => {
    expect(program("subgraph triage = Triage goto [human]", "{ stateful }").codes).toEqual(["G6010 5:54"]);
    expect(program("subgraph triage = Triage goto [human] { stateful: 3 }").codes).toEqual(["G6006 4:53"]);
    expect(program("subgraph triage = Triage goto [human] { stateful, stateful }").codes).toEqual(["G6007 4:53"]);
  });
});
