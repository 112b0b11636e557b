/**
 * Go to definition and find references, from the symbol index. A field jumps to its declaration, a node
 * or graph to its declaration (across files), `= impl` and other imported names to the TypeScript
 * declaration in the module, `from "x.graph"` to the file.
 */
import type { Location } from "vscode-languageserver";
import type { Span } from "../../grammar/span.ts";
import type { Program } from "../phases/2-bind/model.ts";
import { pathToUri, spanToRange } from "./paths.ts";
import { symbolIndex, type Sym } from "./symbols.ts";
import { findExport, resolveModule } from "./ts-source.ts";

export function definition(program: Program, path: string, offset: number): Location[] {
  return symbolIndex(program)
    .at(path, offset)
    .flatMap((o) => declarationOf(o.sym));
}

export function declarationOf(sym: Sym): Location[] {
  const loc = (span: Span) => ({ uri: pathToUri(span.file), range: spanToRange(span) });
  switch (sym.kind) {
    case "field":
      return [loc(sym.field.span)];
    case "node":
      return [loc(sym.node.span)];
    case "graph":
      return [loc(sym.graph.decl.name.span)];
    case "type":
      return [loc(sym.alias.decl.name.span)];
    case "var":
      return [loc(sym.v.span)];
    case "file":
      return [{ uri: pathToUri(sym.path), range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } }];
    case "ts": {
      const module = resolveModule(sym.imp.module, sym.file);
      const found = module ? findExport(module, sym.imp.exported) : undefined;
      if (found)
        return [{ uri: pathToUri(found.path), range: { start: { line: found.line, character: found.character }, end: { line: found.line, character: found.endCharacter } } }];
      return module ? [{ uri: pathToUri(module), range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } }] : [];
    }
  }
}

export function references(program: Program, path: string, offset: number, includeDeclaration: boolean): Location[] {
  const index = symbolIndex(program);
  const first = index.at(path, offset)[0];
  if (!first) return [];
  return index
    .of(first.sym.key)
    .filter((o) => includeDeclaration || !o.decl)
    .map((o) => ({ uri: pathToUri(o.span.file), range: spanToRange(o.span) }));
}
