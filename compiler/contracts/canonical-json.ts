/**
 * Deterministic JSON for the manifest: object keys sorted (a JSON object's key order means nothing, and
 * sorted keys keep a committed manifest's diffs down to real changes), arrays in their given order (the
 * builder sorts the ones whose order is not meaningful), two-space indent, a final newline.
 */
import type { JsonValue } from "../schema/json-schema.ts";

export function canonicalJson(value: JsonValue): string {
  return `${JSON.stringify(sortKeys(value), null, 2)}\n`;
}

function sortKeys(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v === null || typeof v !== "object") return v;
  const obj = v as { readonly [key: string]: JsonValue };
  return Object.fromEntries(
    Object.keys(obj)
      .sort()
      .map((k) => [k, sortKeys(obj[k]!)]),
  );
}
