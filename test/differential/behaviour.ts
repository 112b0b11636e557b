/**
 * What the generated nodes, routers and send functions do, derived from the description only. Both sides
 * call exactly these functions (graphc through the generated `.nodes.ts` module, LangGraph directly), so any
 * difference in results comes from the runtimes. Everything is a pure function of its input: the written
 * values are hashes of the (canonical) input, so a wrong projection, a wrong "fresh" state for a router or
 * a wrong Send argument changes the output.
 */
import type { BranchDesc, CommandNode, Cond, FnNode, GraphDesc, Operand, Program, Reducer } from "./model.ts";
import { END, fieldOf } from "./model.ts";

type Values = Record<string, unknown>;

/** The runtime's constructors, injected so this file depends on neither runtime. */
export interface Ctors {
  send(node: string, arg: unknown): unknown;
  command(update: Values, goto: string | string[]): unknown;
  /** the runtime's END constant */
  readonly end: string;
}

/** JSON with object keys sorted, so key order (which differs between runtimes) never matters. */
export function canon(v: unknown): string {
  if (v === undefined) return "undefined";
  if (v === null || typeof v !== "object") return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(canon).join(",")}]`;
  const o = v as Values;
  return `{${Object.keys(o)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canon(o[k])}`)
    .join(",")}}`;
}

/** FNV-1a, 32 bits. */
export function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** The keys of `reads` that are present in `v` (a runtime leaves unset fields out of a node's input). */
export function pick(v: Values, reads: readonly string[]): Values {
  const out: Values = {};
  for (const k of reads) if (Object.prototype.hasOwnProperty.call(v, k) && v[k] !== undefined) out[k] = v[k];
  return out;
}

function valueFor(reducer: Reducer, tag: string, h: number): unknown {
  switch (reducer) {
    case "replace":
      return `${tag}:${h % 1000}`;
    case "append":
      return [`${tag}:${h % 1000}`];
    case "sum":
      return 1 + (h % 5);
  }
}

function updateOf(g: GraphDesc, n: FnNode | CommandNode, input: Values): Values {
  // the input is hashed as received: a projection with extra or `undefined` keys changes the result
  const h = hash(`${n.name}/${n.salt}/${canon(input)}`);
  const out: Values = {};
  n.writes.forEach((w, i) => {
    out[w] = valueFor(fieldOf(g, w).reducer, n.name, (h >>> (i % 8)) + i);
  });
  return out;
}

export function nodeFn(g: GraphDesc, n: FnNode, _k: Ctors): (input: Values) => Values {
  return (input) => updateOf(g, n, input ?? {});
}

export function commandFn(g: GraphDesc, n: CommandNode, k: Ctors): (input: Values) => unknown {
  return (input) => {
    const update = updateOf(g, n, input ?? {});
    const h = hash(`goto/${n.name}/${n.salt}/${canon(input ?? {})}`);
    const map = (t: string) => (t === END ? k.end : t);
    // one target, or two when the node declares several (a Command may fan out)
    const first = n.gotos[h % n.gotos.length] ?? END;
    if (n.gotos.length > 1 && h % 3 === 0) {
      const second = n.gotos[(h + 1) % n.gotos.length] ?? END;
      return k.command(update, [map(first), map(second)]);
    }
    return k.command(update, map(first));
  };
}

/** The key a `route` branch returns: a hash of one field of the router's state. */
export function routeKey(b: Extract<BranchDesc, { kind: "route" }>): (state: Values) => string {
  return (state) => {
    const h = hash(`route/${b.from}/${b.salt}/${canon(pick(state ?? {}, [b.field]))}`);
    const c = b.cases[h % b.cases.length];
    if (!c) throw new Error(`route ${b.from} has no cases`);
    return c.key;
  };
}

export function sendFn(
  g: GraphDesc,
  b: Extract<BranchDesc, { kind: "send" }>,
  k: Ctors,
): (state: Values) => unknown[] {
  const target = g.nodes.find((n) => n.name === b.target);
  if (!target || target.kind === "subgraph") throw new Error(`send target ${b.target} must be a plain node`);
  return (state) => {
    const seen = canon(pick(state ?? {}, [b.field]));
    const h = hash(`send/${b.from}/${b.salt}/${seen}`);
    const count = h % (b.max + 1);
    const sends: unknown[] = [];
    for (let i = 0; i < count; i++) {
      // the argument holds the target's read fields, each with a value of its field's type
      const arg: Values = {};
      target.reads.forEach((r, j) => {
        arg[r] = valueFor(fieldOf(g, r).reducer, `send${i}`, (h >>> j) + i);
      });
      sends.push(k.send(b.target, arg));
    }
    return sends;
  };
}

function operand(state: Values, o: Operand): number {
  const v = state[o.field];
  if (o.len) return Array.isArray(v) ? v.length : 0;
  return typeof v === "number" ? v : 0;
}

export function evalCond(c: Cond, state: Values): boolean {
  switch (c.kind) {
    case "and":
      return evalCond(c.a, state) && evalCond(c.b, state);
    case "or":
      return evalCond(c.a, state) || evalCond(c.b, state);
    case "not":
      return !evalCond(c.a, state);
    case "cmp": {
      const l = operand(state, c.lhs);
      switch (c.op) {
        case "==":
          return l === c.rhs;
        case "!=":
          return l !== c.rhs;
        case "<":
          return l < c.rhs;
        case "<=":
          return l <= c.rhs;
        case ">":
          return l > c.rhs;
        case ">=":
          return l >= c.rhs;
      }
    }
  }
}

/** Targets of the first matching case of a `cond` branch. */
export function condTargets(b: Extract<BranchDesc, { kind: "cond" }>, state: Values): readonly string[] {
  for (const c of b.cases) if (!c.cond || evalCond(c.cond, state ?? {})) return c.targets;
  return [];
}

/**
 * The functions a generated nodes module exports, looked up by graph and node name. They are typed `any`
 * on purpose: graphc type-checks node functions against the precise types it generates, and these
 * data-driven functions fit every such type.
 */
type Loose = (input: any, ...rest: any[]) => any;

export function bindProgram(
  p: Program,
  k: Ctors,
): {
  node(graph: string, name: string): Loose;
  route(graph: string, from: string): Loose;
  send(graph: string, from: string): Loose;
} {
  const graph = (name: string): GraphDesc => {
    const g = p.graphs.find((x) => x.name === name);
    if (!g) throw new Error(`program ${p.id} has no graph ${name}`);
    return g;
  };
  const branchOf = (g: GraphDesc, from: string): BranchDesc => {
    const b = g.branches.find((x) => x.from === from);
    if (!b) throw new Error(`graph ${g.name} has no branch from ${from}`);
    return b;
  };
  return {
    node(gName, name) {
      const g = graph(gName);
      const n = g.nodes.find((x) => x.name === name);
      if (!n || n.kind === "subgraph") throw new Error(`graph ${gName} has no plain node ${name}`);
      return n.kind === "command" ? commandFn(g, n, k) : nodeFn(g, n, k);
    },
    route(gName, from) {
      const b = branchOf(graph(gName), from);
      if (b.kind !== "route") throw new Error(`branch from ${from} is not a route`);
      return routeKey(b);
    },
    send(gName, from) {
      const g = graph(gName);
      const b = branchOf(g, from);
      if (b.kind !== "send") throw new Error(`branch from ${from} is not a send`);
      return sendFn(g, b, k);
    },
  };
}
