/**
 * The own properties of the runtime's errors, in order: what `Object.keys`, a spread or `JSON.stringify` of a
 * caught error shows. errors.ts declares its fields (`declare`) and assigns them in the constructor, so the
 * order is that of the assignments; this pins it.
 */
import { describe, expect, it } from "vitest";
import {
  GraphAbortError,
  GraphInterrupt,
  GraphRecursionError,
  MultipleErrors,
  NodeError,
  NodeTimeoutError,
  ParentCommand,
  UpdateTypeError,
} from "@graphc/runtime";

const BASE = ["code", "graph", "node", "field", "lc_error_code", "name"];

describe("error own properties", () => {
  it.each([
    [new GraphRecursionError(3, { graph: "G" }), ["limit"]],
    [new UpdateTypeError("G", "a", "f", "number", "x"), ["expected", "actual"]],
    [new NodeError("G", "a", new Error("boom")), ["cause"]],
    [new NodeTimeoutError("G", "a", "run", 5, 6, 5, undefined), ["kind", "timeout", "elapsed", "runTimeout", "idleTimeout"]],
    [new GraphAbortError({ graph: "G" }, undefined, true), ["bySibling"]],
    [new MultipleErrors("G", 1, []), ["errors"]],
    [new GraphInterrupt([{ id: "i", value: 1 }]), ["interrupts"]],
    [new ParentCommand({}), ["command", "owner"]],
  ])("%s: the base fields, then its own, as enumerable own keys", (err, own) => {
    expect(Object.keys(err)).toEqual([...BASE, ...own]);
  });

  it("name is the class name (AbortError for an abort) and the site fields are set", () => {
    const e = new UpdateTypeError("G", "a", "f", "number", "x");
    expect({ ...e }).toMatchObject({ code: "INVALID_UPDATE_TYPE", graph: "G", node: "a", field: "f", name: "UpdateTypeError" });
    expect(new GraphAbortError().name).toBe("AbortError");
  });
});
