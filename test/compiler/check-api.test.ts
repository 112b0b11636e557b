/** check(), the bound model, renderers and did-you-mean, through the public functions. */
import { describe, expect, it } from "vitest";
import { check, sortDiagnostics } from "../../compiler/check.ts";
import { editDistance, suggest } from "../../compiler/diagnostics/did-you-mean.ts";
import { toJson } from "../../compiler/diagnostics/json.ts";
import { d } from "../../compiler/diagnostics/messages.ts";
import { renderPretty } from "../../compiler/diagnostics/render.ts";
import { candidatePaths, memoryHost } from "../../compiler/phases/2-bind/host.ts";
import type { SubgraphNode } from "../../compiler/phases/2-bind/model.ts";
import { parseTemplate } from "../../compiler/phases/2-bind/templates.ts";

const MAIN = `import { plan, work, join, pick } from "./nodes.ts"
import { Child } from "./child.graph"

graph Main {
  vars  { model: string = "\${MODEL:-gpt}" }
  state {
    topic: string
    notes: string[] = []  reduce append
    total: number = 0  reduce sum
    done:  boolean = false
  }
  input  { topic }
  output { notes }
  private Scratch { tmp: string }

  node plan({ topic }) -> Scratch = plan { retry { attempts: 3, backoff: 500ms } timeout 2s }
  node work(Scratch) -> { notes, total } = work
  node join({ notes }) -> { done } = join
  subgraph child = Child
  START -> plan -> [work, child]
  [work, child] -> join -> route(pick) { again: plan, stop: END }
}
`;
const CHILD = `import { c } from "./nodes.ts"
graph Child {
  state { topic: string, notes: string[] = [] }
  input { topic }
  output { notes }
  node c({ topic }) -> { notes } = c
  START -> c -> END
}
`;

describe("check() and the bound model", () => {
  const host = memoryHost({ "app/main.graph": MAIN, "app/child.graph": CHILD });
  const { program, diagnostics } = check(["app/main.graph"], host);

  it("loads imported .graph files and reports nothing for a valid program", () => {
    expect(diagnostics).toEqual([]);
    expect([...program!.files.keys()]).toEqual(["app/main.graph", "app/child.graph"]);
    expect(program!.graphs.map((g) => g.id)).toEqual(["app/main.graph#Main", "app/child.graph#Child"]);
  });

  it("resolves fields, schemas, reducers and vars", () => {
    const g = program!.files.get("app/main.graph")!.graphs.get("Main")!;
    expect([...g.fields.keys()]).toEqual(["topic", "notes", "total", "done", "tmp"]);
    expect(g.fields.get("tmp")!.origin).toEqual({ kind: "private", schema: "Scratch" });
    expect(g.fields.get("notes")!.reducer).toMatchObject({ kind: "builtin", name: "append" });
    expect(g.fields.get("done")!.reducer).toEqual({ kind: "replace", explicit: false });
    expect(g.fields.get("notes")!.type).toEqual({ kind: "array", element: { kind: "string" } });
    expect(g.input).toEqual(["topic"]);
    expect(g.output).toEqual(["notes"]);
    expect(g.vars.get("model")!.template).toEqual([{ kind: "env", name: "MODEL", fallback: "gpt" }]);
  });

  it("resolves nodes: reads/writes by schema, imports and options", () => {
    const g = program!.graphs[0]!;
    const plan = g.nodes.get("plan")!;
    expect(plan.writes.map((w) => w.name)).toEqual(["tmp"]);
    expect(plan.kind === "node" && plan.impl).toMatchObject({ local: "plan", exported: "plan", module: "./nodes.ts" });
    expect(plan.options).toEqual({ retry: { maxAttempts: 3, initialIntervalMs: 500 }, timeoutMs: 2000 });
    expect(g.nodes.get("work")!.reads.map((r) => r.name)).toEqual(["tmp"]);
  });

  it("resolves a subgraph across files with same-name mappings", () => {
    const g = program!.graphs[0]!;
    const child = g.nodes.get("child") as SubgraphNode;
    expect(child.target?.id).toBe("app/child.graph#Child");
    expect(child.in.kind).toBe("shared");
    expect(child.in.kind === "shared" && child.in.items.map((i) => i.child.name)).toEqual(["topic"]);
    expect(child.writes.map((w) => w.name)).toEqual(["notes"]);
  });

  it("normalises edges: fan-out, waiting joins, branches", () => {
    const e = program!.graphs[0]!.edges;
    expect(e.static.map((s) => `${s.from.name}->${s.to.name}`)).toEqual(["START->plan", "plan->work", "plan->child"]);
    expect(e.joins.map((j) => [j.sources.map((s) => s.name), j.target.name])).toEqual([[["work", "child"], "join"]]);
    expect(e.branches).toHaveLength(1);
    const b = e.branches[0]!;
    expect(b.kind === "route" && b.cases!.map((c) => [c.key, c.targets.map((t) => t.name)])).toEqual([
      ["again", ["plan"]],
      ["stop", ["END"]],
    ]);
  });

  it("reports only syntax errors in a file that has them, and everything in the others", () => {
    const broken = "graph B {\n  state { a: string\n  node n( -> { a } = f\n}\n";
    const clean = "graph C {\n  state { a: string }\n  node n({ a }) -> { a } = f\n  START -> m -> END\n}\n";
    const r = check(["b.graph", "c.graph"], memoryHost({ "b.graph": broken, "c.graph": clean }));
    const inB = r.diagnostics.filter((x) => x.span.file === "b.graph").map((x) => x.code);
    expect(inB.length).toBeGreaterThan(0);
    expect(inB.every((c) => c.startsWith("G1"))).toBe(true);
    expect(r.diagnostics.some((x) => x.span.file === "c.graph" && x.code === "G2003")).toBe(true);
  });

  it("reports a missing entry file instead of throwing", () => {
    const r = check(["nope.graph"], memoryHost({}));
    expect(r.diagnostics.map((x) => x.code)).toEqual(["G5006"]);
  });

  it("turns an unexpected exception into one G9001 diagnostic", () => {
    const r = check(["x.graph"], {
      readFile() {
        throw new Error("disk on fire");
      },
    });
    expect(r.diagnostics).toHaveLength(1);
    expect(r.diagnostics[0]!.code).toBe("G9001");
    expect(r.diagnostics[0]!.message).toContain("disk on fire");
  });
});

