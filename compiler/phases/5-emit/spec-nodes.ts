/**
 * The control half of a GraphSpec: one NodeSpec per node (projection, the call — the user's function bound
 * to its generated type (`const fn: GNodeFn = userFn`), or the child graph run with the mappings inline —
 * the update check as a `switch`, options) and the edge tables: static successors, join barrier ids, and
 * branches (router `switch`, inline conditions as `if`s, send). Functions identical for several nodes are
 * declared once before the spec (`Shared`).
 */
import type { Span } from "../../../grammar/span.ts";
import { slotSpec, slotSubgraphProp, unboundGuard } from "./bind.ts";
import type { BranchIR, EdgesIR, FieldIR, FunctionNodeIR, GraphIR, NodeIR, SubgraphNodeIR } from "../4-lower/ir.ts";
import type { EmitContext } from "./context.ts";
import { access, inComment, key, str } from "./escape.ts";
import { tsExpr } from "./expr.ts";
import type { GraphNames } from "./names.ts";
import { pick, projection, type ProjItem } from "./spec-data.ts";
import { childInputChecked, outputAsIs } from "./subgraph-input.ts";
import { appendAll } from "../../../grammar/append.ts";
import type { UpdateChecks } from "./spec-checks.ts";

/**
 * Node functions that would be identical for several nodes (same projection; same user function with the
 * same types; same update check but for the node name) are declared once before the spec and shared: the
 * runtime's call sites then see one function instead of one per node (a chain of look-alike nodes stays
 * monomorphic), and the bundle carries the code once. A function used by one node stays inline.
 */
class Shared {
  readonly decls: string[] = [];
  private readonly uses = new Map<string, string[]>();
  private readonly names = new Map<string, string>();

  constructor(private readonly cx: EmitContext) {}

  count(key: string, node: string): void {
    const users = this.uses.get(key);
    if (users) users.push(node);
    else this.uses.set(key, [node]);
  }

  /** a module-level declaration of one node (traced to its `.graph` span) */
  declare(span: Span, text: string): void {
    this.decls.push(this.cx.traced(span, text));
  }

  /** the shared name for `key` (declaring it on first use), or undefined when only one node uses it */
  name(key: string, base: string, span: Span, decl: (name: string) => string): string | undefined {
    const users = this.uses.get(key) ?? [];
    if (users.length < 2) return undefined;
    let name = this.names.get(key);
    if (name === undefined) {
      name = this.cx.scope.fresh(base);
      this.names.set(key, name);
      const shown = users.slice(0, 3).map(inComment).join(", ");
      const more = users.length > 3 ? ` and ${users.length - 3} more` : "";
      this.decls.push(this.cx.traced(span, `/** Shared by nodes ${shown}${more}. */\n${decl(name)}`));
    }
    return name;
  }
}

const readKey = (node: FunctionNodeIR) => JSON.stringify(["read", node.reads]);
const callKey = (node: FunctionNodeIR) => JSON.stringify(["call", node.fn.local, node.reads, node.writes, node.goto !== undefined]);
const checkKey = (node: FunctionNodeIR) => JSON.stringify(["check", node.writes]);

/**
 * A function node that may write every field of the graph, whose update check is then also `checkUpdate`'s
 * (a Command given as input may write any field, with the same tests): the check is declared once.
 */
function wholeWriter(g: GraphIR): FunctionNodeIR | undefined {
  if (g.fields.length === 0) return undefined;
  const all = new Set(g.fields.map((f) => f.name));
  return g.nodes.find((n): n is FunctionNodeIR => n.kind === "function" && n.writes.length === all.size && n.writes.every((w) => all.has(w)));
}

/**
 * `nodes: [...]`, the declarations it refers to (shared node functions, the update-check error) and, when a
 * node's check is also the graph's `checkUpdate` (`wholeWriter`), the `checkUpdate` value that uses it.
 */
