/**
 * Flattens a graph of the IR into a drawing: nodes and edges with LangGraph's naming, ready for the Mermaid
 * and DOT printers. Drawing reads only the IR, so a diagram can never disagree with the generated code.
 *
 * Names follow LangGraph's `get_graph(xray=True)`:
 * - START/END are `__start__` / `__end__`;
 * - a subgraph node is expanded into its child's nodes, their ids prefixed with `node:` (nested: `a:b:c`);
 *   the child's own `__start__` / `__end__` are trimmed when one node stands for them (one entry node, one
 *   node leading to END), as LangGraph trims them; otherwise they are kept as `node:__start__` / `node:__end__`;
 * - conditional edges (routers, inline conditions, `send`, declared `goto` targets) are dotted; a router
 *   case is labelled with its key, an inline condition with its source text (`_` for the default case);
 *   a router without cases and `send(fn)` may reach any node, so they get a dotted edge to every node (and
 *   END), as LangGraph draws a branch without a path map.
 *
 * Each edge may also say `via` what it exists (a join, a `send`, a case-less router, a `goto`): the DOT
 * picture (and the SVG rendered from it) draws those distinctly; Mermaid keeps LangGraph's plain drawing
 * (`plainEdges`).
 */
import type { BranchIR, EdgesIR, GraphIR, ProgramIR } from "../phases/4-lower/ir.ts";
import { exprLabel } from "./label.ts";
import { appendAll } from "../../grammar/append.ts";

export const START_ID = "__start__";
export const END_ID = "__end__";

export interface DrawNode {
  /** unique id: the node name, prefixed with `parent:` for nodes of expanded subgraphs */
  readonly id: string;
  /** the node's own name (the last id segment) */
  readonly name: string;
}

export interface DrawEdge {
  readonly source: string;
  readonly target: string;
  readonly conditional: boolean;
  readonly label?: string | undefined;
  /** why the edge exists beyond a plain or labelled conditional edge; LangGraph's drawing has no such notion */
  readonly via?: EdgeVia | undefined;
}

/**
 * - `join`: one source of a waiting edge `[a, b] -> c`; every edge of one join shares `id` (the join point,
 *   under the declaring graph's prefix);
 * - `send`: a target `send(fn)` may reach; `route`: a target a case-less `route(fn)` may return;
 * - `goto`: a target declared by the node's `goto [...]`.
 */
export type EdgeVia =
  | { readonly kind: "join"; readonly id: string }
  | { readonly kind: "send" | "route"; readonly fn: string }
  | { readonly kind: "goto" };

export interface Drawing {
  readonly name: string;
  readonly nodes: DrawNode[];
  readonly edges: DrawEdge[];
  /** each expanded subgraph node (id as a prefix of its nodes' ids) and the graph it runs (`graph` for an inline one) */
  readonly subgraphs?: readonly { readonly id: string; readonly graph: string }[];
}

/** Subgraphs nested deeper than this are drawn as plain nodes (the checker warns beyond 3 levels). */
const MAX_DEPTH = 8;

export function drawingOf(program: ProgramIR, graph: GraphIR): Drawing {
  const byId = new Map<string, GraphIR>();
  for (const f of program.files) for (const g of f.graphs) byId.set(g.id, g);
  const nodes: DrawNode[] = [{ id: START_ID, name: START_ID }];
  const edges: DrawEdge[] = [];
  const subgraphs: { id: string; graph: string }[] = [];
  expand(graph, "", byId, { nodes, edges, subgraphs }, 0);
  if (edges.some((e) => e.target === END_ID)) nodes.push({ id: END_ID, name: END_ID });
  return { name: graph.name, nodes, edges, subgraphs };
}

/**
 * Adds `graph`'s nodes and edges with ids under `prefix` (empty for the root). Returns the ids that stand
 * for its START (edges into the subgraph go there) and for its END (edges out of it leave from there).
 */
