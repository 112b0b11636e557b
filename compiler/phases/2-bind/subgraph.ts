/**
 * Completes subgraph nodes once every graph exists: resolves the child graph (by name, import, inline or
 * file) and the in/out mappings (`shared` mappings are the same-name fields computed here).
 */
import type { Expr, Ident, MapEntry, Mapping } from "../../../grammar/ast.ts";
import { ref } from "./edges.ts";
import { exprNames, importValue, type BindContext, type PendingSubgraph } from "./graph.ts";
import {
  findImport,
  type BoundFile,
  type BoundGraph,
  type InMapItem,
  type NameRef,
  type OutMapItem,
  type SlotBinding,
  type SubgraphMapping,
  type SubgraphNode,
} from "./model.ts";
import { findInterface } from "./interfaces.ts";
import { readNodeOptions } from "./options.ts";

/** The graph a subgraph node targets, or undefined (reported by 3-check/subgraphs.ts). */
export function resolveTarget(p: PendingSubgraph, ctx: BindContext): BoundGraph | undefined {
  const t = p.decl.target;
  switch (t.kind) {
    case "InlineGraph":
      return p.inline;
    case "GraphRef":
      return graphByName(p.file, t.name.name, ctx);
    case "FileRef": {
      const path = ctx.resolvedPaths.get(t.path);
      const file = path === undefined ? undefined : ctx.files.get(path);
      if (!file) return undefined;
      if (t.graph) return file.graphs.get(t.graph.name);
      return file.graphs.size === 1 ? [...file.graphs.values()][0] : undefined;
    }
    case "Slot":
      return t.default === undefined ? undefined : graphByName(p.file, t.default.name, ctx);
  }
}

/** A slot's interface and default as written (`subgraph q: Iface = Default`), or undefined for other targets. */
function slotOf(p: PendingSubgraph, ctx: BindContext): SlotBinding | undefined {
  const t = p.decl.target;
  if (t.kind !== "Slot") return undefined;
  return {
    interfaceRef: ref(t.interface),
    interface: findInterface(ctx.files, p.file, t.interface.name),
    defaultRef: t.default === undefined ? undefined : ref(t.default),
  };
}

/** A graph visible in `file` under `name`: declared there, or imported from a `.graph` file. */
export function graphByName(file: BoundFile, name: string, ctx: BindContext): BoundGraph | undefined {
  const local = file.graphs.get(name);
  if (local) return local;
  const found = findImport(file, name);
  const imp = found?.kind === "graph" ? found : undefined;
  if (!imp?.resolvedFile) return undefined;
  return ctx.files.get(imp.resolvedFile)?.graphs.get(imp.exported);
}

const nameExpr = (id: Ident): Expr => ({ kind: "Name", span: id.span, name: id });

function inItems(entries: readonly MapEntry[]): InMapItem[] {
  const out: InMapItem[] = [];
  for (const e of entries) {
    if (e.kind === "SameName") {
      if (e.name.name !== "")
        out.push({ child: ref(e.name), expr: nameExpr(e.name), parentFields: [ref(e.name)], sameName: true });
    } else if (e.kind === "InMap") {
      if (e.child.name !== "")
        out.push({ child: ref(e.child), expr: e.expr, parentFields: exprNames(e.expr), sameName: false });
    }
    // an `OutMap` entry inside `in { }` is a syntax-level mistake reported by the parser
  }
  return out;
}

function outItems(entries: readonly MapEntry[]): OutMapItem[] {
  const out: OutMapItem[] = [];
  for (const e of entries) {
    if (e.kind === "SameName") {
      if (e.name.name !== "") out.push({ child: ref(e.name), parent: ref(e.name), sameName: true });
    } else if (e.kind === "OutMap") {
      if (e.child.name !== "" && e.parent.name !== "")
        out.push({ child: ref(e.child), parent: ref(e.parent), sameName: false });
    }
  }
  return out;
}

function mapping<Item>(
  m: Mapping | undefined,
  file: BoundFile,
  shared: () => Item[],
  items: (entries: readonly MapEntry[]) => Item[],
): SubgraphMapping<Item> {
  if (!m) return { kind: "shared", items: shared() };
  if (m.kind === "MapFn") return { kind: "fn", fn: importValue(file, m.fn), fnName: ref(m.fn), span: m.span };
  return { kind: "block", items: items(m.entries), span: m.span };
}

export function completeSubgraphs(ctx: BindContext): void {
  for (const p of ctx.pending) {
    const target = resolveTarget(p, ctx);
    const slot = slotOf(p, ctx);
    // a slot's same-name mappings follow the interface, not whichever graph is bound
    const shape = slot ? slot.interface?.shape : target;
    const parent = p.graph;
    const at = p.decl.name;
    // `in` expressions may also name vars (or unknown names, reported by the checker): keep the fields
    const fieldsOnly = (items: InMapItem[]): InMapItem[] =>
      items.map((i) => ({ ...i, parentFields: i.parentFields.filter((f) => parent.fields.has(f.name)) }));
    // without a mapping block: the child's input (output) fields the parent has too, passed by name
    const sameName = (childFields: readonly string[] = []) => childFields.filter((f) => parent.fields.has(f));
    const inMap = mapping<InMapItem>(
      p.decl.in,
      p.file,
      () =>
        sameName(shape?.input).map((f) => ({
          child: { name: f, span: at.span },
          expr: nameExpr({ ...at, name: f }),
          parentFields: [{ name: f, span: at.span }],
          sameName: true,
        })),
      (entries) => fieldsOnly(inItems(entries)),
    );
    const outMap = mapping<OutMapItem>(
      p.decl.out,
      p.file,
      () =>
        sameName(shape?.output).map((f) => ({
          child: { name: f, span: at.span },
          parent: { name: f, span: at.span },
          sameName: true,
        })),
      outItems,
    );
    // an `in = fn` transform may read anything: the node receives the whole parent state
    const reads: NameRef[] =
      inMap.kind === "fn"
        ? parent.state.map((name) => ({ name, span: inMap.span }))
        : dedupe(inMap.items.flatMap((i) => i.parentFields));
    const writes: NameRef[] =
      outMap.kind === "fn"
        ? [...parent.fields.keys()].map((name) => ({ name, span: outMap.span }))
        : dedupe(outMap.items.map((o) => o.parent));
    const node: SubgraphNode = {
      kind: "subgraph",
      name: at.name,
      span: at.span,
      decl: p.decl,
      reads,
      writes,
      target,
      targetKind: TARGET_KIND[p.decl.target.kind],
      slot,
      in: inMap,
      out: outMap,
      goto: p.decl.goto?.filter((t) => t.name !== "").map(ref),
      options: readNodeOptions(p.decl.options, new Set(reads.map((r) => r.name)), "subgraph"),
      optionEntries: p.decl.options,
    };
    parent.nodes.set(at.name, node);
  }
}

const TARGET_KIND = { GraphRef: "ref", InlineGraph: "inline", FileRef: "file", Slot: "slot" } as const;

function dedupe(refs: NameRef[]): NameRef[] {
  const seen = new Set<string>();
  return refs.filter((r) => (seen.has(r.name) ? false : (seen.add(r.name), true)));
}

/** Resolves every function node's `uses: Child` to its graph (unknown names are reported by 3-check). */
export function completeUses(ctx: BindContext): void {
  for (const g of ctx.graphs) {
    const file = ctx.files.get(g.file);
    if (!file) continue;
    for (const n of g.nodes.values()) {
      if (n.kind === "node" && n.options.uses) n.usesTarget = graphByName(file, n.options.uses.name, ctx);
    }
  }
}
