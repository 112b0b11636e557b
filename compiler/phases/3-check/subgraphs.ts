/**
 * Subgraph nodes: the child graph resolves; mappings name real fields on both sides with assignable types;
 * child inputs are supplied; shared fields do not double through accumulating reducers; no cycles between
 * graphs (across files); nesting at most 3 levels deep.
 */
import type { Span } from "../../../grammar/span.ts";
import { d, rel } from "../../diagnostics/messages.ts";
import { suggest } from "../../diagnostics/did-you-mean.ts";
import {
  findImport,
  type BoundField,
  type BoundFile,
  type BoundGraph,
  type DslType,
  type NameRef,
  type SlotBinding,
  type SubgraphMapping,
  type SubgraphNode,
} from "../2-bind/model.ts";
import { T, typeToString, union } from "../2-bind/types.ts";
import { fieldCandidates, graphLabel, graphScope, type CheckContext } from "./context.ts";
import { checkImportedFn } from "./nodes.ts";
import { assignable, exprType } from "./typesystem.ts";
import { chainGraphs, deepestChains, leadsBack, subgraphNodes, type Chain } from "./subgraph-graph.ts";
import { checkInheritedVars } from "./vars.ts";
import { reducerDef, startsSet } from "../reducers.ts";

/** nesting beyond this many levels is a warning (G5007): hard to follow, but it works */
const MAX_DEPTH = 3;
/**
 * Hard limit (G5012). A subgraph call at run time nests the child's run inside the parent's task, several
 * stack frames and promises per level, and the compiler walks chains of graphs; 64 levels is far beyond
 * any design the G5007 warning would let through unremarked, and keeps every such walk shallow.
 */
export const MAX_SUBGRAPH_DEPTH = 64;

/** What a write into `field` may carry, given its reducer (append takes an item or a list). */
function updateType(field: BoundField): DslType {
  const r = field.reducer;
  if (r.kind === "custom") return T.unknown; // the TS signature decides
  if (r.kind === "builtin" && reducerDef(r.name).update === "item-or-list" && field.type.kind === "array") {
    return union([field.type, field.type.element]);
  }
  return field.type;
}

/** A slot's interface resolves (G2042) and its default, if any, resolves (G2010) and implements it (G5013). */
function checkSlot(node: SubgraphNode, slot: SlotBinding, g: BoundGraph, ctx: CheckContext): BoundGraph | undefined {
  const file = ctx.program.files.get(g.file);
  const iface = slot.interface;
  if (iface === undefined) {
    // a name imported from a `.graph` file that did not load (or does not export it) is reported by bind
    if (slot.interfaceRef.name === "" || (file && importReportedByBind(file, slot.interfaceRef.name, ctx))) return undefined;
    const candidates = file ? [...file.interfaces.values()].map((i) => ({ name: i.name, span: i.decl.name.span })) : [];
    const name = slot.interfaceRef.name;
    ctx.diagnostics.push(
      d.unknownSlotInterface(slot.interfaceRef.span, { name, node: node.name, graph: g.name, suggestions: suggest(name, candidates) }),
    );
    return undefined;
  }
  const def = slot.defaultRef;
  if (def === undefined || def.name === "") return iface.shape;
  if (!node.target) {
    const candidates = file ? [...file.graphs.values()].map((x) => ({ name: x.name, span: x.decl.name.span })) : [];
    ctx.diagnostics.push(d.unknownGraph(def.span, { name: def.name, suggestions: suggest(def.name, candidates) }));
  } else if (!node.target.implements.some((i) => i.target === iface)) {
    ctx.diagnostics.push(d.slotDefaultNotImplementing(def.span, { name: def.name, node: node.name, iface: iface.name }));
  }
  return iface.shape;
}

/** An import of `name` from a `.graph` file that did not load or does not declare it (bind reports those). */
function importReportedByBind(file: BoundFile, name: string, ctx: CheckContext): boolean {
  const imp = findImport(file, name);
  if (imp?.kind !== "graph") return false;
  const from = imp.resolvedFile === undefined ? undefined : ctx.program.files.get(imp.resolvedFile);
  return !from || !(from.graphs.has(imp.exported) || from.interfaces.has(imp.exported) || from.types.has(imp.exported));
}

