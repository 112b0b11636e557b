/**
 * `graphc import chatdev`: the ChatDev 2.0 versions of the demos in samples/chatdev/yaml are imported,
 * compiled, type-checked and run with scripted agents, and each runs the same nodes, in the same
 * supersteps, as its hand-written typed version (samples/chatdev/*.graph) — subgraphs, parallel starts,
 * fan-in, a ReAct loop inside a QA loop, a loop counter. Then the problems: include cycles, unknown nodes,
 * paths outside the project, var cycles, features with no counterpart.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { project, run } from "../cli/harness.ts";
import { tempDir } from "../temp-dir.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const YAML = join(ROOT, "samples/chatdev/yaml");
const tmp = tempDir("chatdev-import");
const out = join(tmp.dir, "out");
const samples = join(tmp.dir, "samples");

interface Streamable {
  stream(input: unknown, config: object): AsyncIterable<[string[], { type: string; step: number; payload: { name: string } }]>;
  invoke(input: unknown): Promise<Record<string, unknown>>;
}

/** `ns/node@step` per finished task, tasks of one namespace and step sorted by name (they run in parallel). */
async function trace(graph: Streamable, input: unknown, rename: (name: string) => string = (n) => n): Promise<string[]> {
  const seen: { key: string; name: string }[] = [];
  for await (const [ns, chunk] of graph.stream(input, { streamMode: "debug", subgraphs: true })) {
    if (chunk.type !== "task_result") continue;
    const path = [...ns.map((s) => rename(s.split(":")[0]!)), rename(chunk.payload.name)].join("/");
    seen.push({ key: `${ns.join("|")}@${chunk.step}`, name: `${path}@${chunk.step}` });
  }
  const groups: string[][] = [];
  seen.forEach((s, i) => (i > 0 && seen[i - 1]!.key === s.key ? groups.at(-1)!.push(s.name) : groups.push([s.name])));
  return groups.flatMap((g) => g.sort());
}

const load = async (dir: string, file: string, name: string): Promise<Streamable> =>
  (await import(pathToFileURL(join(dir, file)).href))[name] as Streamable;

beforeAll(async () => {
  for (const demo of ["demo_loop_counter", "demo_sub_graph_path", "demo_sub_graph", "react"]) {
    const r = await run(ROOT, ["import", "chatdev", join(YAML, `${demo}.yaml`), "--out", out]);
    expect(r.code, r.stderr).toBe(0);
  }
  const graphs = readdirSync(out).filter((f) => f.endsWith(".graph")).map((f) => join(out, f));
  const built = await run(ROOT, ["build", ...graphs, "--no-typecheck"]);
  expect(built.code, built.stderr).toBe(0);
  // the hand-written versions, built into the temp folder (the samples' own build is another test's)
  const typed = ["sub_graph_path", "article_discuss", "sub_graph_inline", "react", "react_agent", "loop_counter"];
  const sb = await run(ROOT, ["build", ...typed.map((t) => `samples/chatdev/${t}.graph`), "--out", samples, "--no-typecheck"]);
  expect(sb.code, sb.stderr).toBe(0);
  // scripted agents: each answers from its node id and what it has seen, so both versions decide alike
  const { connectAgent } = await import(pathToFileURL(join(out, "chatdev.ts")).href);
  connectAgent((call: { node: string; history: readonly string[]; inputs: readonly string[] }) => {
    if (call.node === "ReAct Brain") return call.history.length < 2 ? "Thought: look it up. Action: get_weather" : "Action: FINAL";
    if (call.node === "Final QA Editor") return call.history.length === 0 ? "TODO: give the temperature unit" : "Approved.";
    return `${call.node} says: ${call.inputs.join(" + ")}`;
  });
}, 120_000);
afterAll(() => tmp.remove());

const typedDir = () => join(samples, "samples/chatdev");

