/**
 * How a ChatDev graph's scheduling becomes supersteps and edges (docs/contracts.md, "ChatDev import").
 *
 * ChatDev runs a DAG in Kahn layers (a node runs once, after every predecessor's layer) and a cycle (a
 * strongly connected component) as a loop: each iteration runs the cycle's nodes in layers without the edges
 * into its entry; the cycle is left at once when a node fires an edge out of it, and runs again only when the
 * entry was re-triggered from inside. The translation keeps that:
 * - fan-in of unconditional edges outside cycles → a waiting edge `[a, b] -> c` (runs once, after both);
 * - an edge out of a cycle wins: a node whose exit edge fires goes only there (the rest of the iteration is
 *   skipped);
 * - the edges back into a cycle's entry are decided by the nodes that end an iteration, once the iteration's
 *   other nodes have run ("continue" only if the back edge's source ran in this iteration);
 * - every conditional edge, loop counter and cycle decision goes through a generated router.
 */
import type { Workflow, WorkflowEdge, WorkflowNode } from "./workflow.ts";
import type { ImportProblems } from "./problems.ts";

export interface Plan {
  readonly starts: readonly string[];
  /** the nodes whose outputs are the graph's output */
  readonly ends: readonly string[];
  /** id → ids whose latest output the node reads (carried data) */
  readonly reads: ReadonlyMap<string, readonly string[]>;
  readonly joins: readonly { sources: readonly string[]; target: string }[];
  /** unconditional edges kept as plain edges: from → targets */
  readonly plain: ReadonlyMap<string, readonly string[]>;
  readonly routers: ReadonlyMap<string, Router>;
  /** nodes with neither a plain edge nor a router: they end their branch */
  readonly sinks: readonly string[];
  /** nodes that record the superstep they last ran at (cycle entries and back-edge sources) */
  readonly stepTracked: ReadonlySet<string>;
}

export interface Router {
  /** edges out of the node's cycle: when one fires, only those are taken */
  readonly exits: readonly WorkflowEdge[];
  readonly edges: readonly WorkflowEdge[];
  /** at the end of an iteration: back edges into the entry (their source may be another node of the cycle) */
  readonly continues: readonly { readonly edge: WorkflowEdge; readonly entry: string }[];
}

export function plan(w: Workflow, problems: ImportProblems): Plan {
  const ids = w.nodes.map((n) => n.id);
  const byId = new Map(w.nodes.map((n) => [n.id, n]));
  const live = w.edges.filter((e) => !(e.condition.kind === "always" && !e.condition.value));
  const triggers = live.filter((e) => e.trigger);

  const starts = w.start.length > 0 ? [...w.start] : inferStart(w, triggers, problems);
  const ends = w.end.length > 0 ? [...w.end] : ids.filter((id) => !triggers.some((e) => e.from === id));

  const reads = new Map<string, string[]>();
  for (const n of w.nodes) {
    const from = live.filter((e) => e.to === n.id && e.carryData).map((e) => e.from);
    reads.set(n.id, [...new Set(from)]);
  }

  const sccs = components(ids, triggers);
  const cycleOf = new Map<string, Cycle>();
  for (const c of sccs) {
    const cycle = asCycle(c, w, triggers, starts, problems);
    if (cycle) for (const id of c) cycleOf.set(id, cycle);
  }

  // in a cycle, a node routes when it can leave the cycle or ends an iteration; its other edges stay plain
  const needsRouter = (id: string): boolean => {
    const cycle = cycleOf.get(id);
    if (cycle && (cycle.last.has(id) || triggers.some((e) => e.from === id && !cycle.members.has(e.to)))) return true;
    if (byId.get(id)!.type === "loop_counter") return true;
    return triggers.some((e) => e.from === id && e.condition.kind !== "always");
  };
  const routers = new Map<string, Router>();
  const plain = new Map<string, string[]>();
  const joins: { sources: string[]; target: string }[] = [];
  const stepTracked = new Set<string>();

  for (const target of ids) {
    const incoming = triggers.filter((e) => e.to === target);
    if (incoming.length < 2 || cycleOf.has(target)) continue;
    if (incoming.every((e) => !needsRouter(e.from))) joins.push({ sources: incoming.map((e) => e.from), target });
    else {
      const n = byId.get(target)!;
      problems.warning(w.file, n.line, n.path, `\`${target}\` has conditional predecessors: it runs after each of them (ChatDev runs it once per layer)`);
    }
  }
  const joined = new Set(joins.map((j) => j.target));

  for (const id of ids) {
    const out = triggers.filter((e) => e.from === id);
    if (!needsRouter(id)) {
      const entry = cycleOf.get(id)?.entry;
      // a back edge into the cycle's entry is decided where the iteration ends
      const targets = out.map((e) => e.to).filter((t) => !joined.has(t) && t !== entry);
      if (targets.length > 0) plain.set(id, targets);
      continue;
    }
    const cycle = cycleOf.get(id);
    if (cycle === undefined) {
      routers.set(id, { exits: [], edges: out, continues: [] });
      continue;
    }
    const exits = out.filter((e) => !cycle.members.has(e.to));
    const inner = out.filter((e) => cycle.members.has(e.to) && e.to !== cycle.entry);
    const continues = cycle.last.has(id) ? cycle.backEdges.map((edge) => ({ edge, entry: cycle.entry })) : [];
    routers.set(id, { exits, edges: inner, continues });
    // "did the back edge's source run in this iteration" is asked by the other nodes ending an iteration
    for (const b of cycle.backEdges) {
      if ([...cycle.last].some((l) => l !== b.from) && b.from !== cycle.entry) stepTracked.add(b.from).add(cycle.entry);
    }
  }
  const routed = (id: string) => routers.has(id) || plain.has(id) || joins.some((j) => j.sources.includes(id));
  return { starts, ends, reads, joins, plain, routers, sinks: ids.filter((id) => !routed(id)), stepTracked };
}

