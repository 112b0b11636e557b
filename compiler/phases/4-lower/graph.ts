/**
 * One checked graph -> GraphIR: fields with their reducers and initial values, nodes with read/write sets,
 * triggers and options, the edge tables of every node (static successors, join barriers, branches).
 */
import type { Span } from "../../../grammar/span.ts";
import type {
  BoundField,
  BoundFile,
  BoundGraph,
  BoundNode,
  BoundVar,
  BranchEdge,
  ImportRef,
  NodeOptions,
} from "../2-bind/model.ts";
import { lowerExpr } from "./expr.ts";
import type {
  BranchIR,
  EdgesIR,
  ExprIR,
  FieldIR,
  FnRefIR,
  GraphIR,
  JoinIR,
  NodeIR,
  NodeOptionsIR,
  ReducerIR,
  VarIR,
} from "./ir.ts";
import { checkFromDsl, typeFromDsl, typeFromExpr } from "./types.ts";

/** Decides whether an imported function is synchronous (never returns a Promise). */
export type SyncOracle = (fn: ImportRef, fromFile: string) => boolean;

export interface LowerContext {
  readonly file: BoundFile;
  readonly isSync: SyncOracle;
}

export function lowerGraph(g: BoundGraph, cx: LowerContext): GraphIR {
  const fnRef = (fn: ImportRef): FnRefIR => ({
    local: fn.local,
    module: fn.module,
    exported: fn.exported,
    span: fn.span,
    sync: cx.isSync(fn, g.file),
  });

  const joins: JoinIR[] = g.edges.joins.map((j) => {
    const sources = j.sources.map((s) => s.name);
    return { sources, target: j.target.name, channel: `join:${sources.join("+")}:${j.target.name}`, span: j.span };
  });
  // indexed once by node name: filtering every edge list per node was quadratic in the graph size
  const staticFrom = groupBy(g.edges.static, (e) => [e.from.name]);
  const branchesFrom = groupBy(g.edges.branches, (b) => [b.from.name]);
  const joinIdsFrom = groupBy(joins.map((j, i) => ({ j, i })), ({ j }) => [...new Set(j.sources)]);
  const joinsInto = groupBy(joins, (j) => [j.target]);
  const edgesOf = (from: string): EdgesIR => ({
    static: (staticFrom.get(from) ?? []).map((e) => ({ to: e.to.name, span: e.stmt.span })),
    joins: (joinIdsFrom.get(from) ?? []).map(({ i }) => i),
    branches: (branchesFrom.get(from) ?? []).map((b) => lowerBranch(b, fnRef)),
  });

  return {
    name: g.name,
    id: g.id,
    file: g.file,
    span: g.decl.name.span,
    inline: g.inlineIn !== undefined,
    inlineNode: g.inlineIn?.node,
    fields: [...g.fields.values()].map((f) => lowerField(f, cx.file, fnRef)),
    input: [...g.input],
    inputDeclared: g.inputDeclared,
    output: [...g.output],
    vars: [...g.vars.values()].map((v) => lowerVar(v, cx.file)),
    recursionLimit: g.limits.recursion,
    meta: metaOf(g),
    implements: g.implements.length === 0 ? undefined : g.implements.flatMap((i) => (i.target ? [{ name: i.target.name, file: i.target.file }] : [])),
    interruptBefore: g.interrupts.before.map((n) => n.name),
    interruptAfter: g.interrupts.after.map((n) => n.name),
    nodes: [...g.nodes.values()].map((n) => lowerNode(n, edgesOf(n.name), joinsInto.get(n.name) ?? [], fnRef)),
    start: edgesOf("START"),
    joins,
  };
}

/** the valid `meta` entries, or undefined when there are none (the IR of a graph without `meta` is unchanged) */
function metaOf(g: BoundGraph): GraphIR["meta"] {
  const { entries: _, ...meta } = g.meta;
  return Object.keys(meta).length === 0 ? undefined : meta;
}

/** Items grouped under each of their keys, in their original order. */
function groupBy<T>(items: readonly T[], keys: (item: T) => readonly string[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    for (const k of keys(item)) {
      const list = out.get(k);
      if (list) list.push(item);
      else out.set(k, [item]);
    }
  }
  return out;
}

/** The empty value a built-in reducer starts from when the field declares no default. */
const EMPTY: Partial<Record<ReducerIR["kind"], ExprIR>> = {
  append: { k: "array", items: [] },
  union: { k: "array", items: [] },
  messages: { k: "array", items: [] },
  sum: { k: "lit", value: 0 },
  merge: { k: "object", entries: [] },
};