function checkTarget(node: SubgraphNode, g: BoundGraph, ctx: CheckContext): void {
  const t = node.decl.target;
  if (t.kind !== "GraphRef" || node.target || t.name.name === "") return;
  const file = ctx.program.files.get(g.file);
  const imp = file ? findImport(file, t.name.name) : undefined;
  if (imp?.kind === "graph") return; // file not found / name not exported: reported by bind
  if (imp) {
    ctx.diagnostics.push(
      d.importKindMismatch(
        t.name.span,
        {
          name: t.name.name,
          expected: "a graph",
          actual: imp.kind === "type" ? "a type-only import" : "a TS value import",
        },
        [rel(imp.span, "imported here")],
      ),
    );
    return;
  }
  const candidates = [
    ...(file ? [...file.graphs.values()].map((x) => ({ name: x.name, span: x.decl.name.span })) : []),
    ...(file?.imports.filter((i) => i.kind === "graph").map((i) => ({ name: i.local, span: i.span })) ?? []),
  ];
  ctx.diagnostics.push(
    d.unknownGraph(t.name.span, { name: t.name.name, suggestions: suggest(t.name.name, candidates) }),
  );
}

/**
 * A TS transform (`in: fn` / `out: fn`) is an import to check; a written block maps each target once.
 * Returns the items whose fields and types are to be checked, or undefined for a transform.
 */
function mappingItems<Item>(
  mapping: SubgraphMapping<Item>,
  side: "in" | "out",
  target: (item: Item) => NameRef,
  node: SubgraphNode,
  file: BoundFile | undefined,
  ctx: CheckContext,
): Item[] | undefined {
  if (mapping.kind === "fn") {
    checkImportedFn(mapping.fnName, `the \`${side}\` transform of \`${node.name}\``, file, ctx);
    return undefined;
  }
  if (mapping.kind === "block") mappedOnce(mapping.items.map(target), ctx);
  return mapping.items;
}

/** Is `ref` among the child's `allowed` fields (its input or output)? If not, `report` says so, with close names. */
function isChildField(
  ref: NameRef,
  allowed: readonly string[],
  child: BoundGraph,
  report: typeof d.inMapUnknownChildField,
  ctx: CheckContext,
): boolean {
  if (allowed.includes(ref.name)) return true;
  const candidates = allowed.map((n) => ({ name: n, span: child.fields.get(n)?.span }));
  ctx.diagnostics.push(report(ref.span, { name: ref.name, graph: child.name, suggestions: suggest(ref.name, candidates) }));
  return false;
}

