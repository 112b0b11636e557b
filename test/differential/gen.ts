/**
 * Seeded random generator of graph programs (model.ts). Same seed, same program.
 *
 * Shape: nodes are created in a line n0..nk; every node gets an incoming edge from START or an earlier node,
 * so every node is reachable. Outgoing edges mostly go forward; cond and route branches may also go back
 * (loops), which either stop on a counter condition or hit the recursion limit — both are compared.
 * Send targets and Command gotos only go forward, so the number of tasks per step stays small.
 */
import type {
  BranchDesc,
  CmpOp,
  Cond,
  EdgeDesc,
  FieldDesc,
  GraphDesc,
  NodeDesc,
  Program,
  Reducer,
} from "./model.ts";
import { END, START } from "./model.ts";

export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0 || 1;
  }
  /** mulberry32 */
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(xs: readonly T[]): T {
    const x = xs[Math.floor(this.next() * xs.length)];
    if (x === undefined) throw new Error("pick from an empty list");
    return x;
  }
  /** `n` distinct elements (fewer if `xs` is shorter) */
  some<T>(xs: readonly T[], n: number): T[] {
    const pool = [...xs];
    const out: T[] = [];
    while (out.length < n && pool.length > 0)
      out.push(...pool.splice(Math.floor(this.next() * pool.length), 1));
    return out;
  }
}

export interface GenOptions {
  /** nesting depth of subgraphs below the root (0 = none) */
  readonly maxDepth: number;
  /**
   * The target of a waiting join has no other incoming edge (default). `false` also generates join targets
   * reached by plain edges, branches and gotos: the known divergence 1 of README.md, for checking a fix.
   */
  readonly exclusiveJoins: boolean;
}

export const DEFAULT_OPTIONS: GenOptions = { maxDepth: 2, exclusiveJoins: false };

export function generateProgram(seed: number, options: GenOptions = DEFAULT_OPTIONS): Program {
  const rng = new Rng(seed);
  const graphs: GraphDesc[] = [];
  const rootFields = makeFields(rng, "", rng.int(2, 5));
  const root = makeGraph(rng, "Root", rootFields, graphs, options.maxDepth, true, options.exclusiveJoins);
  graphs.push(root);
  const input: Record<string, unknown> = {};
  // never empty: the START step must write something in both runtimes
  for (const f of rng.some(root.fields, rng.int(1, root.fields.length))) {
    input[f.name] =
      f.reducer === "replace" ? `in_${f.name}` : f.reducer === "append" ? ["in"] : rng.int(0, 3);
  }
  return {
    id: `p${seed}`,
    seed,
    graphs,
    input,
    recursionLimit: rng.chance(0.5) ? 25 : rng.int(4, 12),
  };
}

function makeFields(rng: Rng, prefix: string, n: number): FieldDesc[] {
  const reducers: Reducer[] = ["replace", "append", "sum"];
  const fields: FieldDesc[] = [];
  // always one append and one sum field: they make node outputs observable and feed conditions
  fields.push({ name: `${prefix}log0`, reducer: "append" }, { name: `${prefix}tot0`, reducer: "sum" });
  const counters: Record<Reducer, number> = { replace: 0, append: 1, sum: 1 };
  while (fields.length < n) {
    const r = rng.pick(reducers);
    const stem = r === "replace" ? "v" : r === "append" ? "log" : "tot";
    fields.push({ name: `${prefix}${stem}${counters[r]++}`, reducer: r });
  }
  return fields;
}

