/** The rules every store shares: namespace and value checks, filters, namespace listing, vectors. */
import { tryEncode } from "../checkpoint/serde.ts";
import { StoreError, type Embedder, type ListNamespacesOptions, type Namespace, type StoreFilter } from "./types.ts";
import { isRecord } from "../objects.ts";

/** Namespaces are stored as their labels joined by "." (labels cannot contain one). */
export const SEP = ".";

export function checkNamespace(ns: Namespace, what = "namespace"): string {
  if (!Array.isArray(ns)) throw new StoreError("INVALID_NAMESPACE", `The ${what} must be an array of labels, got ${typeof ns}.`, what);
  ns.forEach((label, i) => {
    if (typeof label !== "string" || label === "")
      throw new StoreError("INVALID_NAMESPACE", `Namespace label ${i} must be a non-empty string, got ${JSON.stringify(label) ?? typeof label}.`, what);
    if (label.includes(SEP)) throw new StoreError("INVALID_NAMESPACE", `Namespace label ${JSON.stringify(label)} must not contain ".".`, what);
  });
  if (ns[0] === "langgraph") throw new StoreError("INVALID_NAMESPACE", 'A namespace cannot start with "langgraph" (reserved).', what);
  return ns.join(SEP);
}

export function checkPutNamespace(ns: Namespace): string {
  const joined = checkNamespace(ns);
  if (ns.length === 0) throw new StoreError("INVALID_NAMESPACE", "An item's namespace needs at least one label.", "namespace");
  return joined;
}

export function checkKey(key: string): void {
  if (typeof key !== "string" || key === "") throw new StoreError("INVALID_STORE_VALUE", `An item's key must be a non-empty string, got ${JSON.stringify(key) ?? typeof key}.`, "key");
}

/** The value as stored text: a plain object that the checkpoint serde stores exactly. */
export function encodeValue(value: Record<string, unknown>): string {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new StoreError("INVALID_STORE_VALUE", `An item's value must be an object, got ${value === null ? "null" : Array.isArray(value) ? "an array" : typeof value}.`, "value");
  const text = tryEncode(value);
  if (text === undefined)
    throw new StoreError("INVALID_STORE_VALUE", "An item's value must be plain data (no functions, class instances or cycles).", "value");
  return text;
}

export function positive(n: number | undefined, name: string, fallback: number): number {
  if (n === undefined) return fallback;
  if (!Number.isInteger(n) || n < 0) throw new StoreError("INVALID_STORE_OPTION", `${name} must be a whole number ≥ 0, got ${String(n)}.`, name);
  return n;
}

export function expiry(ttl: number | undefined, now: number): number | null {
  if (ttl === undefined) return null;
  if (typeof ttl !== "number" || !(ttl > 0)) throw new StoreError("INVALID_STORE_OPTION", `ttl must be a positive number of seconds, got ${String(ttl)}.`, "ttl");
  return now + ttl * 1000;
}

/** Is `ns` the prefix itself or below it? */
export const under = (ns: string, prefix: string) => prefix === "" || ns === prefix || ns.startsWith(prefix + SEP);

const OPS = ["$eq", "$ne", "$gt", "$gte", "$lt", "$lte"] as const;

function same(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  return tryEncode(a) === tryEncode(b);
}

function compare(op: (typeof OPS)[number], actual: unknown, expected: unknown): boolean {
  if (op === "$eq") return same(actual, expected);
  if (op === "$ne") return !same(actual, expected);
  const comparable = (typeof actual === "number" && typeof expected === "number") || (typeof actual === "string" && typeof expected === "string");
  if (!comparable) return false;
  const a = actual as number | string;
  const e = expected as number | string;
  return op === "$gt" ? a > e : op === "$gte" ? a >= e : op === "$lt" ? a < e : a <= e;
}

const isOperatorObject = (v: unknown): v is Record<string, unknown> =>
  isRecord(v) && Object.keys(v).length > 0 && Object.keys(v).every((k) => k.startsWith("$"));

export function checkFilter(filter: StoreFilter | undefined): void {
  for (const v of Object.values(filter ?? {})) {
    if (!isOperatorObject(v)) continue;
    for (const op of Object.keys(v))
      if (!(OPS as readonly string[]).includes(op))
        throw new StoreError("INVALID_STORE_OPTION", `Unknown filter operator ${op} (known: ${OPS.join(", ")}).`, "filter");
  }
}

export function matches(value: Record<string, unknown>, filter: StoreFilter | undefined): boolean {
  if (filter === undefined) return true;
  for (const [k, expected] of Object.entries(filter)) {
    const actual = Object.hasOwn(value, k) ? value[k] : undefined;
    if (isOperatorObject(expected)) {
      for (const [op, x] of Object.entries(expected)) if (!compare(op as (typeof OPS)[number], actual, x)) return false;
    } else if (!same(actual, expected)) return false;
  }
  return true;
}

/** Distinct namespaces (joined) as LangGraph's listNamespaces returns them, sorted, paged. */
export function listNamespaces(all: Iterable<string>, o: ListNamespacesOptions = {}): string[][] {
  const prefix = o.prefix ?? [];
  const suffix = o.suffix ?? [];
  checkNamespace(prefix, "prefix");
  checkNamespace(suffix, "suffix");
  const limit = positive(o.limit, "limit", 100);
  const offset = positive(o.offset, "offset", 0);
  const depth = o.maxDepth === undefined ? undefined : positive(o.maxDepth, "maxDepth", 0);
  const seen = new Set<string>();
  for (const joined of all) {
    const ns = joined.split(SEP);
    if (prefix.some((p, i) => ns[i] !== p)) continue;
    if (suffix.length > ns.length || suffix.some((s, i) => ns[ns.length - suffix.length + i] !== s)) continue;
    seen.add((depth === undefined ? ns : ns.slice(0, depth)).join(SEP));
  }
  return [...seen]
    .sort()
    .slice(offset, offset + limit)
    .map((j) => j.split(SEP));
}

/** The texts of `value` at `paths` (`"$"` = the whole value as JSON); missing paths give no text. */
export function textsOf(value: Record<string, unknown>, paths: readonly string[]): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = [];
  for (const path of paths) {
    let v: unknown = value;
    if (path !== "$") {
      for (const part of path.split(".")) v = typeof v === "object" && v !== null ? (v as Record<string, unknown>)[part] : undefined;
    }
    if (v === undefined || v === null) continue;
    out.push({ path, text: typeof v === "string" ? v : JSON.stringify(v) });
  }
  return out;
}

export async function embedTexts(embed: Embedder, texts: string[]): Promise<number[][]> {
  if (texts.length === 0) return [];
  const vectors = typeof embed === "function" ? await embed(texts) : await embed.embedDocuments(texts);
  if (!Array.isArray(vectors) || vectors.length !== texts.length || vectors.some((v) => !Array.isArray(v)))
    throw new StoreError("INVALID_STORE_OPTION", `The embed function returned ${Array.isArray(vectors) ? vectors.length : "no"} vectors for ${texts.length} texts.`, "index.embed");
  return vectors;
}

export async function embedQuery(embed: Embedder, text: string): Promise<number[]> {
  return typeof embed === "function" ? (await embedTexts(embed, [text]))[0]! : embed.embedQuery(text);
}

export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
