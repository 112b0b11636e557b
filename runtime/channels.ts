/**
 * The loop's own channels of one graph level (LangGraph's `branch:to:X`, `join:a+b:c`, `__pregel_tasks` and
 * `__start__`), as flat tables indexed by node and join, and the candidates they make for the next step.
 * Data fields are not here: they live in the loop's `values`, merged by the generated `apply`.
 *
 * The superstep loop writes and reads the tables in its hot path; durable execution saves them into a
 * checkpoint (`saveChannels`) and rebuilds them from one (`restoreChannels`) through this unit, not field by
 * field.
 */
import type { CNode, Compiled } from "./compiled.ts";
import type { Values } from "./spec.ts";
import { START, Send } from "./spec.ts";

const NO_JOINS: Barrier[] = [];
const NO_FIN: boolean[] = [];
// shared initial value (frozen: a stray write fails loudly instead of leaking between runs)
const NO_SENDS = Object.freeze([]) as unknown as Send[];

const BRANCH = "branch:to:";

/**
 * A `join:…` barrier: the names of the sources seen so far, in arrival order (LangGraph's NamedBarrierValue,
 * a set). Sources that are nodes of the graph are also marked by node index, so that a fan-in of many tasks
 * tests and adds each one without hashing its name (a Set costs ~45 ns per name, a mark ~5).
 */
export class Barrier {
  readonly names: string[] = [];
  private readonly mark: Uint8Array;

  constructor(private readonly c: Compiled) {
    this.mark = new Uint8Array(c.nodes.length);
  }

  get size(): number {
    return this.names.length;
  }

  /** adds a node's name; false when it is already there */
  addNode(n: CNode): boolean {
    if (n.idx < 0) return this.add(n.name);
    if (this.mark[n.idx]) return false;
    this.mark[n.idx] = 1;
    this.names.push(n.name);
    return true;
  }

  /** adds a name (from a checkpoint); false when it is already there */
  add(name: string): boolean {
    const n = this.c.byName.get(name);
    if (n !== undefined) return this.addNode(n);
    if (this.names.includes(name)) return false;
    this.names.push(name);
    return true;
  }

  clear(): void {
    if (this.names.length === 0) return;
    this.names.length = 0;
    this.mark.fill(0);
  }
}

/** A graph's tables with the channels of its last finished loop, for its next loop (Loop's constructor and finish). */
export interface Pooled extends Compiled {
  spare?: Channels | undefined;
}

export class Channels {
  /** `branch:to:X` set, by node index (deferred nodes' triggers outlive the step) */
  readonly trig: Uint8Array;
  /** a deferred node's trigger became available (`finish()`); the same table as `trig` without deferred nodes */
  readonly trigFin: Uint8Array;
  /** non-deferred nodes whose trigger is set (cleared after the next step); buffers reused across steps */
  readonly active: CNode[];
  activeN = 0;
  /** `join:…` barriers: the sources seen so far, by join index */
  readonly joinSeen: Barrier[];
  readonly joinFin: boolean[];
  /** `__pregel_tasks`: the Send packets for the next step */
  sends: Send[] = NO_SENDS;
  /** `__start__`: the input, until the hidden start task has written it */
  startInput: Values | undefined;
  /** candidate nodes for the next step (`candN` of `candBuf`), or every node when `scanAll` */
  readonly candBuf: CNode[];
  candN = 0;
  /** scratch marks by rank for sorting many candidates (byRank) */
  rankMark: Uint8Array | undefined;
  scanAll = false;

  constructor(readonly c: Compiled) {
    const n = c.nodes.length;
    this.trig = new Uint8Array(n);
    // room for one entry per node, filled with anything (only the first `activeN`/`candN` are read): an
    // empty list's first write would allocate room for 16, for every graph level of every run
    this.active = [...c.nodes];
    this.candBuf = [...c.nodes];
    this.trigFin = c.hasDeferred ? new Uint8Array(n) : this.trig;
    this.joinSeen = c.joins.length === 0 ? NO_JOINS : c.joins.map(() => new Barrier(c));
    this.joinFin = c.joins.length === 0 ? NO_FIN : c.joins.map(() => false);
  }

  /** ephemeral triggers live for one step */
  clearActive(): void {
    for (let i = 0; i < this.activeN; i++) this.trig[this.active[i]!.idx] = 0;
    this.activeN = 0;
  }

