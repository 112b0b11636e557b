/**
 * "Did you mean …?" suggestions: the closest candidate names by edit distance (Damerau–Levenshtein with
 * adjacent transpositions, so `serach` finds `search`), case-insensitive, within a threshold that grows with
 * the name's length. Deterministic: ties keep candidate order.
 */
import type { Span } from "../../grammar/span.ts";

export interface Candidate {
  readonly name: string;
  /** where the candidate is declared, printed as "(declared at file:line:col)" */
  readonly span?: Span | undefined;
}

/** Optimal-string-alignment distance between a and b. */
export function editDistance(a: string, b: string): number {
  const n = a.length;
  const m = b.length;
  if (n === 0) return m;
  if (m === 0) return n;
  // three rolling rows: two back (for transpositions), previous and current
  let prev2 = new Array<number>(m + 1).fill(0);
  let prev = Array.from({ length: m + 1 }, (_, j) => j);
  let cur = new Array<number>(m + 1).fill(0);
  for (let i = 1; i <= n; i++) {
    cur[0] = i;
    for (let j = 1; j <= m; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2]! + 1);
      cur[j] = v;
    }
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[m]!;
}

/** Largest distance still worth suggesting for a name of this length. */
function threshold(name: string): number {
  if (name.length <= 2) return 1;
  if (name.length <= 5) return 2;
  return Math.max(2, Math.floor(name.length / 3));
}

/**
 * The best suggestions for `name` among `candidates` (at most `max`, closest first). A candidate equal to
 * `name` is never suggested.
 */
export function suggest(name: string, candidates: Iterable<Candidate>, max = 1): Candidate[] {
  const lower = name.toLowerCase();
  const limit = threshold(name);
  const scored: { c: Candidate; dist: number; index: number }[] = [];
  let index = 0;
  const seen = new Set<string>();
  for (const c of candidates) {
    if (c.name === name || c.name === "" || seen.has(c.name)) continue;
    seen.add(c.name);
    const dist = c.name.toLowerCase() === lower ? 0 : editDistance(lower, c.name.toLowerCase());
    if (dist <= limit) scored.push({ c, dist, index: index++ });
  }
  scored.sort((x, y) => x.dist - y.dist || x.index - y.index);
  return scored.slice(0, max).map((s) => s.c);
}