export function emitNodes(g: GraphIR, n: GraphNames, cx: EmitContext, checks: UpdateChecks): { nodes: string; decls: string[]; checkUpdate?: string } {
  const shared = new Shared(cx);
  for (const node of g.nodes) {
    if (node.kind !== "function") {
      shared.count(PARENT_CHECK, node.name);
      continue;
    }
    shared.count(readKey(node), node.name);
    shared.count(callKey(node), node.name);
    shared.count(checkKey(node), node.name);
  }
  if (g.nodes.length === 0) return { nodes: "nodes: [],", decls: [] };
  const whole = wholeWriter(g);
  const wholeKey = whole && checkKey(whole);
  if (wholeKey !== undefined) shared.count(wholeKey, "checkUpdate");
  // the error of a key a node may not write is the runtime's `cannotWrite` (one text for every graph; its
  // node `undefined` is a Command given as input)
  const cannot = (nodeExpr: string, why: string) => `${cx.scope.rt("cannotWrite")}(${str(g.name)}, ${nodeExpr}, k, ${str(why)});`;
  const nodes = g.nodes.map((node) => cx.traced(node.span, `${emitNode(g, node, n, cx, shared, cannot, checks, wholeKey)},`));
  const checkUpdate = whole && updateCheck(whole, cx, shared, n, cannot, checks, wholeKey, "undefined");
  return { nodes: `nodes: [\n${nodes.join("\n")}\n],`, decls: shared.decls, ...(checkUpdate !== undefined ? { checkUpdate } : {}) };
}

/** The statement a check runs for a key the node may not write: `(node expression, why) => statement`. */
type CannotWrite = (nodeExpr: string, why: string) => string;

function emitNode(
  g: GraphIR,
  node: NodeIR,
  n: GraphNames,
  cx: EmitContext,
  shared: Shared,
  cannot: CannotWrite,
  checks: UpdateChecks,
  wholeKey: string | undefined,
): string {
  const parts = [`name: ${str(node.name)},`];
  parts.push(node.kind === "function" ? functionCall(g, node, n, cx, shared) : subgraphCall(g, node, n, cx, shared));
  parts.push(
    `check: ${node.kind === "function" ? updateCheck(node, cx, shared, n, cannot, checks, wholeKey, str(node.name)) : parentUpdateCheck(g, node, n, cx, shared, cannot, checks)},`,
  );
  parts.push(edges(g, node, n, node.name, cx));
  // a subgraph node always lists its ends: a child's Command.PARENT goto outside them is an InvalidUpdateError
  const ends = node.goto ?? (node.kind === "subgraph" ? [] : undefined);
  if (ends) parts.push(`ends: [${ends.map((t) => target(t, cx)).join(", ")}],`);
  appendAll(parts, options(node, n));
  return `{\n${parts.join("\n")}\n}`;
}

/** built once per graph: a map per node made emitting nodes × fields (10,000 nodes: 1 s) */
const fieldMaps = new WeakMap<GraphIR, Map<string, FieldIR>>();

function fieldMap(g: GraphIR): (name: string) => FieldIR {
  let m = fieldMaps.get(g);
  if (!m) fieldMaps.set(g, (m = new Map(g.fields.map((f) => [f.name, f]))));
  return (name) => m.get(name)!;
}

function functionCall(g: GraphIR, node: FunctionNodeIR, n: GraphNames, cx: EmitContext, shared: Shared): string {
  const F = fieldMap(g);
  const nn = n.node(node.name);
  const V = cx.scope.rt("Values");
  const proj = projection(node.reads.map((r) => pick("v", F(r))), V);
  const readName = shared.name(readKey(node), `${nn.read}Fields`, node.span, (name) => `const ${name} = (v: ${V}) => ${proj};`);
  cx.binding(`${nn.fn} = ${cx.fn(node.fn.local)}`, { role: "node", node: node.name, fn: node.fn.local });
  const NC = cx.scope.rt("NodeContext");
  // the typed binding makes a wrong signature a TypeScript error here (reported at the `node` line); it is
  // a local alias, free at run time
  const body = `{\nconst fn: ${nn.fn} = ${cx.fn(node.fn.local)};\nreturn fn(input as ${nn.read}, ctx as ${NC}<${n.vars}>);\n}`;
  const callName = shared.name(callKey(node), `${nn.fn}Call`, node.span, (name) => `const ${name} = (input: unknown, ctx: ${NC}) => ${body};`);
  return [
    `read: ${readName ?? `(v) => ${proj}`},`,
    `call: ${callName ?? `(input, ctx) => ${body}`},`,
    `sync: ${node.fn.sync},`,
    // `uses: Child`: the graph the function may run with ctx.run (its namespace, snapshots, time travel)
    ...(node.uses ? [`subgraph: ${cx.child(node.uses).spec},`] : []),
  ].join("\n");
}