describe("one precise error per mistake, all in one run", () => {
  it("reports a misspelt node, field and reducer, a mistyped mapping and an include cycle", () => {
    const main = `import { search, write } from "./nodes.ts"
import { Review } from "./review.graph"

graph Main {
  state {
    topic: string
    notes: string[] = []  reduce apend
    score: number = 0
  }
  node search({ topic }) -> { notes } = search
  node write({ notse }) -> { topic } = write
  subgraph review = Review { in { text <- score } }
  START -> search -> wirte -> review -> END
  write -> END
}
`;
    const review = `import { Main } from "./main.graph"
graph Review {
  state { text: string }
  subgraph again = Main
  START -> again -> END
}
`;
    const { diagnostics } = check(["main.graph"], memoryHost({ "main.graph": main, "review.graph": review }));
    expect(diagnostics.map((x) => `${x.code} ${x.span.file}:${x.span.start.line}`)).toEqual([
      "G2009 main.graph:7",
      "G2006 main.graph:11",
      "G5001 main.graph:12",
      "G2003 main.graph:13",
      "G5005 review.graph:4",
    ]);
    for (const x of diagnostics) expect(x.hint, x.code).toBeTruthy();
  });
});

describe("subgraph mappings in the model", () => {
  const text = `import { q, toIn } from "./n.ts"
graph Q {
  state { topic: string, max: number = 5, answer: string = "" }
  input { topic, max }
  output { answer }
  node q({ topic, max }) -> { answer } = q
  START -> q -> END
}
graph P {
  vars  { limit: number = 3 }
  state { question: string, result: string = "" }
  subgraph ask = Q { in { topic <- question, max <- limit } out { answer -> result } }
  subgraph inline = graph {
    state { result: string }
    node q({ result }) -> { result } = q
    START -> q -> END
  }
  subgraph fn = Q { in = toIn }
  START -> ask -> inline -> fn -> END
}
`;
  const { program, diagnostics } = check(["s.graph"], memoryHost({ "s.graph": text }));
  const p = program!.files.get("s.graph")!.graphs.get("P")!;

  it("keeps explicit mappings and lists only parent fields as reads", () => {
    expect(diagnostics).toEqual([]);
    const ask = p.nodes.get("ask") as SubgraphNode;
    expect(
      ask.in.kind === "block" && ask.in.items.map((i) => [i.child.name, i.parentFields.map((f) => f.name)]),
    ).toEqual([
      ["topic", ["question"]],
      ["max", []],
    ]);
    expect(ask.reads.map((r) => r.name)).toEqual(["question"]);
    expect(ask.out.kind === "block" && ask.out.items.map((o) => [o.child.name, o.parent.name])).toEqual([
      ["answer", "result"],
    ]);
    expect(ask.writes.map((w) => w.name)).toEqual(["result"]);
  });

  it("binds inline subgraphs as graphs of their own", () => {
    const inline = p.nodes.get("inline") as SubgraphNode;
    expect(inline.targetKind).toBe("inline");
    expect(inline.target?.inlineIn?.graph).toBe(p);
    expect(program!.graphs).toContain(inline.target);
  });

  it("gives a transform node the whole parent state as reads", () => {
    const fn = p.nodes.get("fn") as SubgraphNode;
    expect(fn.in.kind === "fn" && fn.in.fn?.exported).toBe("toIn");
    expect(fn.reads.map((r) => r.name)).toEqual(["question", "result"]);
  });
});