describe("imported ChatDev demos behave as their typed versions", () => {
  it("loop counter: three rounds of writer, critic and gate, then the finalizer (the cycle is left at once)", async () => {
    const imported = await trace(await load(out, "demo_loop_counter.graph.ts", "LoopCounter"), { task: "product intro" });
    const typed = await trace(await load(typedDir(), "loop_counter.graph.ts", "LoopCounter"), { topic: "product intro" });
    expect(imported).toEqual(typed);
    expect(imported.at(-1)).toBe("finalizer@10");
  });

  it("file subgraph: three critics start in parallel, the editor waits for all, C runs once after A and B", async () => {
    const names: Record<string, string> = { a: "writer", b: "discuss", c: "reviser" };
    const g = await load(out, "demo_sub_graph_path.graph.ts", "SubGraphPath");
    const imported = await trace(g, { task: "autumn" }, (n) => names[n] ?? n);
    const typed = await trace(await load(typedDir(), "sub_graph_path.graph.ts", "SubGraphPath"), { word: "autumn" });
    expect(imported).toEqual(typed);
    const result = await g.invoke({ task: "autumn" });
    expect(result["c_out"]).toEqual([expect.stringMatching(/^C says: A says: autumn \+ Editor says: /)]);
  });

  it("inline subgraph without a start list: its only root node starts it", async () => {
    const names: Record<string, string> = { a: "writer", b: "paper_critique", c: "reviser" };
    const imported = await trace(await load(out, "demo_sub_graph.graph.ts", "SubGraphInline"), { task: "autumn" }, (n) => names[n] ?? n);
    const typed = await trace(await load(typedDir(), "sub_graph_inline.graph.ts", "SubGraphInline"), { word: "autumn" });
    expect(imported).toEqual(typed);
  });

  it("ReAct loop inside a QA loop: keyword conditions, FINAL leaves the inner cycle, TODO re-enters the outer", async () => {
    const names: Record<string, string> = { react_answer_synthesizer: "answer_synthesizer" };
    const g = await load(out, "react.graph.ts", "ReactMain");
    const imported = await trace(g, { task: "Is the weather in Paris good for a walk?" }, (n) => names[n] ?? n);
    const typed = await trace(await load(typedDir(), "react.graph.ts", "ReactMain"), { request: "巴黎今天的天气适合散步吗？" });
    expect(imported).toEqual(typed);
    expect((await g.invoke({ task: "x" }))["final_qa_editor_out"]).toEqual(["TODO: give the temperature unit", "Approved."]);
  });

  it("type-checks the generated graphs and node modules under the repository's strict settings", () => {
    const config = join(tmp.dir, "tsconfig.json");
    writeFileSync(config, JSON.stringify({ extends: relative(tmp.dir, join(ROOT, "tsconfig.json")), include: ["out"], exclude: [] }));
    const tsc = join(ROOT, "node_modules/typescript/bin/tsc");
    expect(() => execFileSync(process.execPath, [tsc, "--noEmit", "-p", config], { encoding: "utf8" })).not.toThrow();
  });

  it("turns ${VAR} into the graph's vars, and a var that names the environment into an environment read", () => {
    const graph = readFileSync(join(out, "demo_sub_graph_path.graph"), "utf8");
    expect(graph).toMatch(/vars \{\s+MODEL_NAME: string = "\$\{OPENAI_MODEL:-gpt-4o-mini\}"/);
    const nodes = readFileSync(join(out, "demo_sub_graph_path.nodes.ts"), "utf8");
    expect(nodes).toContain("model: `${ctx.vars.MODEL_NAME}`");
    // the file subgraph uses the parent's var (ChatDev passes the parent's vars down)
    expect(readFileSync(join(out, "article_discuss.graph"), "utf8")).toContain('MODEL_NAME: string = "${OPENAI_MODEL:-gpt-4o-mini}"');
  });
});

describe("problems", () => {
  const workflow = (nodes: string, edges: string, extra = "") => `graph:\n  id: w\n  start: [A]\n${extra}  nodes:\n${nodes}  edges:\n${edges}`;
  const agent = (id: string) => `    - { id: ${id}, type: agent, config: { role: r } }\n`;

  it("an include cycle is an error naming the chain; nothing is written", async () => {
    const p = project({
      "package.json": "{}",
      "a.yaml": workflow(`    - { id: A, type: subgraph, config: { type: file, config: { path: b.yaml } } }\n`, "    []\n"),
      "b.yaml": workflow(`    - { id: A, type: subgraph, config: { type: file, config: { path: a.yaml } } }\n`, "    []\n"),
    });
    try {
      const r = await run(p.dir, ["import", "chatdev", "a.yaml"]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("b.yaml:5: error: subgraph `A` includes itself: a.yaml -> b.yaml -> a.yaml (at graph.nodes[0].config.config.path)");
      expect(r.stderr).not.toContain("warning");
      expect(readdirSync(p.dir).sort()).toEqual(["a.yaml", "b.yaml", "package.json"]);
    } finally {
      p.remove();
    }
  });

  it("an unknown edge target names its line and the closest node id", async () => {
    const p = project({ "package.json": "{}", "w.yaml": workflow(agent("A") + agent("Writer"), "    - { from: A, to: Writerr }\n") });
    try {
      const r = await run(p.dir, ["import", "chatdev", "w.yaml"]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("w.yaml:8: error: edge references unknown target node 'Writerr' (did you mean `Writer`?) (at graph.edges[0].to)");
    } finally {
      p.remove();
    }
  });

  it("never reads a subgraph file outside the project", async () => {
    const outside = tempDir("chatdev-outside");
    writeFileSync(join(outside.dir, "secret.yaml"), workflow(agent("A"), "    []\n"));
    const p = project({ "package.json": "{}" });
    try {
      const rel = relative(p.dir, join(outside.dir, "secret.yaml"));
      p.write("w.yaml", workflow(`    - { id: A, type: subgraph, config: { type: file, config: { path: "${rel}" } } }\n`, "    []\n"));
      const r = await run(p.dir, ["import", "chatdev", "w.yaml"]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("(outside the project");
      expect(r.stderr).toContain("subgraph YAML not found");
    } finally {
      p.remove();
      outside.remove();
    }
  });

  it("a placeholder cycle in vars is an error", async () => {
    const p = project({
      "package.json": "{}",
      "w.yaml": `vars:\n  X: "\${Y}"\n  Y: "\${X}"\n${workflow(`    - { id: A, type: literal, config: { content: "\${X}" } }\n`, "    []\n")}`,
    });
    try {
      const r = await run(p.dir, ["import", "chatdev", "w.yaml"]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("Detected placeholder cycle referencing 'X' (X -> Y -> X)");
    } finally {
      p.remove();
    }
  });

  it("reports what has no counterpart and writes a TODO for it", async () => {
    const nodes = `${agent("A")}    - { id: Run, type: python, config: {} }\n`;
    const edges = "    - { from: A, to: Run, dynamic: { type: map }, condition: code_pass }\n";
    const p = project({ "package.json": "{}", "w.yaml": workflow(nodes, edges, "  memory: [{ name: m, type: simple }]\n") });
    try {
      const r = await run(p.dir, ["import", "chatdev", "w.yaml"]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain("warning: graph key `memory` has no counterpart in graphc and is left out (at graph.memory)");
      expect(r.stderr).toContain("edge `A` -> `Run`: `dynamic` has no counterpart and is left out");
      expect(r.stderr).toContain("node type `python` of `Run` has no counterpart: its function throws a TODO");
      expect(r.stderr).toContain("condition function `code_pass` is ChatDev code");
      const nodesTs = readFileSync(join(p.dir, "w.nodes.ts"), "utf8");
      expect(nodesTs).toContain("TODO: ChatDev node 'Run' (type python) has no counterpart in graphc");
      expect(nodesTs).toContain("function conditionCodePass(text: string): boolean");
      const built = await run(p.dir, ["build", "w.graph", "--no-typecheck"]);
      expect(built.code, built.stderr).toBe(0);
    } finally {
      p.remove();
    }
  });
});