function subgraphCall(g: GraphIR, node: SubgraphNodeIR, n: GraphNames, cx: EmitContext, shared: Shared): string {
  const F = fieldMap(g);
  // a slot runs whatever is bound: its child types are the default's, or plain values without a default
  const V = cx.scope.rt("Values");
  const child = node.slot?.hasDefault === false ? { spec: "", input: V, output: V } : cx.child(node.child);
  const childIR = node.slot ? undefined : cx.graph(node.child.id);
  let read: string;
  if (node.in.kind === "fn") {
    cx.binding(`(state: ${n.state}) => ${child.input} = ${cx.fn(node.in.fn.local)}`, { role: "in", node: node.name, fn: node.in.fn.local });
    read = `read: (v) => {\nconst fn: (state: ${n.state}) => ${child.input} = ${cx.fn(node.in.fn.local)};\nreturn fn(v);\n},`;
  } else {
    const items = node.in.items.map(
      (i): ProjItem =>
        i.expr.k === "field"
          ? pick("v", F(i.expr.name), i.child)
          : { key: i.child, value: tsExpr(i.expr, "v"), trace: (text) => cx.traced(i.span, text) },
    );
    read = `read: (v) => ${projection(items, cx.scope.rt("Values"))},`;
  }
  const spec = node.stateful ? n.statefulSpec(node.name) : node.slot ? slotSpec(node) : child.spec;
  // the projection passes the child's input check by construction (subgraph-input.ts): it is handed over as checked
  const checked = childInputChecked(g, node, childIR) ? ", true" : "";
  const run = `ctx.runSubgraphNow ? ctx.runSubgraphNow(${spec}, input as ${V}${checked}) : ctx.runSubgraph(${spec}, input as ${V})`;
  if (childIR !== undefined && outputAsIs(node, childIR)) {
    // the child's output (a new object of its output fields, each present when set) is the update as it is
    return [read, `call: (input, ctx) => {\n${unboundGuard(g, node, spec, cx)}return ${run};\n},`, `sync: false,`, slotSubgraphProp(node, spec)].join("\n");
  }
  /** the arrow body mapping the child's output `out` back */
  let back: string;
  if (node.out.kind === "fn") {
    const nn = n.node(node.name);
    cx.binding(`(output: ${child.output}) => ${nn.update} = ${cx.fn(node.out.fn.local)}`, { role: "out", node: node.name, fn: node.out.fn.local });
    back = `{\nconst fn: (output: ${child.output}) => ${nn.update} = ${cx.fn(node.out.fn.local)};\nreturn fn(out as ${child.output});\n}`;
  } else {
    const childField = (name: string): FieldIR | undefined => childIR?.fields.find((f) => f.name === name);
    const items = node.out.items.map((i): ProjItem => {
      const cf = childField(i.child);
      // a child output field is present only when written (or when it has a default)
      const always = cf?.alwaysSet === true;
      const value = access("out", i.child);
      return always ? { key: i.parent, value } : { key: i.parent, value, when: `${str(i.child)} in out` };
    });
    back = projection(items, V);
  }
  // the mapping back is declared once, before the spec (not a closure per call)
  const fromChild = cx.scope.fresh(`${n.node(node.name).update}FromChild`);
  shared.declare(
    node.span,
    `/** Subgraph node \`${inComment(node.name)}\`: the child's output as an update of \`${inComment(n.graph)}\`. */\n` +
      `const ${fromChild} = (out: ${V} | undefined) => ${noOutputGuard(back)};`,
  );
  return [
    read,
    // a child that finishes synchronously (no checkpointer, synchronous nodes) is mapped back at once
    // (`runSubgraphNow`, where the runtime offers it): no promise, so the parent's step stays synchronous
    `call: (input, ctx) => {
      ${unboundGuard(g, node, spec, cx)}const out = ${run};
      return out instanceof Promise ? out.then(${fromChild}) : ${fromChild}(out);
    },`,
    `sync: false,`,
    slotSubgraphProp(node, spec),
  ].join("\n");
}

/** A mapping-back body that gives no update when the child wrote no output field (`out` undefined). */
function noOutputGuard(back: string): string {
  const guard = "if (out === undefined) return undefined;";
  return back.startsWith("{") ? `{\n${guard}${back.slice(1)}` : `{\n${guard}\nreturn ${back};\n}`;
}

