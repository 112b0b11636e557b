/**
 * `uses: Child` on a function node (the graph its function runs with `ctx.run`): resolved across files like a
 * subgraph target, an unknown name is G2xxx unknown-graph with suggestions, a child leading back is a cycle
 * (G5005), and the option is refused on subgraph nodes. Run-time rules: test/conformance/cases/lg-ported.ts
 * and test/runtime/run-child.test.ts.
 */
import { describe, expect, it } from "vitest";
import { check } from "../../compiler/check.ts";
import { memoryHost } from "../../compiler/phases/2-bind/host.ts";
import type { FunctionNode } from "../../compiler/phases/2-bind/model.ts";

const program = (main: string) =>
  check(["main.graph"], memoryHost({ "main.graph": main, "child.graph": 'import { f } from "./n.ts"\ngraph Child {\n  state { x: string = "" }\n  node a() -> { x } = f\n  START -> a -> END\n}\n', "n.ts": "" }));
const codes = (main: string) => program(main).diagnostics.map((d) => d.code);

describe("uses", () => {
  it("resolves an imported graph", () => {
    const { program: p, diagnostics } = program('import { Child } from "./child.graph"\nimport { f } from "./n.ts"\ngraph Main {\n  state { x: string = "" }\n  node p() -> { x } = f { uses: Child }\n  START -> p -> END\n}\n');
    expect(diagnostics).toEqual([]);
    const node = p!.files.get("main.graph")!.graphs.get("Main")!.nodes.get("p") as FunctionNode;
    expect(node.usesTarget?.id).toBe("child.graph#Child");
  });

  it("reports an unknown graph with a suggestion, a graph that uses itself, and `uses` on a subgraph node", () => {
    const unknown = program('import { Child } from "./child.graph"\nimport { f } from "./n.ts"\ngraph Main {\n  state { x: string = "" }\n  node p() -> { x } = f { uses: Chlid }\n  START -> p -> END\n}\n');
    expect(unknown.diagnostics.map((d) => [d.code, d.message])).toEqual([["G2010", expect.stringContaining("Chlid")]]);
    expect(unknown.diagnostics[0]!.hint).toContain("Child");
    expect(codes('import { f } from "./n.ts"\ngraph Main {\n  state { x: string = "" }\n  node p() -> { x } = f { uses: Main }\n  START -> p -> END\n}\n')).toEqual(["G5005"]);
    expect(codes('import { Child } from "./child.graph"\ngraph Main {\n  state { x: string = "" }\n  subgraph s = Child { uses: Child }\n  START -> s -> END\n}\n')).toContain("G6005");
  });
});