describe("node options in the model", () => {
  it("normalises shorthands, durations (ms) and flags", () => {
    const text = `import { f } from "./n.ts"
graph O {
  state { x: string, y: string = "" }
  node risky({ x }) -> { y } = f {
    retry 3
    timeout { run: 10s, idle: 0.5 }
    cache { ttl: 5m, key: (x) }
    on_error: fallback
  }
  node fallback({ x }) -> { y } = f { defer }
  START -> risky -> END
  fallback -> END
}
`;
    const { program, diagnostics } = check(["o.graph"], memoryHost({ "o.graph": text }));
    expect(diagnostics).toEqual([]);
    const g = program!.graphs[0]!;
    expect(g.nodes.get("risky")!.options).toEqual({
      retry: { maxAttempts: 3 },
      timeoutMs: 10_000,
      idleTimeoutMs: 500,
      cache: { ttlMs: 300_000, key: ["x"] },
      onError: "fallback",
    });
    expect(g.nodes.get("fallback")!.options).toEqual({ defer: true });
  });
});

describe("file search order", () => {
  it("tries the referring file's folder, then each entry folder, and only .graph files", () => {
    expect(candidatePaths("./common/review", "app/sub/a.graph", ["app/main.graph", "other/x.graph"])).toEqual([
      "app/sub/common/review.graph",
      "app/common/review.graph",
      "other/common/review.graph",
    ]);
    expect(candidatePaths("/abs/r.graph", "app/a.graph", ["app/a.graph"])).toEqual(["/abs/r.graph"]);
    expect(candidatePaths("/proc/self/environ", "a.graph", ["a.graph"])).toEqual(["/proc/self/environ.graph"]);
  });
});

describe("env placeholders", () => {
  it("parses names, fallbacks and escaped dollars", () => {
    expect(parseTemplate("a-${X}-$${Y}-${Z:-z}").parts).toEqual([
      { kind: "text", text: "a-" },
      { kind: "env", name: "X" },
      { kind: "text", text: "-${Y}-" },
      { kind: "env", name: "Z", fallback: "z" },
    ]);
    expect(parseTemplate("plain").parts).toBeUndefined();
    expect(parseTemplate("${}").errors[0]!.problem).toBe("empty variable name");
  });
});

describe("renderers", () => {
  const text = "graph G {\n  START -> serch -> END\n}\n";
  const span = {
    file: "g.graph",
    start: { offset: 21, line: 2, column: 12 },
    end: { offset: 26, line: 2, column: 17 },
  };
  const rel = { file: "g.graph", start: { offset: 0, line: 1, column: 1 }, end: { offset: 5, line: 1, column: 6 } };
  const diag = d.edgeUnknownNode(span, { name: "serch", graph: "G", suggestions: [{ name: "search" }] }, [
    { span: rel, message: "graph here" },
  ]);

  it("prints a code frame with carets, related locations and help", () => {
    expect(renderPretty([diag], { readFile: () => text })).toBe(
      [
        "error[G2003]: unknown node `serch` in edge",
        " --> g.graph:2:12",
        "  |",
        "2 |   START -> serch -> END",
        "  |            ^^^^^ not declared in graph `G`",
        " ::: g.graph:1:1",
        "  |",
        "1 | graph G {",
        "  | ----- graph here",
        "  |",
        "  = help: did you mean `search`?",
        "",
        "1 error",
        "",
      ].join("\n"),
    );
  });

  it("colours only when asked", () => {
    expect(renderPretty([diag], { readFile: () => text })).not.toContain("\u001b[");
    expect(renderPretty([diag], { color: true, readFile: () => text })).toContain("\u001b[1;31merror[G2003]");
  });

  it("still prints location and help without the source", () => {
    const out = renderPretty([diag]);
    expect(out).toContain(" --> g.graph:2:12");
    expect(out).toContain("= help: did you mean `search`?");
    expect(out).not.toContain("|");
  });

  it("emits LSP-shaped JSON with 0-based ranges", () => {
    expect(toJson([diag])).toEqual([
      {
        file: "g.graph",
        range: { start: { line: 1, character: 11 }, end: { line: 1, character: 16 } },
        severity: 1,
        code: "G2003",
        codeName: "edge-unknown-node",
        source: "graphc",
        message: "unknown node `serch` in edge",
        relatedInformation: [
          {
            location: { uri: "g.graph", range: { start: { line: 0, character: 0 }, end: { line: 0, character: 5 } } },
            message: "graph here",
          },
        ],
        data: { label: "not declared in graph `G`", hint: "did you mean `search`?" },
      },
    ]);
  });

  it("sorts by file and position and drops exact duplicates", () => {
    const later = d.edgeUnknownNode({ ...span, start: { ...span.start, offset: 40 } }, { name: "x", graph: "G" });
    expect(sortDiagnostics([later, diag, diag]).map((x) => x.span.start.offset)).toEqual([21, 40]);
  });
});

describe("did-you-mean", () => {
  it("counts a transposition as one edit", () => {
    expect(editDistance("serach", "search")).toBe(1);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("kitten", "sitting")).toBe(3);
  });

  it("suggests the closest candidate within a length-based threshold", () => {
    const c = ["search", "write", "review"].map((name) => ({ name }));
    expect(suggest("serch", c).map((x) => x.name)).toEqual(["search"]);
    expect(suggest("zzzzzz", c)).toEqual([]);
    expect(suggest("Search", c).map((x) => x.name)).toEqual(["search"]);
    expect(suggest("search", c)).toEqual([]);
  });
});