function makeGraph(
  rng: Rng,
  name: string,
  fields: FieldDesc[],
  graphs: GraphDesc[],
  depth: number,
  isRoot: boolean,
  exclusiveJoins: boolean,
): GraphDesc {
  const prefix = isRoot ? "" : `${name.toLowerCase()}_`;
  const count = rng.int(2, isRoot ? 7 : 4);
  const names = Array.from({ length: count }, (_, i) => `${prefix}n${i}`);
  const nodes: NodeDesc[] = [];
  const edges: EdgeDesc[] = [];
  const branches: BranchDesc[] = [];
  const incoming = new Set<string>();
  const sendTargets = new Set<string>();
  const fieldNames = fields.map((f) => f.name);
  const counters = fields.filter((f) => f.reducer !== "replace");
  // a subgraph node writes its whole appended list back (LangGraph duplicates it), so a loop through one
  // doubles the list every turn: a graph gets either subgraphs or back edges, not both
  const withSubgraphs = depth > 0 && rng.chance(0.6);
  // replace fields are written less often than the others, so that not every fan-out ends in a LastValue conflict
  const writesFor = (): string[] => {
    const ws = rng.some(
      fields.filter((f) => f.reducer !== "replace" || rng.chance(0.5)).map((f) => f.name),
      rng.int(1, 2),
    );
    return ws.length > 0 ? ws : [fields[0]?.name ?? "log0"];
  };
  const addEdge = (from: string[], to: string[], join = false) => {
    edges.push({ from, to, join });
    for (const t of to) incoming.add(t);
  };

  // The target of a waiting join is reached by the join only. With a second trigger (plain edge, branch,
  // goto), LangGraph consumes only the trigger it saw first, and whether the still-complete barrier fires
  // again later depends on whether it is written again (LangGraph only re-examines nodes whose trigger
  // changed in the last step): graphc does not reproduce that yet (see README.md, "Known divergences").
  const joinAt = count >= 4 && rng.chance(0.4) ? names[rng.int(2, count - 1)] : undefined;
  // the name other edges must avoid (none when join targets may have other triggers)
  const joinTarget = exclusiveJoins ? joinAt : undefined;

  for (let i = 0; i < count; i++) {
    const n = names[i] ?? "";
    const later = names.slice(i + 1).filter((x) => x !== joinTarget);
    const roll = rng.next();
    if (withSubgraphs && roll < 0.2 && i > 0 && !sendTargets.has(n)) {
      const child = makeChild(rng, `${name}S${i}`, fields, graphs, depth - 1, exclusiveJoins);
      nodes.push({ kind: "subgraph", name: n, graph: graphs.length });
      graphs.push(child);
    } else if (roll < 0.27 && later.length > 0) {
      const gotos = rng.some([...later, END], rng.int(1, 3));
      nodes.push({
        kind: "command",
        name: n,
        reads: rng.some(fieldNames, rng.int(0, 2)),
        writes: writesFor(),
        gotos,
        salt: rng.int(0, 999),
      });
      for (const t of gotos) if (t !== END) incoming.add(t);
      continue; // a Command node routes only through its goto
    } else {
      nodes.push({
        kind: "fn",
        name: n,
        reads: rng.some(fieldNames, rng.int(0, 3)),
        writes: writesFor(),
        salt: rng.int(0, 999),
      });
    }
    if (sendTargets.has(n)) {
      // a Send target only goes forward by static edges, so Send fan-out never compounds
      if (later.length > 0 && rng.chance(0.6)) addEdge([n], [rng.pick(later)]);
      continue;
    }
    const out = rng.next();
    const targetsOf = (allowBack: boolean): string[] => {
      const pool =
        allowBack && !withSubgraphs && rng.chance(0.3)
          ? names.slice(0, i + 1).filter((x) => x !== joinTarget)
          : later;
      const k = rng.chance(0.25) ? 2 : 1;
      const ts = rng.some(pool.length > 0 ? pool : [END], k);
      return rng.chance(0.2) || ts.length === 0
        ? [...ts.slice(0, 1), END].filter((x, j, a) => a.indexOf(x) === j)
        : ts;
    };
    if (out < 0.3 && later.length > 0) {
      addEdge([n], rng.some(later, rng.int(1, 3)));
    } else if (out < 0.45) {
      addEdge([n], [END]);
    } else if (out < 0.62) {
      const cases = Array.from({ length: rng.int(2, 3) }, (_, j) => ({
        key: `k${j}`,
        targets: targetsOf(true),
      }));
      branches.push({ kind: "route", from: n, field: rng.pick(fieldNames), salt: rng.int(0, 999), cases });
      for (const c of cases) for (const t of c.targets) if (names.indexOf(t) > i) incoming.add(t);
    } else if (out < 0.82) {
      const cases = Array.from({ length: rng.int(1, 2) }, () => ({
        cond: makeCond(rng, counters, 2),
        targets: targetsOf(true),
      }));
      const all = [...cases, { targets: targetsOf(false) }];
      branches.push({ kind: "cond", from: n, cases: all });
      for (const c of all) for (const t of c.targets) if (names.indexOf(t) > i) incoming.add(t);
    } else {
      const plain = later.filter((x) => !incoming.has(x));
      const target = plain.length > 0 ? rng.pick(plain) : undefined;
      if (target === undefined) {
        addEdge([n], [END]);
      } else {
        sendTargets.add(target);
        incoming.add(target);
        branches.push({
          kind: "send",
          from: n,
          target,
          field: rng.pick(fieldNames),
          max: rng.int(1, 3),
          salt: rng.int(0, 999),
        });
      }
    }
  }

  // entry: START -> n0 (sometimes START -> [n0, n1])
  const entries =
    count > 1 && !sendTargets.has(names[1] ?? "") && rng.chance(0.2) ? names.slice(0, 2) : names.slice(0, 1);
  addEdge([START], entries);

  // waiting join: two earlier nodes wait for a later one
  if (joinAt !== undefined) {
    const j = names.indexOf(joinAt);
    const sources = rng.some(
      names.slice(0, j).filter((x) => nodes.find((d) => d.name === x)?.kind !== "command"),
      2,
    );
    if (sources.length === 2) addEdge(sources, [joinAt], true);
  }

  // every node reachable from START (graphc checks this transitively; LangGraph only wants one incoming
  // edge): `incoming` holds forward edges only, so give each node without one an edge from an earlier node
  for (let i = 1; i < count; i++) {
    const n = names[i] ?? "";
    if (incoming.has(n)) continue;
    const earlier = names.slice(0, i).filter((x) => nodes.find((d) => d.name === x)?.kind !== "command");
    addEdge([earlier.length > 0 ? rng.pick(earlier) : START], [n]);
  }

  return { name, fields, nodes, edges, branches };
}

