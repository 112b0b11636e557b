/** `graphc graph`: Mermaid in LangGraph's dialect and DOT, drawn from the IR; run in-process. */
import { afterAll, describe, expect, it } from "vitest";
import { BROKEN_GRAPH, HELLO_GRAPH, HELLO_NODES, project, run } from "./harness.ts";

const ROUTED = `import { a, b, pick, fan } from "./n.ts"

graph Inner {
  state { x: string }
  node a({ x }) -> { x } = a
  START -> a -> END
}

graph Routed {
  state {
    x: string
    n: number = 0  reduce sum
  }
  node a({ x }) -> { n } = a
  node b({ n }) -> { x } = b
  subgraph inner = Inner

  START -> a -> {
    n > 2 => b
    _     => inner
  }
  b -> route(pick) { again: a, done: END }
  inner -> END
}
`;

const BRANCHY = `import { a, b, fan, pick } from "./n.ts"

graph Two {
  state { x: string }
  node p({ x }) -> { x } = a
  node q({ x }) -> { x } = a
  START -> [p, q]
  [p, q] -> END
}

graph More {
  state { x: string }
  node a({ x }) -> { x } goto [b, END] = a
  node b({ x }) -> { x } = b
  subgraph two = Two
  START -> a
  a -> send(fan)
  b -> route(pick)
  [a, b] -> two
  two -> END
}
`;

const p = project({
  "branchy.graph": BRANCHY,
  "hello.graph": HELLO_GRAPH,
  "hello.nodes.ts": HELLO_NODES,
  "routed.graph": ROUTED,
  "broken.graph": BROKEN_GRAPH,
});
afterAll(() => p.remove());

