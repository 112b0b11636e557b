/**
 * Types for the IR: `TypeIR` (printable TypeScript, aliases and imported types kept by name) from the type as
 * written, and `CheckIR` (the run-time input test) from the checker's normalised `DslType`.
 */
import type { TypeExpr } from "../../../grammar/ast.ts";
import type { BoundFile, DslType } from "../2-bind/model.ts";
import type { CheckIR, TypeIR } from "./ir.ts";

const PRIMS = new Set(["string", "number", "boolean", "null", "undefined", "unknown"]);

/** The type as written; names that are neither built-in nor local aliases are imported TS types. */
export function typeFromExpr(t: TypeExpr, file: BoundFile): TypeIR {
  switch (t.kind) {
    case "NamedType": {
      const name = t.name.name;
      if (PRIMS.has(name) && t.args.length === 0) return { k: "prim", name: name as "string" };
      if (name === "Record" && t.args.length === 2 && !file.types.has(name)) {
        return { k: "record", value: typeFromExpr(t.args[1]!, file) };
      }
      return { k: "ref", name, args: t.args.map((a) => typeFromExpr(a, file)), imported: !file.types.has(name) };
    }
    case "LiteralType":
      return { k: "lit", value: t.value };
    case "ArrayType":
      return { k: "array", element: typeFromExpr(t.element, file) };
    case "UnionType":
      return { k: "union", members: t.members.map((m) => typeFromExpr(m, file)) };
    case "ObjectType":
      return {
        k: "object",
        members: t.members.map((m) => ({ name: m.name.name, optional: m.optional, type: typeFromExpr(m.type, file) })),
      };
    case "OptionalType":
      return { k: "union", members: [typeFromExpr(t.inner, file), { k: "prim", name: "undefined" }] };
  }
}

/** The normalised type as TypeIR (used when a field has no written type, e.g. an input-only field). */
export function typeFromDsl(t: DslType): TypeIR {
  switch (t.kind) {
    case "string":
    case "number":
    case "boolean":
    case "null":
    case "undefined":
    case "unknown":
      return { k: "prim", name: t.kind };
    case "literal":
      return { k: "lit", value: t.value };
    case "array":
      return { k: "array", element: typeFromDsl(t.element) };
    case "object":
      return { k: "object", members: t.members.map((m) => ({ name: m.name, optional: m.optional, type: typeFromDsl(m.type) })) };
    case "record":
      return { k: "record", value: typeFromDsl(t.value) };
    case "union":
      return { k: "union", members: t.members.map(typeFromDsl) };
    case "opaque":
      return { k: "ref", name: t.name, args: t.args.map(typeFromDsl), imported: true };
  }
}

/**
 * The run-time test for a value of type `t`: shallow `typeof` tests. Imported (opaque) types and `unknown`
 * pass (TypeScript checks them statically). The top level is tested fully; array elements, record values
 * and object members only when their test is a plain `typeof`/literal test; deeper structure is left to
 * TypeScript, so a check stays one inline expression.
 */
export function checkFromDsl(t: DslType, depth = 0): CheckIR {
  const c = checkAt(t, depth);
  return depth > 0 && !isFlat(c) ? { k: "any" } : c;
}

function isFlat(c: CheckIR): boolean {
  return c.k === "typeof" || c.k === "null" || c.k === "lit" || c.k === "any" || (c.k === "union" && c.members.every(isFlat));
}

function checkAt(t: DslType, depth: number): CheckIR {
  switch (t.kind) {
    case "string":
    case "number":
    case "boolean":
    case "undefined":
      return { k: "typeof", type: t.kind };
    case "null":
      return { k: "null" };
    case "unknown":
    case "opaque":
      return { k: "any" };
    case "literal":
      return { k: "lit", value: t.value };
    case "array":
      return { k: "array", element: checkFromDsl(t.element, depth + 1) };
    case "record":
      return { k: "record", value: checkFromDsl(t.value, depth + 1) };
    case "object":
      return {
        k: "object",
        members: t.members.map((m) => ({ name: m.name, optional: m.optional, check: checkFromDsl(m.type, depth + 1) })),
      };
    case "union": {
      const members = t.members.map((m) => checkFromDsl(m, depth));
      return members.some((m) => m.k === "any") ? { k: "any" } : { k: "union", members };
    }
  }
}
