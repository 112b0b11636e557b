/**
 * Deterministic ids. Task ids must be reproducible from (checkpoint id, namespace, step, node, trigger) so
 * that a resumed run finds the same pending writes and the same subgraph namespaces (reference §1.2); they
 * need no cryptographic strength, so a fast 128-bit non-cryptographic hash (four mixed 32-bit lanes) is used
 * instead of uuid5/SHA-1, which would need WebCrypto's async API or a node: import.
 */

function hash128(s: string): [number, number, number, number] {
  let h1 = 0x9e3779b1 ^ s.length;
  let h2 = 0x85ebca77;
  let h3 = 0xc2b2ae3d;
  let h4 = 0x27d4eb2f;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h3 = Math.imul(h3 ^ c, 0x1b873593);
    h4 = Math.imul(h4 ^ c, 0xcc9e2d51);
    h1 ^= h4 >>> 15;
    h2 ^= h1 >>> 13;
    h3 ^= h2 >>> 16;
    h4 ^= h3 >>> 11;
  }
  // final avalanche so that short, similar inputs give unrelated ids
  for (let r = 0; r < 2; r++) {
    h1 = Math.imul(h1 ^ (h1 >>> 16), 0x85ebca6b) ^ h3;
    h2 = Math.imul(h2 ^ (h2 >>> 13), 0xc2b2ae35) ^ h4;
    h3 = Math.imul(h3 ^ (h3 >>> 16), 0x85ebca6b) ^ h1;
    h4 = Math.imul(h4 ^ (h4 >>> 13), 0xc2b2ae35) ^ h2;
  }
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

function hex8(n: number): string {
  return n.toString(16).padStart(8, "0");
}

/** 32 hex characters (the shape of LangGraph's XXH3 interrupt ids). */
export function hashHex(s: string): string {
  const [a, b, c, d] = hash128(s);
  return hex8(a) + hex8(b) + hex8(c) + hex8(d);
}

/** A uuid-shaped (version 5 nibble) deterministic id of `name` within `namespace`. */
export function stableUuid(name: string, namespace: string): string {
  const h = hashHex(namespace + "\u0000" + name);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** is `s` a 32-hex interrupt id? (resume maps are recognised by their keys, as in LangGraph) */
export function isInterruptId(s: string): boolean {
  return /^[0-9a-f]{32}$/.test(s);
}

let lastMs = 0;
let counter = 0;

function randomHex(n: number): string {
  let s = "";
  while (s.length < n) s += Math.floor(Math.random() * 0x100000000).toString(16).padStart(8, "0");
  return s.slice(0, n);
}

/**
 * Time-ordered checkpoint id (uuid6-like): 48-bit milliseconds, a 12-bit counter for ids made within one
 * millisecond, the step in the clock-sequence field (-1 shows as ffff, as in LangGraph), then random bits.
 * Ids made by one process sort lexicographically in creation order.
 */
export function checkpointId(step: number): string {
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    counter = 0;
  } else if (++counter > 0xfff) {
    lastMs++;
    counter = 0;
  }
  const t = lastMs.toString(16).padStart(12, "0");
  const seq = (step & 0xffff).toString(16).padStart(4, "0");
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-6${counter.toString(16).padStart(3, "0")}-${seq}-${randomHex(12)}`;
}

export const NULL_TASK_ID = "00000000-0000-0000-0000-000000000000";
