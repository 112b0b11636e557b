/**
 * `graphc manifest`: the document for a graph that uses every listed feature, its JSON Schema (the committed
 * docs/schema/manifest.schema.json is MANIFEST_SCHEMA written out; re-bless with GRAPHC_BLESS=1), every
 * sample's manifest validated against it, determinism, `--out` and `--check`.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { validate } from "../../compiler/contracts/json-validate.ts";
import { MANIFEST_SCHEMA } from "../../compiler/contracts/manifest-schema.ts";
import type { Manifest } from "../../compiler/contracts/manifest-types.ts";
import type { JsonValue } from "../../compiler/schema/json-schema.ts";
import { project, run } from "../cli/harness.ts";

const repo = join(import.meta.dirname, "../..");
const schemaPath = join(repo, "docs/schema/manifest.schema.json");

export const CHILD = `import { find } from "./n.ts"

interface Finder {
  input  { key: string }
  output { value: string }
}

graph Lookup implements Finder {
  meta { owner: "data-team", version: "0.3.1" }
  state {
    key:   string
    value: string = ""
  }
  input  { key }
  output { value }
  node find({ key }) -> { value } = find
  START -> find -> END
}
`;

export const PARENT = `import { find, pick, joinNotes, runIt } from "./n.ts"
import { Lookup } from "./lookup.graph"

type Level = "low" | "high"

graph Orders {
  meta {
    owner:       "search-team"
    version:     "1.2.0"
    description: "answers order questions"
  }
  vars {
    model: string = "\${MODEL:-small}"
    limit: number = 5
    token: string
  }
  state {
    question: string
    level:    Level = "low"
    answer:   string = ""
    notes:    string[] = []  reduce append
    custom:   string[] = []  reduce joinNotes
  }
  input  { question, level }
  output { answer, notes }

  node ask({ question }) -> { answer, notes } = pick
  node check({ answer }) -> { notes } = runIt { uses: Lookup }
  subgraph lookup = Lookup { in { key <- question } out { value -> answer } }
  subgraph inner = graph {
    state { answer: string }
    node tidy({ answer }) -> { answer } = find
    START -> tidy -> END
  }
  interrupt before check
  interrupt after ask

  START -> ask -> lookup -> inner -> check -> END
}
`;

const p = project({ "orders.graph": PARENT, "lookup.graph": CHILD, "n.ts": "export {}\n" });
afterAll(() => p.remove());

async function manifestOf(dir: string, args: string[]): Promise<Manifest> {
  const r = await run(dir, ["manifest", ...args]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as Manifest;
}

describe("graphc manifest", () => {
  it("lists every named graph the files define or load, sorted, with meta and schemas", async () => {
    const m = await manifestOf(p.dir, ["orders.graph"]);
    expect(m.format).toBe("graphc-manifest/1");
    expect(m.graphs.map((g) => `${g.file}#${g.name}`)).toEqual(["lookup.graph#Lookup", "orders.graph#Orders"]);
    expect(m.graphs[0]!.implements).toEqual([{ name: "Finder", source: "lookup.graph" }]);
    expect(m.graphs[1]!.implements).toEqual([]);
    const g = m.graphs[1]!;
    expect(g.meta).toEqual({ owner: "search-team", version: "1.2.0", description: "answers order questions" });
    expect(g.input).toMatchObject({ type: "object", additionalProperties: false, required: ["question"] });
    expect((g.input["properties"] as Record<string, unknown>)["level"]).toEqual({ $ref: "#/$defs/Level" });
    expect(g.input["$defs"]).toEqual({ Level: { enum: ["low", "high"] } });
    expect(Object.keys(g.output["properties"] as object).sort()).toEqual(["answer", "notes"]);
  });

  it("lists fields with types, reducers and defaults; nodes, subgraphs, vars and interrupts", async () => {
    const g = (await manifestOf(p.dir, ["orders.graph"])).graphs[1]!;
    expect(g.fields["notes"]).toEqual({ type: "string[]", reducer: "append", default: [], ephemeral: false, origin: "state" });
    expect(g.fields["level"]).toEqual({ type: "Level", reducer: "replace", default: "low", ephemeral: false, origin: "state" });
    expect(g.fields["custom"]).toMatchObject({ reducer: "./n.ts#joinNotes" });
    expect(g.fields["question"]).toEqual({ type: "string", reducer: "replace", ephemeral: false, origin: "state" });
    expect(g.nodes.map((n) => `${n.kind}:${n.name}`)).toEqual(["function:ask", "function:check", "subgraph:inner", "subgraph:lookup"]);
    expect(g.nodes[0]).toEqual({ name: "ask", kind: "function", fn: "./n.ts#pick", reads: ["question"], writes: ["answer", "notes"] });
    expect(g.subgraphs).toEqual([
      { node: "check", graph: "Lookup", source: "lookup.graph", via: "uses" },
      { node: "inner", graph: "Orders$inner", source: "inline", via: "subgraph" },
      { node: "lookup", graph: "Lookup", source: "lookup.graph", via: "subgraph" },
    ]);
    expect(g.vars["model"]).toMatchObject({ type: "string", template: "${MODEL:-small}", required: false });
    expect(g.vars["limit"]).toMatchObject({ type: "number", default: 5, required: false, schema: { type: "number" } });
    expect(g.vars["token"]).toMatchObject({ type: "string", required: true });
    expect(g.interrupts).toEqual({ before: ["check"], after: ["ask"] });
  });

  it("is byte-for-byte deterministic, with sorted keys and no absolute paths", async () => {
    const a = await run(p.dir, ["manifest", "orders.graph", "lookup.graph"]);
    const b = await run(p.dir, ["manifest", join(p.dir, "lookup.graph"), join(p.dir, "orders.graph")]);
    expect(b.stdout).toBe(a.stdout);
    expect(a.stdout).not.toContain(p.dir);
    const g = (JSON.parse(a.stdout) as Manifest).graphs[0]!;
    expect(Object.keys(g)).toEqual([...Object.keys(g)].sort());
  });

  it("writes --out and reports a stale file with --check", async () => {
    expect((await run(p.dir, ["manifest", "orders.graph", "--out", "graphs.json"])).code).toBe(0);
    expect((await run(p.dir, ["manifest", "orders.graph", "--out", "graphs.json", "--check"])).code).toBe(0);
    p.write("lookup.graph", CHILD.replace('version: "0.3.1"', 'version: "0.4.0"'));
    const stale = await run(p.dir, ["manifest", "orders.graph", "--out", "graphs.json", "--check"]);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain("graphs.json is out of date");
    p.write("lookup.graph", CHILD);
    expect((await run(p.dir, ["manifest", "--check"])).code).toBe(2);
  });

  it("prints diagnostics and writes nothing for a file with errors", async () => {
    p.write("bad.graph", CHILD.replace('"0.3.1"', '"1.0"'));
    const r = await run(p.dir, ["manifest", "bad.graph"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("error[G6021]");
  });
});

describe("the manifest's JSON Schema", () => {
  const text = `${JSON.stringify(MANIFEST_SCHEMA, null, 2)}\n`;

  it("is committed as docs/schema/manifest.schema.json", () => {
    if (process.env["GRAPHC_BLESS"] === "1") writeFileSync(schemaPath, text);
    expect(readFileSync(schemaPath, "utf8"), "out of date: re-bless with GRAPHC_BLESS=1").toBe(text);
  });

  it("rejects what is not a manifest", async () => {
    const m = (await manifestOf(p.dir, ["orders.graph"])) as unknown as { graphs: Record<string, JsonValue>[] };
    expect(validate(m as unknown as JsonValue, MANIFEST_SCHEMA)).toEqual([]);
    const broken = { ...m, graphs: [{ ...m.graphs[0]!, file: "/abs/x.graph", meta: { version: "1.0" } }] };
    expect(validate(broken as unknown as JsonValue, MANIFEST_SCHEMA).map((x) => x.at)).toEqual(["/graphs/0/file", "/graphs/0/meta/version"]);
  });

  const samples = readdirSync(join(repo, "samples")).filter((d) => statSync(join(repo, "samples", d)).isDirectory() && d !== "shared");
  for (const sample of samples) {
    it(`validates the manifest of samples/${sample}`, async () => {
      const m = await manifestOf(repo, [`samples/${sample}`]);
      expect(m.graphs.length).toBeGreaterThan(0);
      expect(validate(m as unknown as JsonValue, MANIFEST_SCHEMA)).toEqual([]);
      for (const g of m.graphs) expect(g.file.startsWith(`samples/${sample}/`)).toBe(true);
    });
  }
});