  resetCands(): void {
    this.candN = 0;
    this.scanAll = false;
  }

  consumeJoin(j: number): void {
    this.joinSeen[j]!.clear();
    this.joinFin[j] = false;
  }

  /** A task ran on its trigger: a barrier is consumed, a deferred node's trigger too. */
  consume(t: { readonly joinTrigger: number; readonly cn: CNode; readonly trigger: string }): void {
    if (t.joinTrigger >= 0) this.consumeJoin(t.joinTrigger);
    if (t.cn.defer && t.trigger === t.cn.triggerKey) this.trig[t.cn.idx] = this.trigFin[t.cn.idx] = 0;
  }

  /** the first `count` candidates in name order without duplicates: marked by rank, then read off in order */
  byRank(count: number): CNode[] {
    const mark = (this.rankMark ??= new Uint8Array(this.c.nodes.length));
    const cands = this.candBuf;
    for (let i = 0; i < count; i++) mark[cands[i]!.rank] = 1;
    const out: CNode[] = [];
    const sorted = this.c.sorted;
    for (let r = 0; r < sorted.length; r++) {
      if (mark[r]) {
        mark[r] = 0;
        out.push(sorted[r]!);
      }
    }
    return out;
  }
}

// Outside the class, so that a bundle without durable execution (or Command input) drops them.

/** Sets a node's trigger outside a step (a Command's goto given as input); every node is a candidate. */
export function setTrigger(ch: Channels, n: CNode): void {
  if (!ch.trig[n.idx]) {
    ch.trig[n.idx] = 1;
    if (!n.defer) ch.active[ch.activeN++] = n;
  }
}

/** The channels as a checkpoint's `channel_values`, added to `cv` (LangGraph's layout). */
export function saveChannels(ch: Channels, cv: Record<string, unknown>): void {
  const c = ch.c;
  for (let i = 0; i < ch.activeN; i++) cv[ch.active[i]!.triggerKey] = null;
  for (const n of c.deferred) if (ch.trig[n.idx]) cv[n.triggerKey] = [null, ch.trigFin[n.idx] === 1];
  c.joins.forEach((cj, j) => {
    const s = ch.joinSeen[j]!;
    if (s.size > 0) cv[cj.key] = cj.deferred ? [s.names.slice(), ch.joinFin[j]] : s.names.slice();
  });
  if (ch.sends.length > 0) cv["__pregel_tasks"] = ch.sends.map((s) => ({ node: s.node, arg: s.arg }));
  if (ch.startInput !== undefined) cv[START] = ch.startInput;
}

/**
 * Rebuilds the channels from a checkpoint's `channel_values` and returns the data fields (every other
 * key). Channels of nodes or joins this graph no longer has are dropped. Every node is then a candidate.
 */
export function restoreChannels(ch: Channels, channelValues: Readonly<Record<string, unknown>>): Values {
  const c = ch.c;
  const values: Values = {};
  ch.trig.fill(0);
  ch.trigFin.fill(0);
  ch.clearActive();
  for (const s of ch.joinSeen) s.clear();
  ch.joinFin.fill(false);
  ch.sends = [];
  ch.startInput = undefined;
  for (const k of Object.keys(channelValues)) {
    const v = channelValues[k];
    if (k.startsWith(BRANCH)) {
      const n = c.byName.get(k.slice(BRANCH.length));
      if (!n) continue;
      ch.trig[n.idx] = 1;
      if (n.defer) ch.trigFin[n.idx] = Array.isArray(v) && v[1] ? 1 : 0;
      else ch.active[ch.activeN++] = n;
    } else if (k.startsWith("join:")) {
      const j = c.joinByKey.get(k);
      if (j === undefined) continue;
      const deferred = c.joins[j]!.deferred;
      const seen = (deferred ? (v as [string[], boolean])[0] : (v as string[])) ?? [];
      for (const s of seen) ch.joinSeen[j]!.add(s);
      if (deferred) ch.joinFin[j] = (v as [string[], boolean])[1] === true;
    } else if (k === "__pregel_tasks") {
      ch.sends = (v as { node: string; arg: unknown }[]).map((p) => new Send(p.node, p.arg));
    } else if (k === START) {
      ch.startInput = v as Values;
    } else values[k] = v;
  }
  ch.scanAll = true;
  return values;
}