function checkMappings(
  node: SubgraphNode,
  parent: BoundGraph,
  child: BoundGraph,
  ctx: CheckContext,
  warnUnused: boolean,
): void {
  const diags = ctx.diagnostics;
  const file = ctx.program.files.get(parent.file);

  const inItems = mappingItems(node.in, "in", (i) => i.child, node, file, ctx);
  if (inItems) {
    const scope = graphScope(parent, `the \`in\` mapping of \`${node.name}\``);
    for (const item of inItems) {
      const before = diags.length;
      const from = exprType(item.expr, scope, diags);
      if (!isChildField(item.child, child.input, child, d.inMapUnknownChildField, ctx)) continue;
      const to = child.fields.get(item.child.name);
      if (diags.length === before && to && !assignable(from, to.type)) {
        diags.push(
          d.mappingTypeMismatch(
            item.sameName ? item.child.span : item.expr.span,
            {
              child: item.child.name,
              graph: child.name,
              from: typeToString(from),
              to: typeToString(to.type),
              direction: "in",
            },
            [rel(to.span, `declared in graph \`${child.name}\``)],
          ),
        );
      }
    }
    // child input fields nobody fills
    const supplied = new Set(inItems.map((i) => i.child.name));
    for (const name of warnUnused ? child.input : []) {
      const f = child.fields.get(name);
      if (supplied.has(name) || !f || f.default !== undefined || startsSet(f.reducer)) continue;
      diags.push(
        d.childInputUnsupplied(node.span, { name, graph: child.name, node: node.name }, [
          rel(f.span, `declared in graph \`${child.name}\``),
        ]),
      );
    }
  }

  const outItems = mappingItems(node.out, "out", (i) => i.parent, node, file, ctx);
  if (outItems) {
    for (const item of outItems) {
      if (!isChildField(item.child, child.output, child, d.outMapNotReturned, ctx)) continue;
      const target = parent.fields.get(item.parent.name);
      if (!target) {
        diags.push(
          d.outMapParentUnknown(item.parent.span, {
            name: item.parent.name,
            graph: parent.name,
            suggestions: suggest(item.parent.name, fieldCandidates(parent)),
          }),
        );
        continue;
      }
      const from = child.fields.get(item.child.name)!;
      if (!assignable(from.type, updateType(target))) {
        diags.push(
          d.mappingTypeMismatch(
            item.sameName ? item.child.span : item.parent.span,
            {
              child: item.child.name,
              graph: child.name,
              from: typeToString(from.type),
              to: typeToString(target.type),
              direction: "out",
            },
            [
              rel(from.span, `declared in graph \`${child.name}\``),
              rel(target.span, `declared in graph \`${parent.name}\``),
            ],
          ),
        );
      }
      // LangGraph writes the child's whole value back through the parent's reducer: if the field went in,
      // an accumulating reducer counts the old value twice
      const r = target.reducer;
      const accumulating = (r.kind === "builtin" && reducerDef(r.name).accumulates) || r.kind === "custom";
      // a TS transform fills only the child's input fields: a child field outside its input starts empty
      // in every run, so the child returns only what it added
      const wentIn =
        node.in.kind === "fn"
          ? child.input.includes(item.child.name)
          : node.in.items.some(
              (i) => i.child.name === item.child.name && i.parentFields.some((p) => p.name === target.name),
            );
      if (accumulating && wentIn) {
        const reducer = r.kind === "custom" ? r.fn.local : r.kind === "builtin" ? r.name : "replace";
        diags.push(
          d.sharedReducerDuplicates(
            item.sameName ? node.span : item.parent.span,
            { name: target.name, reducer, graph: child.name },
            [rel(target.span, "reducer declared here")],
          ),
        );
      }
    }
  }

  if (
    warnUnused &&
    node.in.kind === "shared" &&
    node.out.kind === "shared" &&
    node.in.items.length === 0 &&
    node.out.items.length === 0
  ) {
    diags.push(d.subgraphNoShared(node.span, { node: node.name, graph: child.name }));
  }
}

/** each child field filled once by `in`, each parent field written once by `out` */
function mappedOnce(targets: readonly NameRef[], ctx: CheckContext): void {
  const seen = new Map<string, NameRef>();
  for (const t of targets) {
    const first = seen.get(t.name);
    if (first)
      ctx.diagnostics.push(d.mappingDuplicate(t.span, { name: t.name }, [rel(first.span, "first mapped here")]));
    else seen.set(t.name, t);
  }
}

