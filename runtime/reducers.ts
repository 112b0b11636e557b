/**
 * Built-in reducers and the helpers generated `apply()` code calls to fold one superstep's writes into a
 * field. Reducers never mutate their inputs (older checkpoints and routers' fresh reads share values),
 * except a list the lean loop lends because only it can see it (`lend` below).
 */
import { InvalidUpdateError, lastValueConflict, safeJson } from "./errors.ts";
import { toMessage, type Message } from "./message-like.ts";

// ---------------------------------------------------------------------------------------------------------
// Overwrite (reference §3): replaces a reducer field's value without calling the reducer.

export class Overwrite<T = unknown> {
  readonly lg_name = "Overwrite";
  constructor(readonly value: T) {}
}

/** `new Overwrite(v)`, or the wire forms `{__overwrite__: v}` / `{type: "__overwrite__", value: v}`. */
export function isOverwrite(x: unknown): boolean {
  if (typeof x !== "object" || x === null || Array.isArray(x)) return false;
  if (x instanceof Overwrite) return true;
  return "__overwrite__" in x || (x as { type?: unknown }).type === "__overwrite__";
}

export function overwriteValue(x: unknown): unknown {
  if (x instanceof Overwrite) return x.value;
  const o = x as { __overwrite__?: unknown; value?: unknown };
  return "__overwrite__" in o ? o.__overwrite__ : o.value;
}

// LangGraph's rules: the first write into an unset field is stored as it is; an Overwrite replaces what
// was folded before it and later plain writes of the same step are ignored; two Overwrites in one step are
// an error. Generated code calls the variant its emitter chose for the field (below).
/** Folds a reducer field's writes of one step, in order (the general form, for specs written by hand). */
export function fold<T>(
  graph: string,
  field: string,
  has: boolean,
  current: T,
  writes: readonly unknown[],
  op: (a: T, b: never) => T,
): T {
  return foldMaybe(graph, field, has, current, writes as readonly never[], op);
}

/** One write into a reducer field (the general form; see `oneSet` / `oneMaybe`). */
export function foldOne<T>(has: boolean, current: T, write: unknown, op: (a: T, b: never) => T): T {
  return oneMaybe(has, current, write as never, op);
}

// ---------------------------------------------------------------------------------------------------------
// Fold variants: graphc's emitter picks one per field when it generates `apply` (its reducer registry,
// compiler/reducers), so nothing is decided at run time by flags or by comparing functions. `W` is what a
// node may write (the field's update type without the Overwrite), `T` the field's type.

/** A replace field's one write: an Overwrite is unwrapped (as LangGraph's LastValue does). */
export function lastValue<T>(write: T): T {
  return isOverwrite(write) ? (overwriteValue(write) as T) : write;
}

/** One write into a reducer field that always holds a value (a default or the reducer's empty value). */
export function oneSet<T, W>(current: T, write: W | Overwrite<T>, op: (a: T, b: W) => T): T {
  return isOverwrite(write) ? (overwriteValue(write) as T) : op(current, write as W);
}

/** One write into a reducer field that may be unset (`has`): the first write is stored as it is. */
export function oneMaybe<T, W>(has: boolean, current: T, write: W | Overwrite<T>, op: (a: T, b: W) => T): T {
  if (isOverwrite(write)) return overwriteValue(write) as T;
  return has ? op(current, write as W) : (write as unknown as T);
}

/** Several writes into a reducer field that always holds a value. */
export function foldSet<T, W>(
  graph: string,
  field: string,
  current: T,
  writes: readonly (W | Overwrite<T>)[],
  op: (a: T, b: W) => T,
): T {
  return foldMaybe(graph, field, true, current, writes, op);
}

/** Several writes into a reducer field that may be unset (`has`). */
export function foldMaybe<T, W>(
  graph: string,
  field: string,
  has: boolean,
  current: T,
  writes: readonly (W | Overwrite<T>)[],
  op: (a: T, b: W) => T,
): T {
  let acc = current;
  let hasAcc = has;
  let overwritten = false;
  for (const w of writes) {
    if (isOverwrite(w)) {
      if (overwritten) throw twoOverwrites(graph, field, writes);
      overwritten = true;
      acc = overwriteValue(w) as T;
      hasAcc = true;
    } else if (overwritten) {
      continue;
    } else if (!hasAcc) {
      acc = w as unknown as T;
      hasAcc = true;
    } else {
      acc = op(acc, w as W);
    }
  }
  return acc;
}