/** A child graph: some of the parent's fields (same name, same reducer), maybe one of its own, maybe an output schema. */
function makeChild(
  rng: Rng,
  name: string,
  parentFields: FieldDesc[],
  graphs: GraphDesc[],
  depth: number,
  exclusiveJoins: boolean,
): GraphDesc {
  const shared = rng.some(parentFields, rng.int(1, parentFields.length));
  const own: FieldDesc[] = rng.chance(0.4)
    ? [{ name: `${name.toLowerCase()}_own`, reducer: rng.pick(["append", "sum"] as const) }]
    : [];
  // keep an append and a sum field for the child's own conditions and writes
  const fields = [...shared, ...own];
  if (!fields.some((f) => f.reducer === "sum"))
    fields.push({ name: `${name.toLowerCase()}_cnt`, reducer: "sum" });
  const g = makeGraph(rng, name, fields, graphs, depth, false, exclusiveJoins);
  if (!rng.chance(0.4)) return g;
  // an output schema: at least one shared field, so the subgraph node always writes to its parent
  const out = rng.some(shared, rng.int(1, Math.min(2, shared.length)));
  return { ...g, output: out.map((f) => f.name) };
}

function makeCond(rng: Rng, counters: readonly FieldDesc[], depth: number): Cond {
  if (depth > 0 && rng.chance(0.25)) {
    const kind = rng.pick(["and", "or", "not"] as const);
    if (kind === "not") return { kind, a: makeCond(rng, counters, depth - 1) };
    return { kind, a: makeCond(rng, counters, depth - 1), b: makeCond(rng, counters, depth - 1) };
  }
  const f = rng.pick(counters);
  const ops: CmpOp[] = ["==", "!=", "<", "<=", ">", ">="];
  return {
    kind: "cmp",
    lhs: { field: f.name, len: f.reducer === "append" },
    op: rng.pick(ops),
    rhs: rng.int(0, 8),
  };
}
