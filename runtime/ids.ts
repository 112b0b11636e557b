/**
 * Deterministic ids. Task ids must be reproducible from (checkpoint id, namespace, step, node, trigger) so
 * that a resumed run finds the same pending writes and the same subgraph namespaces (reference §1.2); they
 * need no cryptographic strength, so a fast 128-bit non-cryptographic hash (four mixed 32-bit lanes) is used
 * instead of uuid5/SHA-1, which would need WebCrypto's async API or a node: import.
 */

const HEX: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

function hex8(n: number): string {
  return HEX[n >>> 24]! + HEX[(n >>> 16) & 255]! + HEX[(n >>> 8) & 255]! + HEX[n & 255]!;
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
  const [a, b, c, d] = hash128(s);
  return hex8(a) + hex8(b) + hex8(c) + hex8(d);
}

let lastNs = "";
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
  return (
    hex8(a) +
    "-" +
    HEX[b >>> 24]! +
    HEX[(b >>> 16) & 255]! +
    "-5" +
    HEX[(b >>> 8) & 15]!.charAt(1) +
    HEX[b & 255]! +
    "-" +
    HEX[((c >>> 24) & 0x3f) | 0x80]! +
    HEX[(c >>> 16) & 255]! +
    "-" +
    HEX[(c >>> 8) & 255]! +
    HEX[c & 255]! +
    hex8(d)
  );
}

/** is `s` a 32-hex interrupt id? (resume maps are recognised by their keys, as in LangGraph) */
export function isInterruptId(s: string): boolean {
  return /^[0-9a-f]{32}$/.test(s);
}

let lastMs = 0;
let counter = 0;
let lastIso = "";
let lastIsoMs = -1;

function randomHex(n: number): string {
  let s = "";
  while (s.length < n) s += hex8((Math.random() * 0x100000000) >>> 0);
  return s.slice(0, n);
}

/** random per process, like a uuid's node field: ids from different processes never collide (made on first use) */
let NODE = "";

/**
 * Time-ordered checkpoint id (uuid6-like): 48-bit milliseconds, a 12-bit counter for ids made within one
 * millisecond, the step in the clock-sequence field (-1 shows as ffff, as in LangGraph), then a random
 * per-process node id. Ids made by one process sort lexicographically in creation order.
 */
export function checkpointId(step: number): string {
  if (NODE === "") NODE = randomHex(12);
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    counter = 0;
  } else if (++counter > 0xfff) {
    lastMs++;
    counter = 0;
  }
  const hi = Math.floor(lastMs / 0x10000);
  const lo = lastMs & 0xffff;
  const t = hex8(hi) + HEX[lo >>> 8]! + HEX[lo & 255]!;
  const seq = step & 0xffff;
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-6${(counter >>> 8).toString(16)}${HEX[counter & 255]!}-${HEX[seq >>> 8]!}${HEX[seq & 255]!}-${NODE}`;
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
