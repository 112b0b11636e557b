/**
 * The symbol index of a bound program: every name occurrence in every `.graph` file, resolved to what it
 * names. Built from the binder's model (phases/2-bind), which already resolved every reference once —
 * nothing is looked up here that the binder did not decide. Hover, definition, references, rename and
 * semantic tokens all read this one index.
 */
import type { Expr, FieldDecl, OptionEntry, StringLit, TypeExpr } from "../../grammar/ast.ts";
import type { Span } from "../../grammar/span.ts";
import { exprNames } from "../phases/2-bind/graph.ts";
import { onErrorTarget } from "../phases/2-bind/options.ts";
import {
  findImport,
  type BoundField,
  type BoundFile,
  type BoundGraph,
  type BoundImport,
  type BoundNode,
  type BoundTypeAlias,
  type BoundVar,
  type Program,
} from "../phases/2-bind/model.ts";

export type Sym =
  | { readonly kind: "field"; readonly key: string; readonly name: string; readonly graph: BoundGraph; readonly field: BoundField }
  | { readonly kind: "node"; readonly key: string; readonly name: string; readonly graph: BoundGraph; readonly node: BoundNode }
  | { readonly kind: "graph"; readonly key: string; readonly name: string; readonly graph: BoundGraph }
  | { readonly kind: "type"; readonly key: string; readonly name: string; readonly file: string; readonly alias: BoundTypeAlias }
  | { readonly kind: "var"; readonly key: string; readonly name: string; readonly graph: BoundGraph; readonly v: BoundVar }
  /** an imported TypeScript value or type (node function, router, reducer, transform, `import type`) */
  | { readonly kind: "ts"; readonly key: string; readonly name: string; readonly file: string; readonly imp: BoundImport }
  /** a `from "x.graph"` path literal */
  | { readonly kind: "file"; readonly key: string; readonly name: string; readonly path: string };

/**
 * A same-name subgraph mapping entry (`in { intent }`) names a child field and a parent field at once: it
 * carries how to spell it out when only one side is renamed (`intent <- kind`, `kind -> intent`).
 */
export interface SameNameSide {
  readonly direction: "in" | "out";
  readonly side: "child" | "parent";
}

export interface Occurrence {
  readonly span: Span;
  readonly sym: Sym;
  /** the declaring identifier (or one declaration site of a field: state, input, output, private) */
  readonly decl: boolean;
  readonly sameName?: SameNameSide | undefined;
}

export interface SymbolIndex {
  /** occurrences in `file`, by start offset */
  inFile(file: string): readonly Occurrence[];
  /** occurrences at `offset` in `file` (same-name mappings give two) */
  at(file: string, offset: number): Occurrence[];
  /** every occurrence of the symbol with `key`, across files */
  of(key: string): readonly Occurrence[];
}

const indexes = new WeakMap<Program, SymbolIndex>();

export function symbolIndex(program: Program): SymbolIndex {
  let index = indexes.get(program);
  if (!index) indexes.set(program, (index = build(program)));
  return index;
}

const fieldKey = (g: BoundGraph, name: string) => `field:${g.id}:${name}`;