/**
 * `const GInnerStatefulSpec: GraphSpec = { ...InnerSpec, stateful: true };` per `stateful` subgraph node: one
 * object per node (the runtime caches compiled specs by identity), declared before the parent's spec.
 */
export function statefulSpecs(g: GraphIR, n: GraphNames, cx: EmitContext): string[] {
  return g.nodes.flatMap((node) =>
    node.kind === "subgraph" && node.stateful && !node.slot
      ? [
          cx.traced(
            node.span,
            `/** \`${inComment(node.name)}\` is stateful: its child keeps its state across calls on one thread. */\n` +
              `const ${n.statefulSpec(node.name)}: ${cx.scope.rt("GraphSpec")} = { ...${cx.child(node.child).spec}, stateful: true };`,
          ),
        ]
      : [],
  );
}

/**
 * Rejects a key the node did not declare it writes (LangGraph would drop it silently) and a value of the
 * wrong type for a field it does write. `nodeExpr` is the node's name, or `undefined` for `checkUpdate`,
 * which shares the check of a node that writes every field (`wholeKey`).
 */
function updateCheck(
  node: FunctionNodeIR,
  cx: EmitContext,
  shared: Shared,
  n: GraphNames,
  cannot: CannotWrite,
  checks: UpdateChecks,
  wholeKey: string | undefined,
  nodeExpr: string,
): string {
  const why = ` (it declares: ${node.writes.join(", ") || "nothing"})`;
  const V = cx.scope.rt("Values");
  const body = (expr: string) => checks.keyCheck(node.writes, expr, cannot(expr, why));
  const key = checkKey(node);
  const param = key === wholeKey ? "string | undefined" : "string";
  const name = shared.name(key, `${n.node(node.name).update}Check`, node.span, (nm) => `const ${nm} = (node: ${param}) => (u: ${V}) => ${body("node")};`);
  return name !== undefined ? `${name}(${nodeExpr})` : `(u) => ${body(nodeExpr)}`;
}

/**
 * A subgraph node's own return is generated mapping code; what this check sees in practice is a child's
 * `Command.PARENT` update, which may write any field of this graph (LANGUAGE.md §7), so only unknown keys
 * and wrong types fail. The check is the same for every subgraph node of the graph but for the node's name:
 * with several, one function declared before the spec gives each its closure (as shared node checks do).
 */
function parentUpdateCheck(
  g: GraphIR,
  node: SubgraphNodeIR,
  n: GraphNames,
  cx: EmitContext,
  shared: Shared,
  cannot: CannotWrite,
  checks: UpdateChecks,
): string {
  const why = `: graph "${g.name}" has no such field (a Command.PARENT update may write any of its fields)`;
  const body = (nodeExpr: string) => checks.keyCheck(g.fields.map((f) => f.name), nodeExpr, cannot(nodeExpr, why));
  const V = cx.scope.rt("Values");
  const name = shared.name(PARENT_CHECK, `${n.graph}ParentUpdateCheck`, node.span, (nm) => `const ${nm} = (node: string) => (u: ${V}) => ${body("node")};`);
  return name !== undefined ? `${name}(${str(node.name)})` : `(u) => ${body(str(node.name))}`;
}

const PARENT_CHECK = JSON.stringify(["parent-check"]);

/** A DSL target name as generated code spells it (`END` is the runtime constant). */
function target(name: string, cx: EmitContext): string {
  return name === "END" ? cx.scope.rt("END") : str(name);
}

function targets(names: readonly string[], cx: EmitContext): string {
  return names.length === 1 ? target(names[0]!, cx) : `[${names.map((t) => target(t, cx)).join(", ")}]`;
}

/** `edges`, `joins` and `branches` of a node or of START. */
export function edges(g: GraphIR, e: EdgesIR, n: GraphNames, from: string, cx: EmitContext): string {
  const stat = e.static.filter((s) => s.to !== "END").map((s) => str(s.to));
  return [
    `edges: [${stat.join(", ")}],`,
    `joins: [${e.joins.join(", ")}],`,
    `branches: [${e.branches.map((b, i) => cx.traced(b.span, `${branch(g, b, n, from, i, cx)},`)).join("\n")}],`,
  ].join("\n");
}

