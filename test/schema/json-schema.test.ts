/**
 * JSON Schema of a graph's input/output/state (compiler/schema/json-schema.ts): aliases across files as
 * shared `$defs`, literal unions as enums, optional members, opaque TypeScript types, required inputs.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { check } from "../../compiler/check.ts";
import { lower, type GraphIR, type ProgramIR } from "../../compiler/index.ts";
import { graphSchemas } from "../../compiler/schema/json-schema.ts";
import { tempDir } from "../temp-dir.ts";

function lowered(files: string[]): ProgramIR {
  const checked = check(files);
  expect(checked.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return lower(checked.program!).value;
}

const graphOf = (ir: ProgramIR, name: string): GraphIR => ir.files.flatMap((f) => f.graphs).find((g) => g.name === name)!;

describe("graphSchemas on the customer-service sample", () => {
  const ir = lowered(["samples/customer-service/customer_service.graph"]);
  const s = graphSchemas(graphOf(ir, "CustomerService"), ir);

  it("closes the input object and lists its required fields", () => {
    expect(s.input).toMatchObject({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      additionalProperties: false,
      required: ["user_id"],
    });
    expect(Object.keys(s.input["properties"] as object)).toEqual(["messages", "user_id"]);
    // Message comes from TypeScript: opaque, with its TypeScript text
    expect((s.input["properties"] as Record<string, unknown>)["messages"]).toEqual({ type: "array", items: { "x-typescript": "Message" } });
  });

  it("turns aliases imported from another .graph file into $defs, literal unions into enums", () => {
    const defs = s.state["$defs"] as Record<string, Record<string, unknown>>;
    expect(defs["Intent"]).toEqual({ enum: ["query_order", "query_logistics", "refund", "human", "unknown"] });
    expect(defs["ExecutionResult"]).toMatchObject({ type: "object", required: ["status"] });
    expect((defs["ExecutionResult"]!["properties"] as Record<string, unknown>)["status"]).toEqual({ $ref: "#/$defs/ExecutionStatus" });
    expect((s.state["properties"] as Record<string, unknown>)["intent"]).toEqual({ $ref: "#/$defs/Intent" });
    // only what a document uses: the input schema needs no alias
    expect(s.input["$defs"]).toBeUndefined();
  });
});

describe("graphSchemas on written types", () => {
  const tmp = tempDir("json-schema");
  afterAll(() => tmp.remove());
  const file = join(tmp.dir, "types.graph");
  writeFileSync(join(tmp.dir, "nodes.ts"), "export const label = (s: { tree: { label: string } }) => ({ items: [s.tree.label] });\n");
  writeFileSync(
    file,
    `import { label } from "./nodes.ts"
type Leaf = { label: string }
type Tree = { label: string, children: Leaf[], first: Leaf? }
type Level = 1 | 2 | 3
graph Typed {
  state {
    tree:    Tree
    level:   Level = 1
    tags:    Record<string, number> = {}
    note:    string | null = null
    maybe:   boolean?
    mixed:   string | number = 0
    items:   string[] = [] reduce append
  }
  input  { tree, level, note, maybe }
  output { tree, items }
  node n({ tree }) -> { items } = label
  START -> n -> END
}
`,
  );
  const ir = lowered([file]);
  const s = graphSchemas(graphOf(ir, "Typed"), ir);
  const props = (x: Record<string, unknown>) => x["properties"] as Record<string, unknown>;

  it("shares one $defs entry per alias, nested aliases included", () => {
    expect(s.state["$defs"]).toEqual({
      Leaf: { type: "object", properties: { label: { type: "string" } }, required: ["label"] },
      Level: { enum: [1, 2, 3] },
      Tree: {
        type: "object",
        properties: {
          label: { type: "string" },
          children: { type: "array", items: { $ref: "#/$defs/Leaf" } },
          first: { $ref: "#/$defs/Leaf" },
        },
        required: ["label", "children"],
      },
    });
  });

  it("maps records, nullable and mixed unions, and leaves optional and defaulted inputs out of required", () => {
    const p = props(s.state);
    expect(p["tags"]).toEqual({ type: "object", additionalProperties: { type: "number" } });
    expect(p["note"]).toEqual({ anyOf: [{ type: "string" }, { type: "null" }] });
    expect(p["mixed"]).toEqual({ anyOf: [{ type: "string" }, { type: "number" }] });
    expect(p["maybe"]).toEqual({ type: "boolean" });
    expect(s.input["required"]).toEqual(["tree"]);
    expect(Object.keys(props(s.output))).toEqual(["tree", "items"]);
  });

  it("is deterministic plain JSON", () => {
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
    expect(JSON.stringify(graphSchemas(graphOf(ir, "Typed"), ir))).toBe(JSON.stringify(s));
  });
});