describe("graphc graph", () => {
  it("draws Mermaid in LangGraph's draw_mermaid dialect", async () => {
    const r = await run(p.dir, ["graph", "hello.graph"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        "%%{init: {'flowchart': {'curve': 'linear'}}}%%",
        "graph TD;",
        "\t__start__([<p>__start__</p>]):::first",
        "\tgreet(greet)",
        "\t__end__([<p>__end__</p>]):::last",
        "\t__start__ --> greet;",
        "\tgreet --> __end__;",
        "\tclassDef default fill:#f2f0ff,line-height:1.2;",
        "\tclassDef first fill-opacity:0;",
        "\tclassDef last fill:#bfb6fc;",
        "",
      ].join("\n"),
    );
  });

  it("draws conditional edges dotted with labels, and a subgraph as a nested block", async () => {
    const r = await run(p.dir, ["graph", "routed.graph", "--graph", "Routed"]);
    expect(r.code).toBe(0);
    const lines = r.stdout.split("\n");
    // characters that would end a Mermaid label are entity codes
    expect(lines).toContain("\ta -. &nbsp;n #62; 2&nbsp; .-> b;");
    expect(lines).toContain("\ta -. &nbsp;_&nbsp; .-> inner_a;");
    expect(lines).toContain("\tb -. &nbsp;again&nbsp; .-> a;");
    expect(lines).toContain("\tb -. &nbsp;done&nbsp; .-> __end__;");
    expect(lines).toContain("\tinner_a --> __end__;");
    expect(lines).toContain("\tinner_a(a)");
    expect(lines).not.toContain("\tinner(inner)");
  });

  it("draws send, case-less routers and goto as dotted edges to every possible target", async () => {
    const r = await run(p.dir, ["graph", "branchy.graph", "--graph", "More"]);
    expect(r.code).toBe(0);
    const edges = r.stdout.split("\n").filter((l) => l.includes("->"));
    // send(fan) may reach any node; goto adds END
    for (const t of ["a", "b", "two___start__", "__end__"]) expect(edges).toContain(`\ta -.-> ${t};`);
    // a router without cases may return any node or END
    for (const t of ["a", "b", "two___start__", "__end__"]) expect(edges).toContain(`\tb -.-> ${t};`);
    // the waiting edge [a, b] -> two is solid from both sources
    expect(edges).toContain("\ta --> two___start__;");
    expect(edges).toContain("\tb --> two___start__;");
  });

  it("keeps a subgraph's own start and end nodes when it has several entry or exit nodes", async () => {
    const r = await run(p.dir, ["graph", "branchy.graph", "--graph", "More"]);
    const lines = r.stdout.split("\n");
    expect(lines).toContain("\ttwo___start__(<p>__start__</p>)");
    expect(lines).toContain("\ttwo___end__(<p>__end__</p>)");
    const block = r.stdout.slice(r.stdout.indexOf("\tsubgraph two\n"), r.stdout.indexOf("\tend\n"));
    expect(block.split("\n").slice(1, -1)).toEqual([
      "\ttwo___start__ --> two_p;",
      "\ttwo___start__ --> two_q;",
      "\ttwo_p --> two___end__;",
      "\ttwo_q --> two___end__;",
    ]);
    expect(lines).toContain("\ttwo___end__ --> __end__;");
  });

  it("draws DOT with dashed conditional edges and a cluster per subgraph", async () => {
    const r = await run(p.dir, ["graph", "routed.graph", "--graph", "Routed", "--dot"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^digraph "Routed" \{\n/);
    expect(r.stdout).toContain('\t"a" -> "b" [style=dashed, label="n > 2"];');
    expect(r.stdout).toContain('\tsubgraph "cluster_inner" {\n\t\tlabel="inner = Inner";\n\t\tstyle="rounded,dashed"; color="#9a8cf5";\n\t\t"inner:a" [label="a"];\n\t}');
    expect(r.stdout).toContain('\t"__start__" -> "a";');
  });

  it("draws DOT joins through a join bar, and labels send, case-less route and goto edges", async () => {
    const r = await run(p.dir, ["graph", "branchy.graph", "--graph", "More", "--dot"]);
    expect(r.code).toBe(0);
    const lines = r.stdout.split("\n");
    // [a, b] -> two: both sources end at one bar, one edge leaves it (into the subgraph's own start)
    expect(lines).toContain('\t"a" -> "__join0" [arrowhead=none];');
    expect(lines).toContain('\t"b" -> "__join0" [arrowhead=none];');
    expect(lines).toContain('\t"__join0" -> "two:__start__";');
    // no solid edge from a or b straight into the subgraph any more
    expect(lines.filter((l) => l.includes('-> "two:__start__"') && !l.includes("dashed"))).toEqual(['\t"__join0" -> "two:__start__";']);
    expect(lines.some((l) => l.startsWith('\t"__join0" [label="", shape=box') && l.includes('tooltip="waits for a, b"'))).toBe(true);
    // the join inside the subgraph Two ([p, q] -> END) sits in its cluster
    const cluster = r.stdout.slice(r.stdout.indexOf('subgraph "cluster_two"'), r.stdout.indexOf("\t}\n"));
    expect(cluster).toContain('"two:__join0" [label=""');
    expect(lines).toContain('\t"a" -> "b" [style=dashed, label="send(fan)", color="#7c3aed", fontcolor="#7c3aed"];');
    expect(lines).toContain('\t"b" -> "a" [style=dashed, label="route(pick)"];');
    expect(lines).toContain('\t"a" -> "__end__" [style=dashed, label="goto"];');
  });

  it("renders an SVG picture offline: every node, dashed labelled conditions, the join bar", async () => {
    const r = await run(p.dir, ["graph", "routed.graph", "--graph", "Routed", "--svg"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^<\?xml[^]*<svg [^]*<\/svg>\n?$/);
    for (const id of ["__start__", "a", "b", "inner:a", "__end__"]) expect(r.stdout).toContain(`<title>${id}</title>`);
    expect(r.stdout).toContain("<title>cluster_inner</title>");
    // the inline condition's label, escaped for XML, on a dashed edge
    const edge = r.stdout.slice(r.stdout.indexOf("<title>a&#45;&gt;b</title>"));
    expect(edge.slice(0, edge.indexOf("</g>"))).toMatch(/stroke-dasharray="5,2"[^]*>n &gt; 2</);
    const joined = await run(p.dir, ["graph", "branchy.graph", "--graph", "More", "--svg"]);
    expect(joined.stdout).toContain("<title>__join0</title>");
    expect(joined.stdout).toContain("waits for a, b");
    expect(joined.stdout).toContain(">send(fan)<");
  });

  it("exits 2 when the graph to draw is ambiguous, unknown, or both formats are asked for", async () => {
    const several = await run(p.dir, ["graph", "routed.graph"]);
    expect(several.code).toBe(2);
    expect(several.stderr).toContain("declares `Inner`, `Routed`; choose one with --graph NAME");
    const unknown = await run(p.dir, ["graph", "routed.graph", "--graph", "Nope"]);
    expect(unknown).toMatchObject({ code: 2 });
    expect(unknown.stderr).toContain("has no graph `Nope`");
    expect((await run(p.dir, ["graph", "hello.graph", "--mermaid", "--dot"])).code).toBe(2);
    const twoFormats = await run(p.dir, ["graph", "hello.graph", "--dot", "--svg"]);
    expect(twoFormats.code).toBe(2);
    expect(twoFormats.stderr).toContain("choose one of --mermaid, --dot and --svg");
  });

  it("exits 1 with diagnostics and no drawing when the file has errors", async () => {
    const r = await run(p.dir, ["graph", "broken.graph"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/error\[G\d{4}\]/);
  });
});
