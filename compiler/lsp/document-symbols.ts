/** The outline: types and graphs of a file; per graph its fields, vars and nodes (inline subgraphs nested). */
import { SymbolKind, type DocumentSymbol } from "vscode-languageserver";
import type { Span } from "../../grammar/span.ts";
import type { BoundFile, BoundGraph, Program } from "../phases/2-bind/model.ts";
import { spanToRange } from "./paths.ts";

export function documentSymbols(program: Program, path: string): DocumentSymbol[] {
  const file = program.files.get(path);
  if (!file) return [];
  const out = [...file.types.values()].map((t) => sym(t.name, SymbolKind.TypeParameter, t.decl.span, t.decl.name.span));
  for (const g of file.graphs.values()) out.push(graphSymbol(g, program, file));
  return out.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
}

function sym(name: string, kind: SymbolKind, whole: Span, id: Span, children?: DocumentSymbol[], detail?: string): DocumentSymbol {
  return { name, kind, range: spanToRange(whole), selectionRange: spanToRange(id), ...(children ? { children } : {}), ...(detail ? { detail } : {}) };
}

function graphSymbol(g: BoundGraph, program: Program, file: BoundFile): DocumentSymbol {
  const children: DocumentSymbol[] = [];
  for (const f of g.fields.values()) {
    const type = f.typeExpr ? file.text.slice(f.typeExpr.span.start.offset, f.typeExpr.span.end.offset) : undefined;
    children.push(sym(f.name, SymbolKind.Field, f.decl.span, f.span, undefined, type));
  }
  for (const v of g.vars.values()) children.push(sym(v.name, SymbolKind.Variable, v.decl.span, v.span));
  for (const n of g.nodes.values()) {
    const inline = n.kind === "subgraph" && n.targetKind === "inline" ? program.graphs.find((c) => c.inlineIn?.graph === g && c.inlineIn.node === n.name) : undefined;
    const nested = inline ? [graphSymbol(inline, program, file)] : undefined;
    const detail = n.kind === "subgraph" ? `subgraph${n.target ? ` = ${n.target.name}` : ""}` : n.implName.name;
    children.push(sym(n.name, n.kind === "subgraph" ? SymbolKind.Module : SymbolKind.Function, n.decl.span, n.span, nested, detail));
  }
  children.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
  return sym(g.name, SymbolKind.Class, g.decl.span, g.decl.name.span, children);
}