// When every write is a plain array without holes: one copy instead of a growing copy per write.
/** Several writes into an `append` field that always holds a value, applied in order. */
export function foldAppend<E>(
  graph: string,
  field: string,
  current: E[],
  writes: readonly (E | readonly E[] | Overwrite<E[]>)[],
): E[] {
  // pushing each write's items onto a copy gives what `concat` would (see `concatArrays`); a fan-out's 50
  // one-element writes cost ~0.3 µs so, where `concat` of 50 lists costs ~1 µs
  let copy = true;
  for (const w of writes) if (!Array.isArray(w) || !copyIsConcat(current, w) || !noHoles(w)) copy = false;
  if (copy) return (writes as E[][]).reduce(pushAll, current.slice());
  return foldMaybe(graph, field, true, current, writes, append);
}

function twoOverwrites(graph: string, field: string, writes: readonly unknown[]): InvalidUpdateError {
  return new InvalidUpdateError(
    `Invalid update for channel "${field}" with values ${safeJson(writes)}: Can receive only one Overwrite value per step.`,
    { graph, field },
  );
}

/** A replace field (no reducer): exactly one write per step, else LangGraph's LastValue error. */
export function replace<T>(graph: string, field: string, writes: readonly T[]): T {
  if (writes.length !== 1) throw lastValueConflict(graph, field, writes);
  return lastValue(writes[0]!);
}

// ---------------------------------------------------------------------------------------------------------
// Lending (docs/runtime.md, "Owned lists"): the lean loop lends the list of a `messages` or `append` field
// that only it can see
// (no node reads it, no router or send function gets the state, no saver or stream) for the synchronous
// span of one single-task step's apply. A merge of the lent list appends to it in place instead of copying
// it; any merge of it (in place or a copy) makes the result the lent list, so that later writes of the same
// apply continue in place. A list the loop does not own yet (an Overwrite put a node's list there) is lent
// as a candidate: its merge copies as always, and the copy becomes the lent list. Only arrays derived from
// the lent one are ever grown, so a merge of any other list (another loop's, a caller's) copies.

let lent: unknown;
/** `lent` is a candidate: merge it by copying, then own the copy */
let candidate = false;

/** Lends `list` until `reclaim()`: grown in place when `owned`, else its merged copy becomes owned. */
export function lend(list: unknown, owned: boolean): void {
  lent = list;
  candidate = !owned;
}

/** Ends a loan: the list now owned (the lent one, or what merges made of it), or undefined. */
export function reclaim(): readonly unknown[] | undefined {
  const l = candidate ? undefined : lent;
  lent = undefined;
  return l as readonly unknown[] | undefined;
}

/** a merge of the lent list returned `out`: it is the lent, owned list from now on */
function keepLent<T>(out: T): T {
  lent = out;
  candidate = false;
  return out;
}

function pushAll<T>(list: T[], items: readonly T[]): T[] {
  for (let i = 0; i < items.length; i++) list.push(items[i]!);
  return list;
}

// ---------------------------------------------------------------------------------------------------------
// append, sum, merge, union

/** Array concatenation; a single (non-array) update is appended as one element. */
export function append<T>(current: readonly T[] | undefined, update: T | readonly T[]): T[] {
  if (current === undefined || current !== lent) return appendCopy(current ?? [], update);
  // a lent list (`lend`): grown in place when owned and when `push` gives what `concat` would
  const items = Array.isArray(update) ? (update as readonly T[]) : [update as T];
  return keepLent(!candidate && copyIsConcat(current, items) && noHoles(items) ? pushAll(current as T[], items) : appendCopy(current, update));
}

function appendCopy<T>(base: readonly T[], update: T | readonly T[]): T[] {
  return Array.isArray(update) ? concatArrays(base, update as readonly T[]) : [...base, update as T];
}

function noHoles(a: readonly unknown[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] === undefined && !has(a, i)) return false;
  return true;
}

/** up to this many elements a copy loop beats `concat` (measured: ~20 ns against ~90 ns for 3 + 1) */
const SMALL_CONCAT = 32;
const SPREADABLE = Symbol.isConcatSpreadable;

