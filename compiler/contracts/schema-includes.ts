/**
 * Is every value of one field schema also a value of another? `graphc diff` decides with it whether a
 * field's type was narrowed or widened. Works on the schemas compiler/schema/json-schema.ts writes (type,
 * const, enum, anyOf, items, properties, required, additionalProperties, `$ref` into `$defs`, opaque
 * TypeScript types carrying `x-typescript`). Conservative: it answers true only when inclusion is certain,
 * so an unprovable change is reported as a change, never hidden. Two opaque types are the same type only
 * when their TypeScript text is.
 */
import type { JsonSchema, JsonValue } from "../schema/json-schema.ts";
import { isObject, jsonEqual, resolveRef, validate } from "./json-validate.ts";

/** A schema with the document it came from (for `$ref`). */
export interface Rooted {
  readonly schema: JsonSchema;
  readonly root: JsonSchema;
}

const CONSTRAINTS = ["type", "const", "enum", "anyOf", "items", "properties", "required", "additionalProperties", "$ref", "x-typescript"];
const isAny = (s: JsonSchema) => CONSTRAINTS.every((k) => s[k] === undefined);

/** true when every value valid under `a` is valid under `b` */
export function includes(a: Rooted, b: Rooted, depth = 0): boolean {
  if (depth > 32) return false;
  const sa = resolveRef(a.schema, a.root);
  const sb = resolveRef(b.schema, b.root);
  if (sa === undefined || sb === undefined) return false;
  const A: Rooted = { schema: sa, root: a.root };
  const B: Rooted = { schema: sb, root: b.root };
  const next = (x: JsonSchema, y: JsonSchema) => includes({ schema: x, root: a.root }, { schema: y, root: b.root }, depth + 1);
  if (isAny(sb)) return true;
  if (isAny(sa)) return false;
  if (Array.isArray(sa["anyOf"])) return (sa["anyOf"] as JsonSchema[]).every((m) => includes({ schema: m, root: a.root }, B, depth + 1));
  // an opaque TypeScript type includes only itself (its values are unknown here)
  if (sb["x-typescript"] !== undefined) return sa["x-typescript"] === sb["x-typescript"];
  const values = finiteValues(sa);
  if (values !== undefined) return values.every((v) => validate(v, withDefs(sb, b.root)).length === 0);
  if (Array.isArray(sb["anyOf"])) return (sb["anyOf"] as JsonSchema[]).some((m) => includes(A, { schema: m, root: b.root }, depth + 1));
  if (sa["x-typescript"] !== undefined || finiteValues(sb) !== undefined) return false;
  const ta = sa["type"];
  const tb = sb["type"];
  if (ta !== tb && !(ta === "integer" && tb === "number")) return false;
  if (ta === "array") return next(items(sa), items(sb));
  if (ta === "object") return objectIncludes(sa, sb, next);
  return true;
}

/** the values of a `const` / `enum` schema, undefined for any other */
function finiteValues(s: JsonSchema): readonly JsonValue[] | undefined {
  if (s["const"] !== undefined) return [s["const"]];
  if (Array.isArray(s["enum"])) return s["enum"] as JsonValue[];
  return undefined;
}

const items = (s: JsonSchema): JsonSchema => (isObject(s["items"]) ? (s["items"] as JsonSchema) : {});
const props = (s: JsonSchema): Record<string, JsonSchema> => (isObject(s["properties"]) ? (s["properties"] as Record<string, JsonSchema>) : {});
const required = (s: JsonSchema): string[] => (Array.isArray(s["required"]) ? (s["required"] as string[]) : []);
/** `additionalProperties`: false (closed), a schema (a record's values) or `{}` (open) */
const extra = (s: JsonSchema): JsonSchema | false => {
  const x = s["additionalProperties"];
  return x === false ? false : isObject(x) ? (x as JsonSchema) : {};
};

/** a subschema validated on its own still needs the `$defs` of its document */
function withDefs(s: JsonSchema, root: JsonSchema): JsonSchema {
  return root["$defs"] === undefined ? s : { ...s, $defs: root["$defs"] };
}

function objectIncludes(a: JsonSchema, b: JsonSchema, next: (x: JsonSchema, y: JsonSchema) => boolean): boolean {
  const ra = required(a);
  if (!required(b).every((r) => ra.includes(r))) return false;
  const pa = props(a);
  const pb = props(b);
  const ea = extra(a);
  const eb = extra(b);
  for (const [k, s] of Object.entries(pb)) {
    const mine = pa[k];
    if (mine !== undefined) {
      if (!next(mine, s)) return false;
    } else if (ea !== false && !next(ea, s)) return false;
  }
  for (const [k, s] of Object.entries(pa)) if (pb[k] === undefined && eb !== false && !next(s, eb)) return false;
  for (const k of Object.keys(pa)) if (pb[k] === undefined && eb === false) return false;
  if (eb === false) return ea === false;
  return ea === false || next(ea, eb);
}

export { jsonEqual };
