/**
 * The graph of graphs: which graph uses which through its subgraph nodes. Walked without recursion (a
 * chain of thousands of graphs must not overflow the stack, G9001) and in linear time: strongly connected
 * components answer "does the child lead back to its parent?" for every subgraph node at once.
 */
import type { BoundGraph, Program, SubgraphNode } from "../2-bind/model.ts";

export const subgraphNodes = (g: BoundGraph): SubgraphNode[] =>
  [...g.nodes.values()].filter((n): n is SubgraphNode => n.kind === "subgraph");

/** the graphs `g` runs: its subgraph nodes' children, and the graphs its function nodes `uses` */
export function childGraphs(g: BoundGraph): BoundGraph[] {
  const out: BoundGraph[] = [];
  for (const n of g.nodes.values()) {
    const child = n.kind === "subgraph" ? n.target : n.usesTarget;
    if (child) out.push(child);
  }
  return out;
}

const components = new WeakMap<Program, Map<BoundGraph, number>>();

/** The component of every graph reachable from the program's graphs (Tarjan's algorithm, iterative). */
function componentsOf(program: Program): Map<BoundGraph, number> {
  const cached = components.get(program);
  if (cached) return cached;
  const component = new Map<BoundGraph, number>();
  const index = new Map<BoundGraph, number>();
  const low = new Map<BoundGraph, number>();
  const onStack = new Set<BoundGraph>();
  const stack: BoundGraph[] = [];
  let counter = 0;
  let next = 0;
  type Frame = { graph: BoundGraph; children: BoundGraph[]; at: number };
  const enter = (g: BoundGraph): Frame => {
    index.set(g, counter);
    low.set(g, counter++);
    stack.push(g);
    onStack.add(g);
    return { graph: g, children: childGraphs(g), at: 0 };
  };
  for (const root of program.graphs) {
    if (index.has(root)) continue;
    const frames = [enter(root)];
    while (frames.length > 0) {
      const f = frames[frames.length - 1]!;
      if (f.at < f.children.length) {
        const child = f.children[f.at++]!;
        if (!index.has(child)) frames.push(enter(child));
        else if (onStack.has(child)) low.set(f.graph, Math.min(low.get(f.graph)!, index.get(child)!));
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent) low.set(parent.graph, Math.min(low.get(parent.graph)!, low.get(f.graph)!));
      if (low.get(f.graph) !== index.get(f.graph)) continue;
      const id = next++;
      for (let g = stack.pop(); g !== undefined; g = stack.pop()) {
        onStack.delete(g);
        component.set(g, id);
        if (g === f.graph) break;
      }
    }
  }
  components.set(program, component);
  return component;
}

/** Does `child` lead back to `parent` through subgraph nodes, when `parent` uses `child`? */
export function leadsBack(program: Program, child: BoundGraph, parent: BoundGraph): boolean {
  const c = componentsOf(program);
  const a = c.get(child);
  return a !== undefined && a === c.get(parent);
}

/** The deepest chain of subgraphs below a graph: `via` is the subgraph node leading to `rest`. */
export interface Chain {
  readonly graph: BoundGraph;
  readonly depth: number;
  readonly via?: SubgraphNode;
  readonly rest?: Chain;
}

/**
 * The deepest chain below every graph reachable from `roots` (cycles cut where they close, as a
 * depth-first walk meets them), computed bottom-up with an explicit stack.
 */
export function deepestChains(roots: readonly BoundGraph[]): Map<BoundGraph, Chain> {
  const memo = new Map<BoundGraph, Chain>();
  const onPath = new Set<BoundGraph>();
  type Frame = { graph: BoundGraph; nodes: SubgraphNode[]; at: number; best: Chain };
  const open = (g: BoundGraph): Frame => {
    onPath.add(g);
    return { graph: g, nodes: subgraphNodes(g), at: 0, best: { graph: g, depth: 0 } };
  };
  const offer = (f: Frame, via: SubgraphNode, sub: Chain): void => {
    if (sub.depth + 1 > f.best.depth) f.best = { graph: f.graph, depth: sub.depth + 1, via, rest: sub };
  };
  for (const root of roots) {
    if (memo.has(root)) continue;
    const frames = [open(root)];
    while (frames.length > 0) {
      const f = frames[frames.length - 1]!;
      if (f.at < f.nodes.length) {
        const n = f.nodes[f.at++]!;
        const t = n.target;
        if (!t) continue;
        const known = memo.get(t);
        if (known) offer(f, n, known);
        else if (onPath.has(t)) offer(f, n, { graph: t, depth: 0 });
        else frames.push(open(t));
        continue;
      }
      frames.pop();
      onPath.delete(f.graph);
      memo.set(f.graph, f.best);
      const parent = frames[frames.length - 1];
      if (parent) offer(parent, parent.nodes[parent.at - 1]!, f.best);
    }
  }
  return memo;
}

/** The graphs of a chain, outermost first. */
export function chainGraphs(chain: Chain): BoundGraph[] {
  const out: BoundGraph[] = [];
  for (let c: Chain | undefined = chain; c; c = c.rest) out.push(c.graph);
  return out;
}
