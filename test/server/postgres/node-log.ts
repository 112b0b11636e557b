/**
 * The log counted.graph's nodes write ("<ms> <key> <node> start|end", one line each, from whichever
 * worker process runs them): which nodes of a run are asleep now, and how often each started and ended.
 */
import { readFileSync } from "node:fs";

export interface NodeLine {
  at: number;
  key: string;
  node: string;
  what: "start" | "end";
}

export function readNodeLog(file: string, keep: (key: string) => boolean): NodeLine[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .map((l) => l.split(" "))
    .filter((f) => f.length === 4 && keep(f[1]!))
    .map(([at, key, node, what]) => ({ at: Number(at), key: key!, node: node!, what: what as "start" | "end" }));
}

/** What a run is doing now, from its lines since `since` (its last kill: earlier starts died with it). */
export function runActivity(lines: readonly NodeLine[], key: string, since: number): { open: Map<string, number>; lastEnd: number; seen: boolean } {
  const open = new Map<string, number>();
  let lastEnd = 0;
  let seen = false;
  for (const l of lines) {
    if (l.key !== key || l.at <= since) continue;
    seen = true;
    if (l.what === "start") open.set(l.node, l.at);
    else {
      open.delete(l.node);
      lastEnd = l.at;
    }
  }
  return { open, lastEnd, seen };
}

/**
 * Whether killing the run's process now cuts its nodes unambiguously: no node of it is near its end, and
 * none has just ended (its writes may be in flight). Safe: not started yet, or one node asleep since
 * 40 ms at least and for `sleepMs - 100` at most, with the last end ≥ 40 ms ago.
 */
export function safeToCut(activity: ReturnType<typeof runActivity>, now: number, sleepMs: number): boolean {
  if (!activity.seen) return true;
  if (activity.open.size !== 1) return false;
  const [at] = [...activity.open.values()];
  return now - at! >= 40 && now - at! <= sleepMs - 100 && now - activity.lastEnd >= 40;
}

/** "<key> <node>" → how many times it started and ended. */
export function nodeCounts(lines: readonly NodeLine[]): Map<string, { start: number; end: number }> {
  const count = new Map<string, { start: number; end: number }>();
  for (const l of lines) {
    const c = count.get(`${l.key} ${l.node}`) ?? { start: 0, end: 0 };
    c[l.what]++;
    count.set(`${l.key} ${l.node}`, c);
  }
  return count;
}
