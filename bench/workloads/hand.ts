/**
 * The hand-written equivalents of the workloads: plain loops that do the same user work (the same step
 * functions) and produce the same final state as graphc and LangGraph.js, with no runtime at all.
 */
import { collect, stepOf, workOf, type Counted } from "./nodes.ts";

export const W1_NAMES = Array.from({ length: 100 }, (_, i) => `n${i}`);
export const W5_NAMES = ["a", "b", "c"];
export const W2_WORKERS = Array.from({ length: 50 }, (_, i) => `w${i}`);

export function chain(names: readonly string[], input: Counted): Counted {
  let s = input;
  for (const n of names) {
    const u = stepOf(n, s);
    s = { count: u.count, log: s.log.concat(u.log) };
  }
  return s;
}

/** The same chain with an `await` per node: the cost of an async step boundary. */
export async function chainAwait(names: readonly string[], input: Counted): Promise<Counted> {
  let s = input;
  for (const n of names) {
    const u = await stepOf(n, s);
    s = { count: u.count, log: s.log.concat(u.log) };
  }
  return s;
}

/** W6's hand-written base: the chain plus a JSON snapshot of the state after every step, kept per thread. */
export function chainSnapshots(
  names: readonly string[],
  input: Counted,
  store: Map<string, string[]>,
  thread: string,
): Counted {
  const snaps: string[] = [JSON.stringify(input)];
  store.set(thread, snaps);
  let s = input;
  for (const n of names) {
    const u = stepOf(n, s);
    s = { count: u.count, log: s.log.concat(u.log) };
    snaps.push(JSON.stringify(s));
  }
  return s;
}

/** W2: the workers' writes are applied in task-name order (w0, w1, w10, …), as LangGraph does. */
const W2_ORDER = [...W2_WORKERS].sort();

export function fanOut(): { results: number[]; total: number } {
  let results: number[] = [];
  for (const w of W2_ORDER) results = results.concat(workOf(w).results);
  return { results, total: collect({ results }).total };
}

/**
 * W3: each subgraph gets the parent's state and hands its whole state back, so the appended log is
 * appended again at every level (LangGraph's behaviour, reproduced by graphc).
 */
export function nested(input: Counted): Counted {
  const level = (
    s: Counted,
    before: string,
    inner: ((s: Counted) => Counted) | undefined,
    after: string,
  ): Counted => {
    let x = chain([before], s);
    if (inner) {
      const out = inner(x);
      x = { count: out.count, log: x.log.concat(out.log) };
    }
    return chain([after], x);
  };
  const grandchild = (s: Counted) => chain(["g1", "g2", "g3"], s);
  const child = (s: Counted) => level(s, "c1", grandchild, "c3");
  return level(input, "p1", child, "p3");
}
