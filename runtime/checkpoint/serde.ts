/**
 * Serialisation of checkpoint values: JSON text, extended so that a value read back is exactly the value
 * stored (`Object.is` on leaves, same keys, same array lengths).
 *
 * Supported beyond JSON: `undefined` (as a value, an object property or an array element), NaN, ±Infinity,
 * -0, bigint, Date, Map, Set, and objects with a null prototype (read back as plain objects). Shared
 * sub-objects are stored as copies. Anything else (functions, symbols, class instances, cycles) throws a
 * `CheckpointError` naming the path of the bad value, because storing it would silently change it. The one
 * exception: a `@langchain/core` message instance is stored as graphc's plain message (message-like.ts), the
 * form the `messages` reducer keeps anyway, so a node can return a chat model's AIMessage.
 *
 * Encoding: a non-JSON value becomes a tagged object `{"$g": tag, "v": …}`. A plain object that itself has a
 * `"$g"` key is wrapped as `{"$g":"o","v":{…}}`, so decoding is unambiguous. Plain JSON data (the common
 * case) is stored as `JSON.stringify` output and decoded with a bare `JSON.parse`.
 */
import { isLangChainMessage, toMessage } from "../message-like.ts";
import { CheckpointError } from "./errors.ts";
import { defineField } from "../objects.ts";

const TAG = "$g";

/** Encodes `value` as text. `label` names the value in errors (e.g. `channel "messages"`). */
export function encode(value: unknown, label = "value"): string {
  return tryEncode(value) ?? fail(value, label);
}

/**
 * `encode` without the error: undefined when the value cannot be stored. Hot callers use
 * `tryEncode(v) ?? encode(v, label)`, so they build label strings only for the error.
 */
export function tryEncode(value: unknown): string | undefined {
  // primitives (most pending writes and small channels) skip the walk
  switch (typeof value) {
    case "string":
    case "boolean":
      return JSON.stringify(value);
    case "number":
      // the same text as JSON's for a finite number, without entering JSON.stringify (~50 against ~9 ns)
      if (Number.isFinite(value) && !Object.is(value, -0)) return String(value);
      break;
    case "object":
      if (value === null) return "null";
  }
  let plain: boolean;
  try {
    plain = isPlainJson(value, WALK);
  } catch (e) {
    WALK.length = 0;
    if (e === UNSTORABLE) return undefined;
    throw e;
  }
  return JSON.stringify(plain ? value : toTagged(value));
}

function fail(value: unknown, label: string): never {
  // the fast walk keeps no paths; a second walk finds where the bad value is
  throw locate(value, label, []) ?? new CheckpointError("UNSERIALIZABLE_VALUE", `Cannot store ${label}.`, label);
}

/** The stack of the validating walk, reused by every `encode` (it is empty between calls). */
const WALK: object[] = [];

/** Decodes text produced by `encode`. Every call returns fresh objects. */
export function decode(text: string): unknown {
  const tree: unknown = JSON.parse(text);
  // the tag only appears as a key, so text without it has nothing to revive
  return text.includes(`"${TAG}"`) ? revive(tree) : tree;
}

/** Deep copy through the codec: what a saver would give back. */
export function roundTrip<T>(value: T, label?: string): T {
  return decode(encode(value, label)) as T;
}

/** Deep equality of two storable values, as the codec sees them (used for metadata filters). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  try {
    return encode(a) === encode(b);
  } catch {
    return false;
  }
}

/** Thrown by the fast walk for a value that cannot be stored; `locate` then builds the real error. */
const UNSTORABLE = new Error("unstorable value");

/**
 * True when `JSON.stringify(value)` already round-trips exactly. Throws UNSTORABLE for values that cannot
 * be stored at all (checked on the fast path too). Builds no path strings: it runs on every stored value.
 */
function isPlainJson(value: unknown, stack: object[]): boolean {
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(value) && !Object.is(value, -0);
    case "undefined":
    case "bigint":
      return false;
    case "object":
      break;
    default:
      throw UNSTORABLE;
  }
  if (value === null) return true;
  if (stack.includes(value)) throw UNSTORABLE;
  if (Array.isArray(value)) {
    stack.push(value);
    let plain = true;
    for (let i = 0; i < value.length; i++) {
      // holes read as undefined, which JSON would turn into null
      if (!(i in value) || !isPlainJson(value[i], stack)) plain = false;
    }
    stack.pop();
    return plain;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto === Date.prototype) return false;
  if (proto === Map.prototype || proto === Set.prototype) {
    stack.push(value);
    for (const member of value as Iterable<unknown>) isPlainJson(member, stack);
    stack.pop();
    return false;
  }
  if (proto !== Object.prototype && proto !== null) {
    if (!isLangChainMessage(value)) throw UNSTORABLE;
    // stored as its plain form (toTagged converts it): validate what will be stored
    isPlainJson(toMessage(value), stack);
    return false;
  }
  stack.push(value);
  let plain = !Object.hasOwn(value, TAG);
  for (const key of Object.keys(value)) {
    if (!isPlainJson((value as Record<string, unknown>)[key], stack)) plain = false;
  }
  stack.pop();
  return plain;
}