function lowerField(f: BoundField, file: BoundFile, fnRef: (fn: ImportRef) => FnRefIR): FieldIR {
  const r = f.reducer;
  const reducer: ReducerIR =
    r.kind === "custom" ? { kind: "custom", fn: fnRef(r.fn) } : r.kind === "builtin" ? { kind: r.name } : { kind: "replace" };
  const init = f.default !== undefined ? lowerExpr(f.default) : EMPTY[reducer.kind];
  return {
    name: f.name,
    span: f.span,
    type: f.typeExpr ? typeFromExpr(f.typeExpr, file) : typeFromDsl(f.type),
    check: checkFromDsl(f.type),
    reducer,
    init,
    ephemeral: f.ephemeral,
    origin: f.origin.kind,
  };
}

function lowerVar(v: BoundVar, file: BoundFile): VarIR {
  const def: VarIR["default"] = v.template
    ? { kind: "template", parts: v.template.map((p) => ({ ...p })) }
    : v.default !== undefined
      ? { kind: "expr", expr: lowerExpr(v.default) }
      : undefined;
  return {
    name: v.name,
    span: v.span,
    type: v.decl.type ? typeFromExpr(v.decl.type, file) : typeFromDsl(v.type),
    check: checkFromDsl(v.type),
    default: def,
  };
}

function lowerOptions(o: NodeOptions): NodeOptionsIR {
  const out: { -readonly [K in keyof NodeOptionsIR]: NodeOptionsIR[K] } = {};
  if (o.retry) out.retry = { ...o.retry };
  if (o.timeoutMs !== undefined) out.timeoutMs = o.timeoutMs;
  if (o.idleTimeoutMs !== undefined) out.idleTimeoutMs = o.idleTimeoutMs;
  if (o.cache) out.cache = { ...o.cache };
  if (o.defer) out.defer = true;
  if (o.onError !== undefined) out.onError = o.onError;
  return out;
}

function lowerNode(n: BoundNode, edges: EdgesIR, joins: readonly JoinIR[], fnRef: (fn: ImportRef) => FnRefIR): NodeIR {
  const base = {
    name: n.name,
    span: n.span,
    reads: n.reads.map((r) => r.name),
    writes: n.writes.map((w) => w.name),
    triggers: [`branch:to:${n.name}`, ...joins.filter((j) => j.target === n.name).map((j) => j.channel)],
    goto: n.goto?.map((t) => t.name),
    options: lowerOptions(n.options),
    ...edges,
  };
  if (n.kind === "node") {
    const fn = fnRef(required(n.impl, n.span, "node function"));
    const u = n.usesTarget;
    return { kind: "function", ...base, fn, ...(u ? { uses: { id: u.id, name: u.name, file: u.file } } : {}) };
  }
  const iface = n.slot ? required(n.slot.interface, n.span, "slot interface") : undefined;
  // a slot without a default has no child graph: `child` then names the interface (never emitted as a spec)
  const child = iface && !n.target ? { id: `${iface.file}#interface:${iface.name}`, name: iface.name, file: iface.file } : required(n.target, n.span, "subgraph target");
  const inMap = n.in;
  const outMap = n.out;
  return {
    kind: "subgraph",
    ...base,
    ...(n.options.stateful ? { stateful: true as const } : {}),
    ...(iface ? { slot: { interface: { name: iface.name, file: iface.file }, hasDefault: n.target !== undefined } } : {}),
    child: { id: child.id, name: child.name, file: child.file },
    in:
      inMap.kind === "fn"
        ? { kind: "fn", fn: fnRef(required(inMap.fn, inMap.span, "input transform")) }
        : { kind: "fields", items: inMap.items.map((i) => ({ child: i.child.name, expr: lowerExpr(i.expr), span: i.child.span })) },
    out:
      outMap.kind === "fn"
        ? { kind: "fn", fn: fnRef(required(outMap.fn, outMap.span, "output transform")) }
        : { kind: "fields", items: outMap.items.map((i) => ({ child: i.child.name, parent: i.parent.name, span: i.child.span })) },
  };
}

function lowerBranch(b: BranchEdge, fnRef: (fn: ImportRef) => FnRefIR): BranchIR {
  const names = (refs: readonly { name: string }[]) => refs.map((r) => r.name);
  switch (b.kind) {
    case "route":
      return {
        kind: "route",
        span: b.span,
        fn: fnRef(required(b.fn, b.span, "router")),
        cases: b.cases?.map((c) => ({ key: c.key, targets: names(c.targets), span: c.decl.span })),
      };
    case "conditions":
      return {
        kind: "conditions",
        span: b.span,
        cases: b.cases.map((c) => ({
          cond: c.cond === undefined ? undefined : lowerExpr(c.cond),
          targets: names(c.targets),
          span: c.decl.span,
        })),
      };
    case "send":
      return { kind: "send", span: b.span, fn: fnRef(required(b.fn, b.span, "send function")) };
  }
}

/** Lowering runs only on a program the checker accepted; an unresolved reference here is a compiler bug. */
export class LowerError extends Error {
  constructor(
    message: string,
    readonly span: Span,
  ) {
    super(message);
  }
}

function required<T>(v: T | undefined, span: Span, what: string): T {
  if (v === undefined) throw new LowerError(`unresolved ${what} reached lowering`, span);
  return v;
}
