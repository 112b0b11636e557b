/**
 * Generated code never depends on a global that the user's names can shadow (issue 8, defect 7): imported
 * functions named like the globals it uses are imported under an alias; a graph or `type` alias with such a
 * name (a binding of the generated module) is a diagnostic. Running such a graph: test/runtime/run-checks.
 */
import { describe, expect, it } from "vitest";
import { compile, memoryHost } from "../../compiler/index.ts";

async function emit(text: string) {
  const result = await compile(["g.graph"], { host: memoryHost({ "g.graph": text }), typecheck: false });
  return { result, out: result.files[0]?.text ?? "" };
}

describe("names of globals", () => {
  it("imports user functions named Array, JSON, Object, Promise under an alias, and calls them by it", async () => {
    const { result, out } = await emit(`import { Array, JSON, Object, Promise } from "./f.ts"
graph G {
  state { a: string = "", n: number = 0 reduce Promise }
  node one({ a }) -> { a } = Array
  node two({ a }) -> { a } = JSON
  START -> one -> two -> route(Object) { x: END }
}
`);
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(out).toContain('import { Array as Array_2, JSON as JSON_2, Object as Object_2, Promise as Promise_2 } from "./f.ts";');
    expect(out).toMatch(/= Array_2;/);
    expect(out).toMatch(/= JSON_2;/);
    expect(out).toMatch(/= Object_2;/);
    expect(out).toContain(`u["n"], Promise_2)`); // the custom reducer
    expect(out).toContain("| Promise<GOneUpdate | void>"); // the built-in type, no longer shadowed
    // the globals themselves are still what generated code calls
    expect(out).toContain("Object.keys(");
    expect(out).toContain("JSON.stringify(");
    expect(out).not.toMatch(/\b(Array|JSON|Object|Promise)_2\.(isArray|stringify|keys)/);
  });

  it("rejects a graph or type alias named like a global the generated module uses", async () => {
    const { result } = await emit(`import { f } from "./f.ts"
type Record = string
graph Object {
  state { a: string = "" }
  node n({ a }) -> { a } = f
  START -> n -> END
}
`);
    const codes = result.diagnostics.map((d) => `${d.code}:${d.span.start.line}`);
    expect(codes).toContain("G3090:2");
    expect(codes).toContain("G3091:3");
  });
});