/** The error for the first unstorable value in `value` (same walk order as isPlainJson), with its path. */
function locate(value: unknown, path: string, stack: object[]): CheckpointError | undefined {
  const type = typeof value;
  if (type === "function" || type === "symbol") return unsupported(path, `a ${type}`);
  if (type !== "object" || value === null) return undefined;
  const obj = value as object;
  if (stack.includes(obj)) return cycle(path);
  const proto: unknown = Object.getPrototypeOf(obj);
  if (proto === Date.prototype) return undefined;
  if (isLangChainMessage(obj)) return locate(toMessage(obj), path, stack);
  if (!Array.isArray(obj) && proto !== Map.prototype && proto !== Set.prototype && proto !== Object.prototype && proto !== null) {
    return unsupported(path, className(obj));
  }
  stack.push(obj);
  let found: CheckpointError | undefined;
  if (Array.isArray(obj)) {
    for (let i = 0; i < obj.length && found === undefined; i++) found = locate(obj[i], `${path}[${i}]`, stack);
  } else if (obj instanceof Map) {
    for (const [k, v] of obj) {
      found = locate(k, `${path}.<key>`, stack) ?? locate(v, `${path}.get(${String(k)})`, stack);
      if (found !== undefined) break;
    }
  } else if (obj instanceof Set) {
    for (const v of obj) if ((found = locate(v, `${path}.<member>`, stack)) !== undefined) break;
  } else {
    for (const key of Object.keys(obj)) {
      if ((found = locate((obj as Record<string, unknown>)[key], `${path}.${key}`, stack)) !== undefined) break;
    }
  }
  stack.pop();
  return found;
}

/** Builds the tagged tree (called only after `isPlainJson` validated the value). */
function toTagged(value: unknown): unknown {
  switch (typeof value) {
    case "undefined":
      return { [TAG]: "u" };
    case "bigint":
      return { [TAG]: "b", v: value.toString() };
    case "number":
      if (Number.isFinite(value) && !Object.is(value, -0)) return value;
      return { [TAG]: "n", v: Object.is(value, -0) ? "-0" : String(value) };
    case "object":
      break;
    default:
      return value;
  }
  if (value === null) return null;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = toTagged(value[i]);
    return out;
  }
  if (value instanceof Date) {
    const time = value.getTime();
    return { [TAG]: "d", v: Number.isNaN(time) ? null : value.toISOString() };
  }
  if (value instanceof Map) return { [TAG]: "m", v: [...value].map(([k, v]) => [toTagged(k), toTagged(v)]) };
  if (value instanceof Set) return { [TAG]: "s", v: [...value].map(toTagged) };
  if (isLangChainMessage(value)) return toTagged(toMessage(value));
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    // defineProperty: a "__proto__" key must stay a key
    Object.defineProperty(out, key, {
      value: toTagged((value as Record<string, unknown>)[key]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return Object.hasOwn(value, TAG) ? { [TAG]: "o", v: out } : out;
}

function revive(tree: unknown): unknown {
  if (typeof tree !== "object" || tree === null) return tree;
  if (Array.isArray(tree)) {
    for (let i = 0; i < tree.length; i++) tree[i] = revive(tree[i]);
    return tree;
  }
  const obj = tree as Record<string, unknown>;
  return Object.hasOwn(obj, TAG) ? reviveTagged(obj) : reviveMembers(obj);
}

/** Revives the members of a plain object (not the object itself: its own "$g" key may be data). */
function reviveMembers(obj: Record<string, unknown>): Record<string, unknown> {
  for (const key of Object.keys(obj)) {
    const v = obj[key];
    if (typeof v === "object" && v !== null) {
      defineField(obj, key, revive(v));
    }
  }
  return obj;
}

function reviveTagged(obj: Record<string, unknown>): unknown {
  const v = obj.v;
  switch (obj[TAG]) {
    case "u":
      return undefined;
    case "n":
      return v === "-0" ? -0 : Number(v);
    case "b":
      return BigInt(v as string);
    case "d":
      return new Date(v === null ? Number.NaN : (v as string));
    case "m":
      return new Map((v as [unknown, unknown][]).map(([k, x]) => [revive(k), revive(x)]));
    case "s":
      return new Set((v as unknown[]).map(revive));
    case "o":
      return reviveMembers(v as Record<string, unknown>);
    default:
      throw new CheckpointError("CORRUPT_CHECKPOINT", `Stored value has an unknown type tag ${JSON.stringify(obj[TAG])}.`);
  }
}

function className(value: object): string {
  const ctor = (value as { constructor?: { name?: unknown } }).constructor;
  return typeof ctor?.name === "string" && ctor.name !== "" ? `an instance of class ${ctor.name}` : "a non-plain object";
}

function unsupported(path: string, what: string): CheckpointError {
  return new CheckpointError(
    "UNSERIALIZABLE_VALUE",
    `Cannot store ${path}: it is ${what}. Checkpoints hold plain data only (objects, arrays, strings, numbers, ` +
      `booleans, null, undefined, bigint, Date, Map, Set); convert it to plain data before returning it from a node.`,
    path,
  );
}

function cycle(path: string): CheckpointError {
  return new CheckpointError(
    "UNSERIALIZABLE_VALUE",
    `Cannot store ${path}: it contains a reference to itself (a cycle). Checkpoints hold trees of plain data.`,
    path,
  );
}