/** a plain Array (`concat`'s result is made by `a.constructor`) and neither says whether `concat` spreads it */
function copyIsConcat(a: object, b: object): boolean {
  return a.constructor === Array && !(SPREADABLE in a) && !(SPREADABLE in b);
}

/** index `i` is not a hole of `a` */
function has(a: readonly unknown[], i: number): boolean {
  return i in a;
}

/**
 * `a.concat(b)` for two arrays. V8's `concat` has a high fixed cost, which short lists (a log, a
 * subgraph's few entries) pay at every step; they are copied by a loop instead. Everything where the copy
 * could differ from `concat` takes `concat`: a subclass of Array (its species makes the result), an
 * `isConcatSpreadable` override, a hole (which `concat` keeps).
 */
function concatArrays<T>(a: readonly T[], b: readonly T[]): T[] {
  const n = a.length;
  const m = b.length;
  if (n + m > SMALL_CONCAT || !copyIsConcat(a, b)) return a.concat(b);
  const out = new Array<T>(n + m);
  for (let i = 0; i < n; i++) {
    const x = a[i];
    if (x === undefined && !has(a, i)) return a.concat(b);
    out[i] = x!;
  }
  for (let i = 0; i < m; i++) {
    const x = b[i];
    if (x === undefined && !has(b, i)) return a.concat(b);
    out[n + i] = x!;
  }
  return out;
}

export function sum(current: number | undefined, update: number): number {
  return (current ?? 0) + update;
}

/** Shallow object merge; keys of the update win. */
export function merge<T extends object>(current: T | undefined, update: Partial<T>): T {
  return { ...current, ...update } as T;
}

