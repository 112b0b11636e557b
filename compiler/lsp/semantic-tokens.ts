/**
 * Semantic tokens: what the TextMate grammar cannot know — which identifier is a graph, a field, a node,
 * a type, a var or an imported TypeScript function — from the symbol index, plus the built-in reducers.
 */
import { SemanticTokensBuilder, type SemanticTokens, type SemanticTokensLegend } from "vscode-languageserver";
import { BUILTIN_REDUCERS, type Program } from "../phases/2-bind/model.ts";
import { symbolIndex, type Sym } from "./symbols.ts";

const TYPES = ["class", "type", "property", "function", "variable", "method", "namespace", "macro"] as const;
const MODIFIERS = ["declaration", "defaultLibrary"] as const;
export const LEGEND: SemanticTokensLegend = { tokenTypes: [...TYPES], tokenModifiers: [...MODIFIERS] };

const typeOf: Record<Sym["kind"], (typeof TYPES)[number]> = {
  graph: "class",
  type: "type",
  field: "property",
  node: "function",
  var: "variable",
  ts: "method",
  file: "namespace",
};

export function semanticTokens(program: Program, path: string): SemanticTokens {
  const builder = new SemanticTokensBuilder();
  const tokens: { line: number; char: number; length: number; type: number; mods: number }[] = [];
  let last = -1;
  for (const o of symbolIndex(program).inFile(path)) {
    // one token per position (a same-name mapping entry is both a child and a parent field)
    if (o.span.start.offset === last || o.span.start.line !== o.span.end.line) continue;
    last = o.span.start.offset;
    tokens.push({ line: o.span.start.line - 1, char: o.span.start.column - 1, length: o.span.end.offset - o.span.start.offset, type: TYPES.indexOf(typeOf[o.sym.kind]), mods: o.decl ? 1 : 0 });
  }
  for (const g of program.graphs) {
    if (g.file !== path) continue;
    for (const f of g.fields.values())
      for (const site of f.declarations) {
        const r = site.decl.reducer;
        if (r && (BUILTIN_REDUCERS as readonly string[]).includes(r.name))
          tokens.push({ line: r.span.start.line - 1, char: r.span.start.column - 1, length: r.name.length, type: TYPES.indexOf("macro"), mods: 2 });
      }
  }
  tokens.sort((a, b) => a.line - b.line || a.char - b.char);
  for (const t of tokens) builder.push(t.line, t.char, t.length, t.type, t.mods);
  return builder.build();
}
