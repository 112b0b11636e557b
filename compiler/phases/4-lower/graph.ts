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
import { reducerDef } from "../reducers.ts";
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

export interface LowerContext {
  readonly file: BoundFile;
}

export function lowerGraph(g: BoundGraph, cx: LowerContext): GraphIR {
  // `sync` is TypeScript's answer, recorded after the TypeScript pass (sync.ts)
  const fnRef = (fn: ImportRef): FnRefIR => ({ local: fn.local, module: fn.module, exported: fn.exported, span: fn.span, sync: false });

  const joins: JoinIR[] = g.edges.joins.map((j) => ({ sources: j.sources.map((s) => s.name), target: j.target.name, span: j.span }));
  // indexed once by node name: filtering every edge list per node was quadratic in the graph size
  const staticFrom = groupBy(g.edges.static, (e) => [e.from.name]);
  const branchesFrom = groupBy(g.edges.branches, (b) => [b.from.name]);
  const joinIdsFrom = groupBy(joins.map((j, i) => ({ j, i })), ({ j }) => [...new Set(j.sources)]);
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
    nodes: [...g.nodes.values()].map((n) => lowerNode(n, edgesOf(n.name), fnRef)),
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

function lowerField(f: BoundField, file: BoundFile, fnRef: (fn: ImportRef) => FnRefIR): FieldIR {
  const r = f.reducer;
  const reducer: ReducerIR =
    r.kind === "custom"
      ? { kind: "custom", fn: fnRef(r.fn) }
      : r.kind === "builtin" && r.name !== "replace"
        ? { kind: "builtin", name: r.name }
        : { kind: "replace" };
  // without a default, a built-in reducer's empty value (the registry's)
  const init = f.default !== undefined ? lowerExpr(f.default) : r.kind === "builtin" ? reducerDef(r.name).empty : undefined;
  return {
    name: f.name,
    span: f.span,
    type: f.typeExpr ? typeFromExpr(f.typeExpr, file) : typeFromDsl(f.type),
    check: checkFromDsl(f.type),
    reducer,
    init,
    ephemeral: f.ephemeral,
    alwaysSet: init !== undefined && !f.ephemeral,
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

function lowerNode(n: BoundNode, edges: EdgesIR, fnRef: (fn: ImportRef) => FnRefIR): NodeIR {
  const base = {
    name: n.name,
    span: n.span,
    reads: n.reads.map((r) => r.name),
    writes: n.writes.map((w) => w.name),
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
