/**
 * A small JSON Schema (2020-12) validator for the keywords graphc itself writes: `type`, `const`, `enum`,
 * `anyOf`, `items`, `properties`, `required`, `additionalProperties`, `pattern`, `$ref` into the root's
 * `$defs`. It checks a manifest against docs/schema/manifest.schema.json (before `graphc diff` trusts a
 * manifest file) and a default value against a field's schema. Annotations (`title`, `description`,
 * `x-typescript`, `$schema`) constrain nothing; any other keyword is rejected, so a schema can never
 * silently mean more than this code checks.
 */
import type { JsonSchema, JsonValue } from "../schema/json-schema.ts";

const ANNOTATIONS = new Set(["$schema", "$id", "$comment", "$defs", "title", "description", "default", "x-typescript"]);
const KEYWORDS = new Set(["type", "const", "enum", "anyOf", "items", "properties", "required", "additionalProperties", "pattern", "$ref"]);

/** One problem: where in the value (a JSON pointer) and what is wrong. */
export interface JsonProblem {
  readonly at: string;
  readonly message: string;
}

export function validate(value: JsonValue, schema: JsonSchema): JsonProblem[] {
  const problems: JsonProblem[] = [];
  check(value, schema, schema, "", problems);
  return problems;
}

/** Follows `$ref: "#/$defs/Name"` within `root`; undefined for any other reference. */
export function resolveRef(schema: JsonSchema, root: JsonSchema): JsonSchema | undefined {
  const ref = schema["$ref"];
  if (typeof ref !== "string") return schema;
  const m = /^#\/\$defs\/([^/]+)$/.exec(ref);
  const defs = root["$defs"] as Record<string, JsonSchema> | undefined;
  return m && defs ? defs[m[1]!] : undefined;
}

export const isObject = (v: JsonValue | undefined): v is { readonly [key: string]: JsonValue } =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function typeOf(v: JsonValue): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
}

function hasType(v: JsonValue, type: string): boolean {
  if (type === "integer") return typeof v === "number" && Number.isInteger(v);
  return typeOf(v) === type;
}

/** JSON equality (key order ignored) */
export function jsonEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && jsonEqual(a[k], b[k]));
  }
  return false;
}

function check(v: JsonValue, s: JsonSchema, root: JsonSchema, at: string, out: JsonProblem[]): void {
  const fail = (message: string) => out.push({ at: at === "" ? "/" : at, message });
  for (const k of Object.keys(s)) if (!KEYWORDS.has(k) && !ANNOTATIONS.has(k)) fail(`schema keyword \`${k}\` is not supported`);
  if (s["$ref"] !== undefined) {
    const target = resolveRef(s, root);
    if (target === undefined) fail(`unresolved reference ${String(s["$ref"])}`);
    else check(v, target, root, at, out);
  }
  const type = s["type"];
  if (typeof type === "string" && !hasType(v, type)) {
    fail(`expected ${type}, found ${typeOf(v)}`);
    return;
  }
  if (s["const"] !== undefined && !jsonEqual(v, s["const"])) fail(`expected ${JSON.stringify(s["const"])}`);
  const en = s["enum"];
  if (Array.isArray(en) && !en.some((e) => jsonEqual(v, e))) fail(`expected one of ${JSON.stringify(en)}`);
  const anyOf = s["anyOf"];
  if (Array.isArray(anyOf) && !anyOf.some((m) => validateIn(v, m as JsonSchema, root))) fail("matches none of `anyOf`");
  const pattern = s["pattern"];
  if (typeof pattern === "string" && typeof v === "string" && !new RegExp(pattern, "u").test(v)) fail(`does not match ${pattern}`);
  if (Array.isArray(v) && isObject(s["items"])) v.forEach((item, i) => check(item, s["items"] as JsonSchema, root, `${at}/${i}`, out));
  if (isObject(v)) checkObject(v, s, root, at, out);
}

function validateIn(v: JsonValue, s: JsonSchema, root: JsonSchema): boolean {
  const problems: JsonProblem[] = [];
  check(v, s, root, "", problems);
  return problems.length === 0;
}

function checkObject(v: { readonly [key: string]: JsonValue }, s: JsonSchema, root: JsonSchema, at: string, out: JsonProblem[]): void {
  const props = isObject(s["properties"]) ? (s["properties"] as Record<string, JsonSchema>) : {};
  const required = Array.isArray(s["required"]) ? (s["required"] as string[]) : [];
  for (const r of required) if (!(r in v)) out.push({ at: at === "" ? "/" : at, message: `missing required property \`${r}\`` });
  const extra = s["additionalProperties"];
  for (const [k, x] of Object.entries(v)) {
    const path = `${at}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`;
    const p = props[k];
    if (p !== undefined) check(x, p, root, path, out);
    else if (extra === false) out.push({ at: path, message: "property not allowed" });
    else if (isObject(extra)) check(x, extra as JsonSchema, root, path, out);
  }
}
