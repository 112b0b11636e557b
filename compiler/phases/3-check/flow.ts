/**
 * Control flow over the normalised edges: successors (static edges, joins, branches, gotos, `on_error`),
 * reachability from START (error), reaching END (warning), and fields read before anything can have
 * written them (warning).
 *
 * Over-approximations (a diagnostic must never be wrong): a router without cases and a `send` may lead to any
 * node; a waiting join counts as an edge from each of its sources.
 */
import { d, rel } from "../../diagnostics/messages.ts";
import type { BoundGraph } from "../2-bind/model.ts";
import type { CheckContext } from "./context.ts";
import { startsSet } from "../reducers.ts";

const START = "START";
const END = "END";

/** successor names (nodes, END) of START and of every node */
export function successors(g: BoundGraph): Map<string, Set<string>> {
  const succ = new Map<string, Set<string>>();
  const add = (from: string, to: string) => {
    let s = succ.get(from);
    if (!s) succ.set(from, (s = new Set()));
    s.add(to);
  };
  const anyNode = (from: string) => {
    for (const n of g.nodes.keys()) add(from, n);
  };
  for (const e of g.edges.static) add(e.from.name, e.to.name);
  for (const j of g.edges.joins) for (const s of j.sources) add(s.name, j.target.name);
  for (const b of g.edges.branches) {
    if (b.kind === "route") {
      if (b.cases) for (const c of b.cases) for (const t of c.targets) add(b.from.name, t.name);
      else {
        anyNode(b.from.name);
        add(b.from.name, END);
      }
    } else if (b.kind === "conditions") {
      for (const c of b.cases) for (const t of c.targets) add(b.from.name, t.name);
    } else anyNode(b.from.name);
  }
  for (const n of g.nodes.values()) {
    for (const t of n.goto ?? []) add(n.name, t.name);
    if (n.options.onError) add(n.name, n.options.onError);
  }
  return succ;
}

/** how many edges (of any kind) lead into each node */
export function incoming(g: BoundGraph): Map<string, number> {
  const count = new Map<string, number>();
  for (const [, targets] of successors(g)) for (const t of targets) count.set(t, (count.get(t) ?? 0) + 1);
  return count;
}

function reach(from: Iterable<string>, next: Map<string, Set<string>>): Set<string> {
  const seen = new Set<string>();
  const stack = [...from];
  while (stack.length) {
    const n = stack.pop()!;
    for (const m of next.get(n) ?? []) {
      if (!seen.has(m)) {
        seen.add(m);
        stack.push(m);
      }
    }
  }
  return seen;
}

export function checkFlow(g: BoundGraph, ctx: CheckContext): void {
  const succ = successors(g);
  const pred = new Map<string, Set<string>>();
  for (const [from, targets] of succ) {
    for (const t of targets) {
      let p = pred.get(t);
      if (!p) pred.set(t, (p = new Set()));
      p.add(from);
    }
  }
  // an unknown endpoint is already an error and may be the missing way in or out: skip the path rules
  const known = (n: string) => n === START || n === END || g.nodes.has(n);
  for (const [from, targets] of succ) if (!known(from) || [...targets].some((t) => !known(t))) return;
  const hasEntry = (succ.get(START)?.size ?? 0) > 0;
  const fromStart = reach([START], succ);
  const toEnd = reach([END], pred);
  for (const node of g.nodes.values()) {
    // without any entry point G4001 already explains why nothing runs
    if (hasEntry && !fromStart.has(node.name))
      ctx.diagnostics.push(d.unreachableNode(node.span, { name: node.name, graph: g.name }));
    else if (hasEntry && !toEnd.has(node.name))
      ctx.diagnostics.push(d.cannotReachEnd(node.span, { name: node.name, graph: g.name }));
  }
  if (hasEntry) checkReadBeforeWrite(g, succ, fromStart, ctx);
  if (hasEntry) checkOutputsWritten(g, ctx);
}

/** An output field that starts empty, is not an input and that no node writes never reaches the result. */
function checkOutputsWritten(g: BoundGraph, ctx: CheckContext): void {
  const written = new Set<string>(g.input);
  for (const n of g.nodes.values()) for (const w of n.writes) written.add(w.name);
  const block = g.decl.members.find((m) => m.kind === "Output");
  for (const name of g.output) {
    const f = g.fields.get(name);
    if (!f || written.has(name) || f.default !== undefined || startsSet(f.reducer)) continue;
    // point at the `output { x }` entry when there is one, else at the field
    const entry = block?.kind === "Output" ? block.fields.find((x) => x.name.name === name) : undefined;
    ctx.diagnostics.push(
      d.outputNeverWritten(
        entry?.name.span ?? f.span,
        { name, graph: g.name },
        entry ? [rel(f.span, "field declared here")] : [],
      ),
    );
  }
}

/**
 * A read of field f by node n is fine when f has a default or a built-in reducer (it starts from the
 * reducer's empty value), is an input field, or some node that writes f can run before n (n is reachable
 * from a writer's successors). Nodes only reachable through `send` get the Send argument, not the state, and
 * are skipped, and so are reads of a whole schema by name (`node n(State)`) and same-name subgraph inputs:
 * those receive only the fields that are set, as in LangGraph.
 */
function checkReadBeforeWrite(
  g: BoundGraph,
  succ: Map<string, Set<string>>,
  fromStart: Set<string>,
  ctx: CheckContext,
): void {
  const input = new Set(g.input);
  const sendOnly = sendOnlyNodes(g);
  const writers = new Map<string, string[]>();
  for (const n of g.nodes.values())
    for (const w of n.writes) (writers.get(w.name) ?? writers.set(w.name, []).get(w.name)!).push(n.name);
  const afterWriters = new Map<string, Set<string>>();
  for (const n of g.nodes.values()) {
    if (!fromStart.has(n.name) || sendOnly.has(n.name)) continue;
    // a schema read (`State`, `P`) or a same-name subgraph input takes whatever is set, as LangGraph does
    if (n.readsSchema || (n.kind === "subgraph" && n.in.kind !== "block")) continue;
    for (const r of n.reads) {
      const f = g.fields.get(r.name);
      if (!f || f.default !== undefined || startsSet(f.reducer) || input.has(f.name)) continue;
      let after = afterWriters.get(f.name);
      if (!after) afterWriters.set(f.name, (after = reach(writers.get(f.name) ?? [], succ)));
      if (!after.has(n.name)) ctx.diagnostics.push(d.readBeforeWrite(r.span, { name: f.name, node: n.name }));
    }
  }
}

/** nodes whose only way in is a `send` branch */
function sendOnlyNodes(g: BoundGraph): Set<string> {
  if (!g.edges.branches.some((b) => b.kind === "send")) return new Set();
  const withoutSend: BoundGraph = {
    ...g,
    edges: { ...g.edges, branches: g.edges.branches.filter((b) => b.kind !== "send") },
  };
  const into = incoming(withoutSend);
  return new Set([...g.nodes.keys()].filter((n) => (into.get(n) ?? 0) === 0));
}