/** Ordered, de-duplicated array union (`===` identity, first occurrence kept). */
export function union<T>(current: readonly T[] | undefined, update: T | readonly T[]): T[] {
  const base = current ?? [];
  const seen = new Set<T>(base);
  const out = base.slice();
  const items = Array.isArray(update) ? (update as readonly T[]) : [update as T];
  for (const x of items) {
    if (!seen.has(x)) {
      seen.add(x);
      out.push(x);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// messages (LangGraph's add_messages / messagesStateReducer, reference §3)

/** LangGraph's REMOVE_ALL_MESSAGES id */
export const REMOVE_ALL_MESSAGES = "__remove_all__";

/** Deletes the message with this id (or every earlier message, with `REMOVE_ALL_MESSAGES`). */
export class RemoveMessage {
  readonly type = "remove";
  readonly role = "remove";
  constructor(readonly id: string) {}
}

/** a removal: graphc's RemoveMessage, LangChain's (as a plain message) or its dict form, told by `type` as LangGraph does */
function isRemove(m: Message | RemoveMessage): boolean {
  return m.type === "remove";
}

function uuid(): string {
  const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (c?.randomUUID) return c.randomUUID();
  // fallback for runtimes without WebCrypto: ids only need to be unique within a thread
  const h = () =>
    Math.floor(Math.random() * 0x100000000)
      .toString(16)
      .padStart(8, "0");
  const s = h() + h() + h() + h();
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-4${s.slice(13, 16)}-a${s.slice(17, 20)}-${s.slice(20, 32)}`;
}

/**
 * A message-like value (string, tuple, LangChain instance …, message-like.ts) as a plain message; one
 * without id gets one, written back into the object when it is the caller's plain message.
 */
function coerce(m: unknown): Message {
  const msg = toMessage(m);
  if (msg.id === undefined || msg.id === null) {
    if (Object.isExtensible(msg)) msg.id = uuid();
    else return { ...msg, id: uuid() };
  }
  return msg;
}

/**
 * id → index maps shared by a lineage of message arrays. Arrays only grow by appending or replace in place
 * on the fast path, so an index recorded for one array is valid for every array of its lineage that is
 * long enough and holds that id there; a stale hit falls back to a scan. This keeps a step's cost
 * independent of the history length (apart from the array copy).
 */
const lineage = new WeakMap<readonly Message[], Map<string, number>>();
/**
 * The newest array and its map, not yet in `lineage`: a loop that appends a message per step merges into
 * the array it made at the step before, which then never needs a WeakMap entry (adding one per step was a
 * large part of the step's cost and of its garbage collection). It goes into `lineage` when an array of
 * another lineage takes its place. (Held strongly: the last history merged stays alive until the next
 * merge, at most one array.)
 */
let lastArr: readonly Message[] | undefined;
let lastMap: Map<string, number> | undefined;

function mapOf(arr: readonly Message[]): Map<string, number> | undefined {
  return arr === lastArr ? lastMap : lineage.get(arr);
}

function remember(arr: readonly Message[], map: Map<string, number>): void {
  if (lastArr !== undefined && lastMap !== map) lineage.set(lastArr, lastMap!);
  lastArr = arr;
  lastMap = map;
}


function indexOf(arr: readonly Message[], map: Map<string, number>, id: string): number {
  const i = map.get(id);
  if (i === undefined) return -1;
  if (i < arr.length && arr[i]!.id === id) return i;
  for (let k = 0; k < arr.length; k++) if (arr[k]!.id === id) return k;
  return -1;
}

/** no removal, no id known to the lineage, no id twice: the update only appends */
function allNew(right: readonly Message[], map: ReadonlyMap<string, number>): boolean {
  for (let i = 0; i < right.length; i++) {
    const m = right[i]!;
    if (isRemove(m) || map.has(m.id!)) return false;
    for (let k = 0; k < i; k++) if (right[k]!.id === m.id) return false;
  }
  return true;
}

/** LangGraph's `add_messages`: appends new messages, replaces those whose id is known, applies removals. */
export function messages(current: readonly unknown[] | undefined, update: unknown): Message[] {
  if (current === undefined || current !== lent) return mergeCopy(current, update, false);
  return keepLent(mergeCopy(current, update, !candidate));
}

// The field's type may be the user's own message type (compatible with plain messages), so generated
// code folds it without a cast.
/** `messages` typed by the field. */
export function addMessages<T extends readonly unknown[]>(current: T | undefined, update: unknown): T {
  return messages(current, update) as unknown as T;
}

/** `add_messages`; `grow`: `current` is lent and owned, new messages are appended to it in place */
function mergeCopy(current: readonly unknown[] | undefined, update: unknown, grow: boolean): Message[] {
  const rawLeft = current ?? [];
  let left = rawLeft as Message[];
  let map = mapOf(left);
  if (map === undefined) {
    left = rawLeft.map(coerce);
    map = new Map();
    for (let i = 0; i < left.length; i++) if (!map.has(left[i]!.id!)) map.set(left[i]!.id!, i);
  }
  // the update's messages coerced: its own list when each of them is a message with an id already (a node's
  // `[message]`, each step of a messages loop); nothing here writes to it
  const items = Array.isArray(update) ? update : [update];
  const right: readonly Message[] = items.every((m) => coerce(m) === m) ? items : items.map(coerce);

  // the common case, new messages only (so no removal): one copy (a slice followed by pushes would copy
  // twice as it grows)
  if (allNew(right, map)) {
    for (let i = 0; i < right.length; i++) map.set(right[i]!.id!, left.length + i);
    // a plain array (a subclass may override push); `left` is the lent list itself when its map was known
    const merged = grow && left === rawLeft && left.constructor === Array ? pushAll(left, right) : left.concat(right);
    remember(merged, map);
    return merged;
  }
  for (let i = right.length - 1; i >= 0; i--) if (isRemove(right[i]!) && right[i]!.id === REMOVE_ALL_MESSAGES) return right.slice(i + 1);
  const merged = left.slice();
  let removed: Set<string> | undefined;
  for (const m of right) {
    const id = m.id!;
    const at = indexOf(merged, map, id);
    if (at >= 0) {
      if (isRemove(m)) (removed ??= new Set()).add(id);
      else {
        removed?.delete(id);
        merged[at] = m;
      }
    } else {
      if (isRemove(m)) throw new Error(`Attempting to delete a message with an ID that doesn't exist ('${id}')`);
      if (!map.has(id)) map.set(id, merged.length);
      merged.push(m);
    }
  }
  if (removed?.size) {
    const kept = merged.filter((m) => !removed.has(m.id!));
    const fresh = new Map<string, number>();
    kept.forEach((m, i) => fresh.set(m.id!, i));
    remember(kept, fresh);
    return kept;
  }
  remember(merged, map);
  return merged;
}
