/**
 * The reducer registry (compiler/phases/reducers.ts) is the one place reducer knowledge lives: these tests
 * run every entry through the checker (names, type fit, G3002's text), lowering (empty values), emission
 * (the merge and fold each field calls) and the runtime (the functions exist and merge), so a new entry
 * plus its runtime function is all a new built-in reducer needs — and an entry the phases ignored fails here.
 */
import { describe, expect, it } from "vitest";
import * as runtime from "@graphc/runtime";
import { compile, memoryHost } from "../../compiler/index.ts";
import { BUILTIN_REDUCER_NAMES, REDUCERS, reducerDef, type BuiltinReducerName } from "../../compiler/phases/reducers.ts";
import { RUNTIME_VALUES } from "../../compiler/phases/5-emit/runtime-api.ts";
import type { GraphIR } from "../../compiler/phases/4-lower/ir.ts";

/** a field type each reducer's `fits` accepts, and one it rejects */
const FITTING: Record<BuiltinReducerName, { good: string; bad: string }> = {
  append: { good: "string[]", bad: "boolean" },
  messages: { good: "string[]", bad: "number" },
  sum: { good: "number", bad: "string[]" },
  merge: { good: "Record<string, number>", bad: "number" },
  union: { good: "number[]", bad: "string" },
  replace: { good: "string", bad: "string" },
};

async function build(fields: string) {
  const text = `import { f } from "./f.ts"
graph G {
  state {
${fields}
  }
  node a(State) -> State = f
  START -> a -> END
}
`;
  const result = await compile(["g.graph"], { host: memoryHost({ "g.graph": text }), typecheck: false });
  const graph = result.ir?.files[0]?.graphs[0] as GraphIR | undefined;
  return { result, graph, out: result.files[0]?.text ?? "" };
}

describe("the reducer registry", () => {
  it("is the list of reducers the checker accepts, and the hint of an unknown one names them", async () => {
    const { result } = await build("    x: number reduce summ");
    const d = result.diagnostics.find((x) => x.code === "G2009")!;
    expect(d.hint).toBe("did you mean `sum`?");
    const far = (await build("    x: number reduce zzzzzzzz")).result.diagnostics.find((x) => x.code === "G2009")!;
    expect(far.hint).toBe(`built-in reducers: ${BUILTIN_REDUCER_NAMES.join(", ")}; a custom reducer is an imported TS function`);
    for (const name of BUILTIN_REDUCER_NAMES) {
      const { result } = await build(`    x: ${FITTING[name].good} reduce ${name}`);
      expect(result.diagnostics.filter((x) => x.severity === "error"), name).toEqual([]);
    }
  });

  it.each(BUILTIN_REDUCER_NAMES.filter((n) => reducerDef(n).fits !== undefined))(
    "%s: a field its type rule rejects is G3002 with the registry's label and hint",
    async (name) => {
      const fits = reducerDef(name).fits!;
      const { result } = await build(`    x: ${FITTING[name].bad} reduce ${name}`);
      const d = result.diagnostics.find((x) => x.code === "G3002");
      expect(d).toMatchObject({ label: `\`${name}\` needs ${fits.needs}`, hint: fits.hint });
    },
  );

  it.each(BUILTIN_REDUCER_NAMES)("%s: lowering starts the field from the registry's empty value", async (name) => {
    const { graph } = await build(`    x: ${FITTING[name].good} reduce ${name}`);
    const field = graph!.fields.find((f) => f.name === "x")!;
    expect(field.init).toEqual(reducerDef(name).empty);
    expect(field.alwaysSet).toBe(reducerDef(name).empty !== undefined);
  });

  it.each(BUILTIN_REDUCER_NAMES.filter((n) => reducerDef(n).op !== undefined))(
    "%s: generated apply merges with the registry's runtime function and fold variant, which the runtime exports",
    async (name) => {
      const def = reducerDef(name);
      const { out } = await build(`    x: ${FITTING[name].good} reduce ${name}`);
      expect(out).toContain(`v["x"] = oneSet(v["x"], u["x"], ${def.op});`);
      const fold = def.foldSet ?? "foldSet";
      expect(out).toContain(`v["x"] = ${fold}("G", "x", v["x"], w_x${def.foldSet ? "" : `, ${def.op}`});`);
      for (const fn of [def.op!, fold]) {
        expect(RUNTIME_VALUES).toContain(fn);
        expect(typeof (runtime as Record<string, unknown>)[fn]).toBe("function");
      }
    },
  );

  it("runs each built-in merge through the fold variants as LangGraph folds a step's writes", () => {
    const { oneSet, foldSet, foldAppend, addMessages, append, sum, merge, union, Overwrite } = runtime;
    expect(oneSet([1], [2, 3], append)).toEqual([1, 2, 3]);
    expect(oneSet(1, 2, sum)).toBe(3);
    const meta: Record<string, number> = { a: 1 };
    expect(oneSet(meta, { b: 2 }, merge)).toEqual({ a: 1, b: 2 });
    expect(oneSet(["a"], ["a", "b"], union)).toEqual(["a", "b"]);
    expect(oneSet<number[], number | number[]>([1], new Overwrite([9]), append)).toEqual([9]);
    expect(addMessages([{ id: "1", content: "a" }], { id: "1", content: "b" })).toEqual([{ id: "1", content: "b" }]);
    expect(foldSet("G", "x", 1, [2, new Overwrite(10), 5], sum)).toBe(10);
    // the fan-in fast path of `append` is exactly `append` applied in order
    expect(foldAppend("G", "x", [0], [[1], [2, 3]])).toEqual([0, 1, 2, 3]);
    expect(foldAppend("G", "x", [0], [[1], 2, new Overwrite([7]), [8]])).toEqual([7]);
    expect(() => foldSet("G", "x", 0, [new Overwrite(1), new Overwrite(2)], sum)).toThrow(/only one Overwrite value per step/);
  });

  it("has an entry for every built-in name the IR and the runtime know", () => {
    expect(Object.keys(REDUCERS).sort()).toEqual([...BUILTIN_REDUCER_NAMES].sort());
    for (const name of BUILTIN_REDUCER_NAMES) {
      const op = reducerDef(name).op;
      if (op !== undefined) expect(RUNTIME_VALUES).toContain(op);
    }
  });
});
