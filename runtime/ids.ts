/**
 * Deterministic ids. Task ids must be reproducible from (checkpoint id, namespace, step, node, trigger) so
 * that a resumed run finds the same pending writes and the same subgraph namespaces (reference §1.2); they
 * need no cryptographic strength, so a fast 128-bit non-cryptographic hash (four mixed 32-bit lanes) is used
 * instead of uuid5/SHA-1, which would need WebCrypto's async API or a node: import.
 */

// Ids are written as character codes into an array (a uuid's has "-" between its fields) and made by one
// String.fromCharCode: one flat string. Concatenated pieces made a tree of ~13 strings that a saver had to
// flatten before keeping it (stored-saver.ts flatText): ~200 ns more per id, two ids per checkpointed step.
const DIGITS = "0123456789abcdef";

function dashes(): number[] {
  return Array<number>(36).fill(45);
}

/** Writes the low `digits` hex digits of `n` at `at`. */
function hexInto(buf: number[], at: number, n: number, digits: number): void {
  for (let i = at + digits - 1; i >= at; i--) {
    buf[i] = DIGITS.charCodeAt(n & 15);
    n >>>= 4;
  }
}

function fmix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** two independent 32-bit multiply-xor lanes over the string, expanded to 128 bits by final mixing */
function hash128(s: string, seedA = 0x811c9dc5, seedB = 0x9e3779b1): [number, number, number, number] {
  let a = seedA ^ s.length;
  let b = seedB;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 15);
  }
  const x = fmix(a ^ Math.imul(b, 0x27d4eb2f));
  const y = fmix(b ^ Math.imul(a, 0x165667b1));
  return [x, y, fmix(x ^ 0x68e31da4 ^ y), fmix(y ^ 0xb5297a4d ^ Math.imul(x, 0xcc9e2d51))];
}

/** 32 hex characters (the shape of LangGraph's XXH3 interrupt ids). */
export function hashHex(s: string): string {
  const id = Array<number>(32);
  hash128(s).forEach((n, i) => hexInto(id, 8 * i, n, 8));
  return String.fromCharCode(...id);
}

let TASK_ID: number[] | undefined;
let lastNs: string | undefined;
let seedA = 0;
let seedB = 0;

/** A uuid-shaped (version 5 nibble) deterministic id of `name` within `namespace`. */
export function stableUuid(name: string, namespace: string): string {
  if (namespace !== lastNs) {
    // the namespace (a checkpoint id) is shared by every task of a step: hash it once
    const [x, y] = hash128(namespace);
    lastNs = namespace;
    seedA = x;
    seedB = y;
  }
  const [a, b, c, d] = hash128(name, seedA, seedB);
  const id = (TASK_ID ??= dashes());
  hexInto(id, 0, a, 8);
  hexInto(id, 9, b >>> 16, 4);
  hexInto(id, 14, 0x5000 | (b & 0xfff), 4); // version 5
  hexInto(id, 19, 0x8000 | ((c >>> 16) & 0x3fff), 4); // variant 10
  hexInto(id, 24, c & 0xffff, 4);
  hexInto(id, 28, d, 8);
  return String.fromCharCode(...id);
}

/** is `s` a 32-hex interrupt id? (resume maps are recognised by their keys, as in LangGraph) */
export function isInterruptId(s: string): boolean {
  return /^[0-9a-f]{32}$/.test(s);
}

let lastMs = 0;
let counter = 0;
let lastIso = "";
let lastIsoMs = -1;

// the checkpoint id being written; its last 12 digits are random per process, like a uuid's node field: ids
// from different processes never collide (made on first use)
let CP_ID: number[] | undefined;

/**
 * Time-ordered checkpoint id (uuid6-like): 48-bit milliseconds, a 12-bit counter for ids made within one
 * millisecond, the step in the clock-sequence field (-1 shows as ffff, as in LangGraph), then a random
 * per-process node id. Ids made by one process sort lexicographically in creation order.
 */
export function checkpointId(step: number): string {
  let id = CP_ID;
  if (id === undefined) {
    id = CP_ID = dashes();
    hexInto(id, 24, Math.random() * 0x100000000, 8);
    hexInto(id, 32, Math.random() * 0x10000, 4);
  }
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    counter = 0;
  } else if (++counter > 0xfff) {
    lastMs++;
    counter = 0;
  }
  hexInto(id, 0, Math.floor(lastMs / 0x10000), 8);
  hexInto(id, 9, lastMs & 0xffff, 4);
  hexInto(id, 14, 0x6000 | counter, 4);
  hexInto(id, 19, step & 0xffff, 4);
  return String.fromCharCode(...id);
}

/** ISO timestamp of the last checkpoint id's millisecond (cached: formatting dates is slow) */
export function checkpointTs(): string {
  if (lastIsoMs !== lastMs) {
    lastIsoMs = lastMs;
    lastIso = new Date(lastMs).toISOString();
  }
  return lastIso;
}

export const NULL_TASK_ID = "00000000-0000-0000-0000-000000000000";
