/**
 * Checks a run's input against its graph's input schema before the run is queued, so a bad field is a 422
 * naming it instead of a failed run. It covers the JSON Schema that graphc generates for graph types
 * (compiler/schema/json-schema.ts): `type`, `const`, `enum`, `properties`, `required`,
 * `additionalProperties`, `items`, `anyOf`, `$ref` into the document's `$defs`; other keywords (and the
 * `x-typescript` of imported TypeScript types) accept any value, as the run-time checks do.
 */
export type JsonSchema = { readonly [key: string]: unknown };

/** The first mismatch: where (a JSON-pointer-like path, `messages/0/role`) and what was expected. */
export interface SchemaError {
  readonly path: string;
  readonly message: string;
}

export function validate(schema: JsonSchema, value: unknown): SchemaError | undefined {
  return check(schema, value, [], schema);
}

function check(s: JsonSchema, v: unknown, path: readonly string[], root: JsonSchema): SchemaError | undefined {
  const at = (message: string): SchemaError => ({ path: path.join("/"), message });
  if (typeof s["$ref"] === "string") {
    const target = resolveRef(root, s["$ref"]);
    return target ? check(target, v, path, root) : undefined;
  }
  if ("const" in s && !jsonEqual(s["const"], v)) return at(`must be ${JSON.stringify(s["const"])}`);
  if (Array.isArray(s["enum"]) && !s["enum"].some((e) => jsonEqual(e, v))) {
    return at(`must be one of ${s["enum"].map((e) => JSON.stringify(e)).join(", ")}`);
  }
  if (Array.isArray(s["anyOf"])) {
    const errors = (s["anyOf"] as JsonSchema[]).map((m) => check(m, v, path, root));
    if (errors.every((e) => e !== undefined)) return deepest(errors as SchemaError[]) ?? at("matches none of the allowed types");
  }
  const type = s["type"];
  if (typeof type === "string" && !hasType(v, type)) return at(`must be ${article(type)} (got ${describe(v)})`);
  if (Array.isArray(v) && typeof s["items"] === "object" && s["items"] !== null) {
    for (const [i, item] of v.entries()) {
      const e = check(s["items"] as JsonSchema, item, [...path, String(i)], root);
      if (e) return e;
    }
  }
  if (isObject(v)) return checkObject(s, v, path, root);
  return undefined;
}

function checkObject(s: JsonSchema, v: Record<string, unknown>, path: readonly string[], root: JsonSchema): SchemaError | undefined {
  const props = (s["properties"] ?? {}) as Record<string, JsonSchema>;
  for (const name of Array.isArray(s["required"]) ? (s["required"] as string[]) : []) {
    if (!(name in v) || v[name] === undefined) return { path: [...path, name].join("/"), message: "is required" };
  }
  const extra = s["additionalProperties"];
  for (const [key, item] of Object.entries(v)) {
    const sub = Object.hasOwn(props, key) ? props[key] : extra === false ? undefined : (extra as JsonSchema | undefined);
    if (sub === undefined && extra === false) {
      return { path: [...path, key].join("/"), message: `is not a field of this input (expected one of: ${Object.keys(props).join(", ")})` };
    }
    if (sub !== undefined && typeof sub === "object") {
      const e = check(sub, item, [...path, key], root);
      if (e) return e;
    }
  }
  return undefined;
}

/** of several failed alternatives, the one that got furthest into the value says the most */
function deepest(errors: readonly SchemaError[]): SchemaError | undefined {
  return [...errors].sort((a, b) => b.path.split("/").length - a.path.split("/").length)[0];
}

function resolveRef(root: JsonSchema, ref: string): JsonSchema | undefined {
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = root;
  for (const part of ref.slice(2).split("/")) node = isObject(node) ? node[part.replace(/~1/g, "/").replace(/~0/g, "~")] : undefined;
  return isObject(node) ? node : undefined;
}

function hasType(v: unknown, type: string): boolean {
  switch (type) {
    case "object":
      return isObject(v);
    case "array":
      return Array.isArray(v);
    case "integer":
      return Number.isInteger(v);
    case "number":
      return typeof v === "number" && Number.isFinite(v);
    case "null":
      return v === null;
    default:
      return typeof v === type;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function describe(v: unknown): string {
  return v === null ? "null" : Array.isArray(v) ? "an array" : typeof v === "object" ? "an object" : `${typeof v} ${JSON.stringify(v)}`;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function jsonEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
