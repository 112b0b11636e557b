/**
 * Per-spec tables built once (cached per GraphSpec object) so that the superstep loop never searches
 * lists by name: nodes sorted in LangGraph's write order, join barriers with their channel names, and the
 * hidden `__start__` node. `compileNodes` builds the node tables, all the lean loop uses (a lean spec has
 * no joins nor deferred nodes), so its bundle carries no join code; `compile` adds joins for the full loop.
 */
import type { EdgeSpec, GraphSpec, NodeSpec, Values } from "./spec.ts";
import { END, START } from "./spec.ts";
import { GraphValueError } from "./errors.ts";

export interface CNode {
  readonly spec: NodeSpec;
  readonly name: string;
  /** position in `Compiled.nodes` (declaration order); START is -1 */
  readonly idx: number;
  /** LangGraph's trigger channel name */
  readonly triggerKey: string;
  /** position in JS string order of names (the PULL task order) */
  rank: number;
  readonly defer: boolean;
  /** joins whose target is this node (filled by `compile`) */
  readonly joinsIn: readonly number[];
  /** no retry, timeout or cache: the node is called directly (a sync node then needs no await at all) */
  readonly plain: boolean;
  readonly edges: EdgeSpec;
  /** static edge targets (END dropped), resolved once */
  targets: readonly CNode[];
}

export interface CJoin {
  readonly key: string;
  readonly sources: readonly string[];
  readonly target: CNode;
  readonly deferred: boolean;
}

/** The node tables of a spec: what the lean loop and the writes of a node (writes.ts) use. */
export interface CompiledNodes {
  readonly spec: GraphSpec;
  readonly nodes: readonly CNode[];
  /** nodes in JS string order of their names: the PULL task order */
  readonly sorted: readonly CNode[];
  readonly byName: ReadonlyMap<string, CNode>;
  readonly start: CNode;
  readonly outputFields: ReadonlySet<string> | undefined;
  /** START has static edges only and no node is deferred: its step needs no task (Loop.startStep) */
  readonly plainStart: boolean;
}

export interface Compiled extends CompiledNodes {
  readonly joins: readonly CJoin[];
  readonly joinByKey: ReadonlyMap<string, number>;
  readonly deferred: readonly CNode[];
  readonly hasDeferred: boolean;
}

// a mutable `joinsIn`, for `compile` to fill
type NewNode = CNode & { readonly joinsIn: number[] };

const nodeCache = new WeakMap<GraphSpec, CompiledNodes & { readonly nodes: readonly NewNode[] }>();
const cache = new WeakMap<GraphSpec, Compiled>();

function startNode(spec: GraphSpec): CNode {
  const nodeSpec: NodeSpec = {
    name: START,
    read: (v: Values) => v,
    call: (input: unknown) => input,
    sync: true,
    check: () => {},
    edges: spec.start.edges,
    joins: spec.start.joins,
    branches: spec.start.branches,
  };
  return {
    spec: nodeSpec,
    name: START,
    idx: -1,
    triggerKey: START,
    rank: -1,
    defer: false,
    joinsIn: [],
    plain: true,
    edges: spec.start,
    targets: [],
  };
}

export function compileNodes(spec: GraphSpec): CompiledNodes & { readonly nodes: readonly NewNode[] } {
  const hit = nodeCache.get(spec);
  if (hit) return hit;
  const nodes: NewNode[] = spec.nodes.map((n, i) => ({
    spec: n,
    name: n.name,
    idx: i,
    triggerKey: `branch:to:${n.name}`,
    rank: 0,
    defer: n.defer === true,
    joinsIn: [],
    // an error route needs the policy path too: only it catches a failure and re-routes it
    plain: !n.retry && !n.timeout && !n.cache && n.onError === undefined,
    edges: n,
    targets: [],
  }));
  const byName = new Map<string, CNode>();
  for (const n of nodes) byName.set(n.name, n);
  const start = startNode(spec);
  for (const n of [start, ...nodes]) {
    n.targets = n.edges.edges
      .filter((e) => e !== END)
      .map((e) => {
        const t = byName.get(e);
        if (!t)
          throw new GraphValueError(`graph "${spec.name}": edge from "${n.name}" to unknown node "${e}"`, {
            graph: spec.name,
            node: n.name,
          });
        return t;
      });
  }
  const sorted = nodes.slice().sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  sorted.forEach((n, i) => (n.rank = i));
  const c: CompiledNodes & { readonly nodes: readonly NewNode[] } = {
    spec,
    nodes,
    sorted,
    byName,
    start,
    outputFields: spec.outputFields ? new Set(spec.outputFields) : undefined,
    plainStart: !nodes.some((n) => n.defer) && spec.start.joins.length === 0 && spec.start.branches.length === 0,
  };
  nodeCache.set(spec, c);
  return c;
}

export function compile(spec: GraphSpec): Compiled {
  const hit = cache.get(spec);
  if (hit) return hit;
  // join targets first: a bad one is reported before a bad edge
  const index = new Map<string, number>();
  spec.nodes.forEach((n, i) => index.set(n.name, i));
  const targets = spec.joins.map((j) => {
    const t = index.get(j.target);
    if (t === undefined) throw new Error(`graph "${spec.name}": join target "${j.target}" is not a node`);
    return t;
  });
  const base = compileNodes(spec);
  const { nodes } = base;
  const joins: CJoin[] = spec.joins.map((j, ji) => {
    const target = nodes[targets[ji]!]!;
    target.joinsIn.push(ji);
    return { key: `join:${j.sources.join("+")}:${j.target}`, sources: j.sources, target, deferred: target.defer };
  });
  const deferred = nodes.filter((n) => n.defer);
  const c: Compiled = {
    ...base,
    joins,
    joinByKey: new Map(joins.map((j, i) => [j.key, i])),
    deferred,
    hasDeferred: deferred.length > 0,
  };
  cache.set(spec, c);
  return c;
}