interface Cycle {
  readonly members: ReadonlySet<string>;
  readonly entry: string;
  readonly backEdges: readonly WorkflowEdge[];
  /** the nodes that end an iteration (no edge to another node of the iteration) */
  readonly last: ReadonlySet<string>;
}

function asCycle(c: readonly string[], w: Workflow, triggers: readonly WorkflowEdge[], starts: readonly string[], problems: ImportProblems): Cycle | undefined {
  const members = new Set(c);
  const selfLoop = c.length === 1 && triggers.some((e) => e.from === c[0] && e.to === c[0]);
  if (c.length === 1 && !selfLoop) return undefined;
  const node = (id: string): WorkflowNode => w.nodes.find((n) => n.id === id)!;
  const inStart = starts.filter((s) => members.has(s));
  const fromOutside = [...new Set(triggers.filter((e) => members.has(e.to) && !members.has(e.from)).map((e) => e.to))];
  const entry = inStart[0] ?? fromOutside[0];
  if (entry === undefined) {
    problems.warning(w.file, node(c[0]!).line, node(c[0]!).path, `the cycle ${list(c)} has no entry (no start node in it, no edge into it): it never runs`);
    return undefined;
  }
  if (inStart.length > 1) {
    problems.error(w.file, node(inStart[1]!).line, node(inStart[1]!).path, `cycle ${list(c)} already has start node '${inStart[0]}'`);
  } else if (inStart.length === 0 && fromOutside.length > 1) {
    problems.warning(w.file, node(fromOutside[1]!).line, node(fromOutside[1]!).path, `the cycle ${list(c)} is entered at ${list(fromOutside)}; ChatDev fails a run that triggers more than one: \`${entry}\` is taken as its entry`);
  }
  const inner = triggers.filter((e) => members.has(e.from) && members.has(e.to) && e.to !== entry);
  if (components(c, inner).some((x) => x.length > 1 || inner.some((e) => e.from === x[0] && e.to === x[0]))) {
    problems.warning(w.file, node(entry).line, node(entry).path, `the cycle ${list(c)} holds a nested cycle: translated as plain edges, without ChatDev's per-iteration layering`);
    return undefined;
  }
  const backEdges = triggers.filter((e) => members.has(e.from) && e.to === entry);
  const last = new Set(c.filter((id) => !inner.some((e) => e.from === id)));
  if (last.size > 1) {
    problems.warning(w.file, node(entry).line, node(entry).path, `an iteration of the cycle ${list(c)} ends in several nodes (${list([...last])}): each decides whether to run the cycle again`);
  }
  return { members, entry, backEdges, last };
}

function inferStart(w: Workflow, triggers: readonly WorkflowEdge[], problems: ImportProblems): string[] {
  const roots = w.nodes.filter((n) => !triggers.some((e) => e.to === n.id)).map((n) => n.id);
  const line = w.nodes[0]?.line ?? 1;
  if (roots.length === 0) {
    problems.error(w.file, line, "start", "Unable to determine a start node: list the graph's entry nodes in `start`");
    return [];
  }
  problems.warning(w.file, line, "start", `no \`start\` list (ChatDev fails this graph at run time): the nodes without incoming edges start it: ${list(roots)}`);
  return roots;
}

const list = (xs: readonly string[]) => xs.map((x) => `\`${x}\``).join(", ");

/** Strongly connected components (Tarjan), each in the nodes' declaration order, components in order of first node. */
export function components(ids: readonly string[], edges: readonly WorkflowEdge[]): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const e of edges) {
      if (e.from !== v || !ids.includes(e.to)) continue;
      if (!index.has(e.to)) {
        visit(e.to);
        low.set(v, Math.min(low.get(v)!, low.get(e.to)!));
      } else if (onStack.has(e.to)) low.set(v, Math.min(low.get(v)!, index.get(e.to)!));
    }
    if (low.get(v) === index.get(v)) {
      const c: string[] = [];
      let x: string;
      do {
        x = stack.pop()!;
        onStack.delete(x);
        c.push(x);
      } while (x !== v);
      out.push(ids.filter((id) => c.includes(id)));
    }
  };
  for (const id of ids) if (!index.has(id)) visit(id);
  return out.sort((a, b) => ids.indexOf(a[0]!) - ids.indexOf(b[0]!));
}