function branch(g: GraphIR, b: BranchIR, n: GraphNames, from: string, index: number, cx: EmitContext): string {
  const bn = n.branch(from, index);
  const args = `fresh as ${n.state}, ctx as ${n.branchContext}`;
  if (b.kind !== "conditions") cx.binding(`${bn.fn} = ${cx.fn(b.fn.local)}`, { role: b.kind === "send" ? "send" : "router", node: from, fn: b.fn.local });
  const fn = b.kind === "conditions" ? "" : `const fn: ${bn.fn} = ${cx.fn(b.fn.local)};`;
  switch (b.kind) {
    case "send":
      return `(fresh, ctx) => {\n${fn}\nreturn fn(${args});\n}`;
    case "route": {
      const call = `fn(${args})`;
      if (!b.cases) return `(fresh, ctx) => {\n${fn}\nreturn ${call};\n}`;
      const err = cx.scope.rt("InvalidUpdateError");
      const cases = b.cases.map((c) => cx.traced(c.span, `case ${str(c.key)}: return ${targets(c.targets, cx)};`));
      // LangGraph's text for a router result its path map does not cover
      const unknown = `throw new ${err}("Branch condition returned unknown or null destination", { graph: ${str(g.name)}, node: ${str(from)} });`;
      const to = `const to = (k: ${bn.key}): string | readonly string[] => {
        switch (k) {
          ${cases.join("\n")}
          default: ${unknown}
        }
      };`;
      const result = `return typeof key === "string" ? to(key) : key.flatMap(to);`;
      return b.fn.sync
        ? `(fresh, ctx) => {\n${fn}\n// known synchronous: no await\nconst key = ${call} as ${bn.key} | readonly ${bn.key}[];\n${to}\n${result}\n}`
        : `async (fresh, ctx) => {\n${fn}\nconst key = await ${call};\n${to}\n${result}\n}`;
    }
    case "conditions": {
      const lines = b.cases.map((c) =>
        c.cond === undefined
          ? cx.traced(c.span, `return ${targets(c.targets, cx)};`)
          : cx.traced(c.span, `if (${tsExpr(c.cond, "state")}) return ${targets(c.targets, cx)};`),
      );
      const hasDefault = b.cases.some((c) => c.cond === undefined);
      const needsState = b.cases.some((c) => c.cond !== undefined);
      return `(${needsState ? "fresh" : ""}) => {
        ${needsState ? `const state = fresh as ${n.state};` : ""}
        ${lines.join("\n")}
        ${hasDefault ? "" : "return [];"}
      }`;
    }
  }
}

function options(node: NodeIR, n: GraphNames): string[] {
  const o = node.options;
  const out: string[] = [];
  if (o.defer) out.push("defer: true,");
  if (o.retry) {
    const r = o.retry;
    const parts: string[] = [];
    if (r.maxAttempts !== undefined) parts.push(`maxAttempts: ${r.maxAttempts}`);
    if (r.initialIntervalMs !== undefined) parts.push(`initialInterval: ${r.initialIntervalMs}`);
    if (r.backoffFactor !== undefined) parts.push(`backoffFactor: ${r.backoffFactor}`);
    if (r.maxIntervalMs !== undefined) parts.push(`maxInterval: ${r.maxIntervalMs}`);
    if (r.jitter !== undefined) parts.push(`jitter: ${r.jitter}`);
    out.push(`retry: { ${parts.join(", ")} },`);
  }
  if (o.timeoutMs !== undefined || o.idleTimeoutMs !== undefined) {
    const parts: string[] = [];
    if (o.timeoutMs !== undefined) parts.push(`runTimeout: ${o.timeoutMs}`);
    if (o.idleTimeoutMs !== undefined) parts.push(`idleTimeout: ${o.idleTimeoutMs}`);
    out.push(`timeout: { ${parts.join(", ")} },`);
  }
  if (o.cache) {
    const parts: string[] = [];
    // LangGraph's cache ttl is in seconds
    if (o.cache.ttlMs !== undefined) parts.push(`ttl: ${o.cache.ttlMs / 1000}`);
    if (o.cache.key) {
      const read = node.kind === "function" ? n.node(node.name).read : n.state;
      const fields = o.cache.key.map((k) => access("i", k)).join(", ");
      parts.push(`key: (input) => { const i = input as ${read}; return JSON.stringify([${fields}]); }`);
    }
    out.push(`cache: { ${parts.join(", ")} },`);
  }
  if (o.onError !== undefined) out.push(`onError: ${str(o.onError)},`);
  return out;
}