/** Cycles among graphs through subgraph nodes; each cycle reported once, at the reference closing it. */
function checkCycles(ctx: CheckContext): void {
  const state = new Map<BoundGraph, "active" | "done">();
  const reported = new Set<string>();
  // the depth-first path, with each graph's position on it (a cycle's start is found in O(1))
  type Frame = { graph: BoundGraph; via?: SubgraphNode; nodes: SubgraphNode[]; at: number };
  const path: Frame[] = [];
  const position = new Map<BoundGraph, number>();
  const enter = (graph: BoundGraph, via?: SubgraphNode): void => {
    state.set(graph, "active");
    position.set(graph, path.length);
    path.push(via ? { graph, via, nodes: subgraphNodes(graph), at: 0 } : { graph, nodes: subgraphNodes(graph), at: 0 });
  };
  for (const root of ctx.program.graphs) {
    if (state.has(root)) continue;
    enter(root);
    while (path.length > 0) {
      const f = path[path.length - 1]!;
      if (f.at >= f.nodes.length) {
        state.set(f.graph, "done");
        position.delete(f.graph);
        path.pop();
        continue;
      }
      const n = f.nodes[f.at++]!;
      const t = n.target;
      if (!t) continue;
      if (state.get(t) === "active") {
        // the path ends with `f.graph`; from `t` to it is the cycle, and `n` closes it
        const cycle = path.slice(position.get(t)!);
        const key = cycle
          .map((s) => s.graph.id)
          .sort()
          .join("|");
        if (!reported.has(key)) {
          reported.add(key);
          const names = [...cycle.map((s) => graphLabel(s.graph)), graphLabel(t)];
          const related = cycle
            .slice(1)
            .flatMap((s) => (s.via ? [rel(s.via.decl.target.span, `subgraph \`${s.via.name}\` uses \`${s.graph.name}\` here`)] : []));
          ctx.diagnostics.push(d.includeCycle(n.decl.target.span, { cycle: names }, related));
        }
        continue;
      }
      if (state.get(t) !== "done") enter(t, n);
    }
  }
}

/**
 * Depth of subgraph nesting below each root graph of the entry files (cycles cut): a warning beyond
 * MAX_DEPTH levels, an error beyond MAX_SUBGRAPH_DEPTH. Once per chain, from its outermost graph (one no
 * other graph uses): a chain of n graphs used to give n - 3 warnings of up to n names each.
 */
function checkNesting(ctx: CheckContext): void {
  const entries = new Set(ctx.program.entryFiles);
  const roots = ctx.program.graphs.filter((g) => entries.has(g.file) && !g.inlineIn);
  const chains = deepestChains(roots);
  const used = new Set<BoundGraph>();
  for (const g of ctx.program.graphs) for (const n of subgraphNodes(g)) if (n.target) used.add(n.target);
  // a graph another graph uses is inside someone's chain: the outermost graph reports it once
  for (const g of roots) {
    const r = chains.get(g)!;
    if (used.has(g)) continue;
    if (r.depth > MAX_SUBGRAPH_DEPTH) reportTooDeep(r, ctx);
    else if (r.depth > MAX_DEPTH && r.via) {
      ctx.diagnostics.push(d.nestingTooDeep(r.via.span, { depth: r.depth, chain: chainGraphs(r).map((x) => x.name) }));
    }
  }
}

/** G5012 at the subgraph node that goes one level beyond the limit. */
function reportTooDeep(root: Chain, ctx: CheckContext): void {
  let at = root;
  for (let level = 0; level < MAX_SUBGRAPH_DEPTH && at.rest; level++) at = at.rest;
  if (!at.via) return;
  const names = chainGraphs(root)
    .slice(0, MAX_SUBGRAPH_DEPTH + 2)
    .map((g) => g.name);
  // the first graphs and the two around the crossing: enough to find the chain, short enough to read
  const chain = [...names.slice(0, 3), "…", ...names.slice(-2)];
  ctx.diagnostics.push(d.subgraphsTooDeep(at.via.span, { max: MAX_SUBGRAPH_DEPTH, graph: root.graph.name, chain }));
}

export function checkSubgraphs(g: BoundGraph, ctx: CheckContext): void {
  for (const node of subgraphNodes(g)) {
    if (node.slot) {
      // a slot's mappings are checked against its interface; its default only has to implement it
      const shape = checkSlot(node, node.slot, g, ctx);
      if (shape) checkMappings(node, g, shape, ctx, true);
      if (node.target) checkInheritedVars(g, node.target, node.span as Span, ctx);
      continue;
    }
    checkTarget(node, g, ctx);
    if (!node.target) continue;
    // inside an include cycle (reported once, G5005) the "looks unintended" warnings are noise
    checkMappings(node, g, node.target, ctx, !leadsBack(ctx.program, node.target, g));
    checkInheritedVars(g, node.target, node.span as Span, ctx);
  }
}

export function checkProgramSubgraphs(ctx: CheckContext): void {
  checkCycles(ctx);
  checkNesting(ctx);
}