function build(program: Program): SymbolIndex {
  const byFile = new Map<string, Occurrence[]>();
  const byKey = new Map<string, Occurrence[]>();
  const add = (span: Span, sym: Sym, decl = false, sameName?: SameNameSide) => {
    if (span.end.offset <= span.start.offset) return;
    const o: Occurrence = { span, sym, decl, sameName };
    const f = byFile.get(span.file) ?? [];
    f.push(o);
    byFile.set(span.file, f);
    const k = byKey.get(sym.key) ?? [];
    k.push(o);
    byKey.set(sym.key, k);
  };
  const syms = new Map<string, Sym>();
  const intern = <S extends Sym>(s: S): S => (syms.get(s.key) as S | undefined) ?? (syms.set(s.key, s), s);

  const graphSym = (g: BoundGraph): Sym => intern({ kind: "graph", key: `graph:${g.id}`, name: g.name, graph: g });
  const fieldSym = (g: BoundGraph, f: BoundField): Sym => intern({ kind: "field", key: fieldKey(g, f.name), name: f.name, graph: g, field: f });
  const nodeSym = (g: BoundGraph, n: BoundNode): Sym => intern({ kind: "node", key: `node:${g.id}:${n.name}`, name: n.name, graph: g, node: n });
  const typeSym = (file: string, a: BoundTypeAlias): Sym => intern({ kind: "type", key: `type:${file}#${a.name}`, name: a.name, file, alias: a });
  const tsSym = (file: BoundFile, imp: BoundImport): Sym =>
    intern({ kind: "ts", key: `ts:${file.path}#${imp.local}`, name: imp.local, file: file.path, imp });

  /** what `name` means inside graph `g` of `file`, at an expression (field or var) */
  const fieldOrVar = (g: BoundGraph, id: { name: string; span: Span }) => {
    const f = g.fields.get(id.name);
    if (f) return add(id.span, fieldSym(g, f));
    const v = g.vars.get(id.name);
    if (v) add(id.span, intern({ kind: "var", key: `var:${g.id}:${v.name}`, name: v.name, graph: g, v }));
  };
  const field = (g: BoundGraph | undefined, id: { name: string; span: Span }, sameName?: SameNameSide) => {
    const f = g?.fields.get(id.name);
    if (g && f) add(id.span, fieldSym(g, f), false, sameName);
  };
  const node = (g: BoundGraph, id: { name: string; span: Span }) => {
    const n = g.nodes.get(id.name);
    if (n) add(id.span, nodeSym(g, n));
  };
  const tsValue = (file: BoundFile, id: { name: string; span: Span } | undefined) => {
    const imp = id && findImport(file, id.name);
    if (id && imp && imp.kind !== "graph") add(id.span, tsSym(file, imp));
  };
  const exprs = (g: BoundGraph, e: Expr | undefined) => {
    if (e) for (const r of exprNames(e)) fieldOrVar(g, r);
  };

  // types: aliases, imported types and graphs, and every type expression naming them
  const typeNamed = (file: BoundFile, name: string): Sym | undefined => {
    const local = file.types.get(name);
    if (local) return typeSym(file.path, local);
    const imp = findImport(file, name);
    if (imp?.kind === "graph" && imp.resolvedFile !== undefined) {
      const alias = program.files.get(imp.resolvedFile)?.types.get(imp.exported);
      return alias ? typeSym(imp.resolvedFile, alias) : undefined;
    }
    return imp?.kind === "type" || imp?.kind === "value" ? tsSym(file, imp) : undefined;
  };
  const typeExpr = (file: BoundFile, t: TypeExpr | undefined): void => {
    if (!t) return;
    switch (t.kind) {
      case "NamedType": {
        const s = typeNamed(file, t.name.name);
        if (s) add(t.name.span, s);
        for (const a of t.args) typeExpr(file, a);
        return;
      }
      case "ArrayType":
        return typeExpr(file, t.element);
      case "OptionalType":
        return typeExpr(file, t.inner);
      case "UnionType":
        for (const m of t.members) typeExpr(file, m);
        return;
      case "ObjectType":
        for (const m of t.members) typeExpr(file, m.type);
        return;
      case "LiteralType":
        return;
    }
  };

  for (const file of program.files.values()) {
    for (const a of file.types.values()) {
      add(a.decl.name.span, typeSym(file.path, a), true);
      typeExpr(file, a.decl.type);
    }
    for (const item of file.ast.items) {
      if (item.kind !== "Import") continue;
      if (item.isGraph) {
        const imp = findImport(file, (item.names[0]?.alias ?? item.names[0]?.name)?.name ?? "");
        const target = imp?.resolvedFile;
        if (target !== undefined) add(innerSpan(item.from), { kind: "file", key: `file:${target}`, name: item.from.value, path: target });
      }
      for (const n of item.names) {
        const local = n.alias ?? n.name;
        const imp = findImport(file, local.name);
        if (!imp) continue;
        if (imp.kind !== "graph") {
          add(n.name.span, tsSym(file, imp));
          if (n.alias) add(n.alias.span, tsSym(file, imp));
          continue;
        }
        const target = imp.resolvedFile === undefined ? undefined : program.files.get(imp.resolvedFile);
        const g = target?.graphs.get(imp.exported);
        const t = target?.types.get(imp.exported);
        const s = g ? graphSym(g) : t && target ? typeSym(target.path, t) : undefined;
        if (!s) continue;
        add(n.name.span, s);
        if (n.alias) add(n.alias.span, s);
      }
    }
  }

  for (const g of program.graphs) {
    const file = program.files.get(g.file);
    if (!file) continue;
    if (!g.inlineIn) add(g.decl.name.span, graphSym(g), true);
    for (const f of g.fields.values()) {
      for (const site of f.declarations) {
        add(site.decl.name.span, fieldSym(g, f), true);
        typeExpr(file, site.decl.type);
        reducer(file, site.decl);
      }
    }
    for (const v of g.vars.values()) {
      add(v.span, intern({ kind: "var", key: `var:${g.id}:${v.name}`, name: v.name, graph: g, v }), true);
      typeExpr(file, v.decl.type);
    }
    for (const side of [g.interrupts.before, g.interrupts.after]) for (const r of side) node(g, r);

    for (const n of g.nodes.values()) {
      add(n.span, nodeSym(g, n), true);
      for (const t of n.goto ?? []) node(g, t);
      options(g, n.optionEntries);
      if (n.kind === "node") {
        for (const s of [n.decl.reads, n.decl.writes]) if (s?.kind === "FieldList") for (const id of s.fields) field(g, id);
        tsValue(file, n.implName);
        if (n.usesTarget && n.options.uses) add(n.options.uses.span, graphSym(n.usesTarget));
        continue;
      }
      const child = n.target;
      const t = n.decl.target;
      if (child && t.kind === "GraphRef") add(t.name.span, graphSym(child));
      if (t.kind === "FileRef") {
        if (child) add(innerSpan(t.path), { kind: "file", key: `file:${child.file}`, name: t.path.value, path: child.file });
        if (child && t.graph) add(t.graph.span, graphSym(child));
      }
      if (n.in.kind === "block")
        for (const item of n.in.items) {
          if (item.sameName) {
            field(g, item.child, { direction: "in", side: "parent" });
            field(child, item.child, { direction: "in", side: "child" });
          } else {
            field(child, item.child);
            exprs(g, item.expr);
          }
        }
      else if (n.in.kind === "fn") tsValue(file, n.in.fnName);
      if (n.out.kind === "block")
        for (const item of n.out.items) {
          if (item.sameName) {
            field(g, item.parent, { direction: "out", side: "parent" });
            field(child, item.child, { direction: "out", side: "child" });
          } else {
            field(child, item.child);
            field(g, item.parent);
          }
        }
      else if (n.out.kind === "fn") tsValue(file, n.out.fnName);
    }

    for (const e of g.edges.static) {
      node(g, e.from);
      node(g, e.to);
    }
    for (const j of g.edges.joins) {
      for (const s of j.sources) node(g, s);
      node(g, j.target);
    }
    for (const b of g.edges.branches) {
      node(g, b.from);
      if (b.kind === "route") {
        tsValue(file, b.fnName);
        for (const c of b.cases ?? []) for (const t of c.targets) node(g, t);
      } else if (b.kind === "send") tsValue(file, b.fnName);
      else
        for (const c of b.cases) {
          exprs(g, c.cond);
          for (const t of c.targets) node(g, t);
        }
    }
  }

  function reducer(file: BoundFile, decl: FieldDecl) {
    if (decl.reducer) tsValue(file, decl.reducer);
  }
  function options(g: BoundGraph, entries: readonly OptionEntry[]) {
    for (const e of entries) {
      if (e.name.name === "on_error") {
        const t = onErrorTarget(e);
        if (t) node(g, t);
      }
      if (e.name.name === "cache" && e.value?.kind === "OptionBlock")
        for (const k of e.value.entries) if (k.name.name === "key" && k.value?.kind === "Tuple") for (const id of k.value.items) field(g, id);
    }
  }

  // a name may be indexed twice (a same-name import is both the name and the local); keep one per span and symbol
  for (const [file, list] of byFile) byFile.set(file, dedupe(list).sort((a, b) => a.span.start.offset - b.span.start.offset));
  for (const [key, list] of byKey) byKey.set(key, dedupe(list));
  return {
    inFile: (file) => byFile.get(file) ?? [],
    at: (file, offset) => (byFile.get(file) ?? []).filter((o) => o.span.start.offset <= offset && offset <= o.span.end.offset),
    of: (key) => byKey.get(key) ?? [],
  };
}

function dedupe(list: Occurrence[]): Occurrence[] {
  const seen = new Map<string, Occurrence>();
  for (const o of list) {
    const k = `${o.span.file}|${o.span.start.offset}|${o.sym.key}`;
    const prev = seen.get(k);
    if (!prev || (o.decl && !prev.decl)) seen.set(k, o);
  }
  return [...seen.values()];
}

/** The text between a string literal's quotes. */
function innerSpan(s: StringLit): Span {
  const shift = (p: Span["start"], by: number) => ({ offset: p.offset + by, line: p.line, column: p.column + by });
  return { file: s.span.file, start: shift(s.span.start, 1), end: shift(s.span.end, -1) };
}