function expand(
  graph: GraphIR,
  prefix: string,
  byId: ReadonlyMap<string, GraphIR>,
  out: { nodes: DrawNode[]; edges: DrawEdge[]; subgraphs: { id: string; graph: string }[] },
  depth: number,
): { entries: string[]; exits: string[] } {
  const { nodes, edges } = out;
  const root = prefix === "";
  const id = (name: string) => (root ? name : `${prefix}:${name}`);
  const startId = id(START_ID);
  const endId = id(END_ID);

  // what each node id stands for when it is an edge's source or target (subgraph nodes expand)
  const inner = new Map<string, { entries: string[]; exits: string[] }>();
  const localNodes: DrawNode[] = [];
  for (const n of graph.nodes) {
    const child = n.kind === "subgraph" ? byId.get(n.child.id) : undefined;
    if (child !== undefined && depth < MAX_DEPTH) {
      out.subgraphs.push({ id: id(n.name), graph: child.inline ? "graph" : child.name });
      inner.set(n.name, expand(child, id(n.name), byId, { ...out, nodes: localNodes }, depth + 1));
    } else {
      localNodes.push({ id: id(n.name), name: n.name });
    }
  }
  const local: DrawEdge[] = [];
  const targetIds = (name: string): string[] =>
    name === "END" ? [endId] : (inner.get(name)?.entries ?? [id(name)]);
  const sourceIds = (name: string): string[] => (name === START_ID ? [startId] : (inner.get(name)?.exits ?? [id(name)]));
  const allTargets = [...graph.nodes.map((n) => n.name), "END"];

  const addEdges = (from: string, e: EdgesIR, gotos: readonly string[] | undefined) => {
    for (const s of sourceIds(from)) {
      for (const t of e.static) for (const tid of targetIds(t.to)) local.push({ source: s, target: tid, conditional: false });
      for (const b of e.branches) {
        for (const { to, label, via } of branchTargets(b, allTargets)) {
          for (const tid of targetIds(to)) local.push({ source: s, target: tid, conditional: true, label, via });
        }
      }
      for (const g of gotos ?? []) {
        for (const tid of targetIds(g)) local.push({ source: s, target: tid, conditional: true, via: GOTO });
      }
    }
  };
  addEdges(START_ID, graph.start, undefined);
  for (const n of graph.nodes) addEdges(n.name, n, n.goto);
  graph.joins.forEach((j, i) => {
    const via: EdgeVia = { kind: "join", id: id(`__join${i}`) };
    for (const src of j.sources) {
      for (const s of sourceIds(src)) for (const t of targetIds(j.target)) local.push({ source: s, target: t, conditional: false, via });
    }
  });
  const deduped = dedupe(local);
  if (root) {
    appendAll(nodes, localNodes);
    appendAll(edges, deduped);
    return { entries: [START_ID], exits: [END_ID] };
  }
  return trimEnds(startId, endId, localNodes, deduped, nodes, edges);
}

/**
 * LangGraph trims a subgraph's `__start__` when it has exactly one plain outgoing edge, and its `__end__`
 * when exactly one plain edge reaches it; edges into and out of the subgraph node then attach to those
 * nodes. Otherwise the child's start/end stay as nodes of their own.
 */
function trimEnds(
  startId: string,
  endId: string,
  localNodes: DrawNode[],
  local: DrawEdge[],
  nodes: DrawNode[],
  edges: DrawEdge[],
): { entries: string[]; exits: string[] } {
  const fromStart = local.filter((e) => e.source === startId);
  const toEnd = local.filter((e) => e.target === endId);
  const trimStart = fromStart.length === 1 && !fromStart[0]!.conditional;
  const trimEnd = toEnd.length === 1 && !toEnd[0]!.conditional;
  let kept = local;
  if (trimStart) kept = kept.filter((e) => e.source !== startId);
  if (trimEnd) kept = kept.filter((e) => e.target !== endId);
  if (!trimStart) nodes.push({ id: startId, name: START_ID });
  appendAll(nodes, localNodes);
  if (!trimEnd) nodes.push({ id: endId, name: END_ID });
  appendAll(edges, kept);
  return {
    entries: trimStart ? [fromStart[0]!.target] : [startId],
    exits: trimEnd ? [toEnd[0]!.source] : [endId],
  };
}

const GOTO: EdgeVia = { kind: "goto" };

function branchTargets(b: BranchIR, all: readonly string[]): { to: string; label?: string; via?: EdgeVia }[] {
  switch (b.kind) {
    case "route":
      if (b.cases === undefined) {
        const via: EdgeVia = { kind: "route", fn: b.fn.exported };
        return all.map((to) => ({ to, via }));
      }
      return b.cases.flatMap((c) => c.targets.map((to) => ({ to, label: c.key })));
    case "conditions":
      return b.cases.flatMap((c) => c.targets.map((to) => ({ to, label: c.cond === undefined ? "_" : exprLabel(c.cond) })));
    case "send": {
      const via: EdgeVia = { kind: "send", fn: b.fn.exported };
      return all.filter((n) => n !== "END").map((to) => ({ to, via }));
    }
  }
}

/** The edges as LangGraph draws them: without `via`, so edges that differ only in it merge. */
export function plainEdges(edges: readonly DrawEdge[]): DrawEdge[] {
  return dedupe(edges.map(({ via: _, ...plain }) => plain));
}

function viaKey(v: EdgeVia | undefined): string {
  if (v === undefined) return "";
  return v.kind === "join" ? `join ${v.id}` : v.kind === "goto" ? "goto" : `${v.kind} ${v.fn}`;
}

/** One edge per (source, target, kind, via); labels of merged edges are joined with `, `. */
function dedupe(edges: readonly DrawEdge[]): DrawEdge[] {
  const out = new Map<string, DrawEdge>();
  for (const e of edges) {
    const key = `${e.source}\u0000${e.target}\u0000${e.conditional}\u0000${viaKey(e.via)}`;
    const prev = out.get(key);
    if (prev === undefined) out.set(key, e);
    else if (e.label !== undefined && prev.label !== e.label) {
      out.set(key, { ...prev, label: prev.label === undefined ? e.label : `${prev.label}, ${e.label}` });
    }
  }
  return [...out.values()];
}
