/**
 * Rename of fields, nodes, graphs, types and vars across every `.graph` file of the program. Only
 * occurrences spelt like the symbol change (an `import { G as H }` keeps its alias and the uses of `H`). A
 * same-name subgraph mapping entry names a child and a parent field at once: renaming one side spells the
 * entry out (`in { intent }` becomes `in { intent <- kind }`), so the other side keeps its name.
 */
import { ResponseError, type Range, type TextEdit, type WorkspaceEdit } from "vscode-languageserver";
import type { Program } from "../phases/2-bind/model.ts";
import { pathToUri, spanToRange } from "./paths.ts";
import { symbolIndex, type Occurrence } from "./symbols.ts";

const RENAMABLE = new Set(["field", "node", "graph", "type", "var"]);
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

function target(program: Program, path: string, offset: number): Occurrence | undefined {
  const o = symbolIndex(program).at(path, offset)[0];
  return o && RENAMABLE.has(o.sym.kind) ? o : undefined;
}

export function prepareRename(program: Program, path: string, offset: number): { range: Range; placeholder: string } | null {
  const o = target(program, path, offset);
  return o ? { range: spanToRange(o.span), placeholder: o.sym.name } : null;
}

export function rename(program: Program, path: string, offset: number, newName: string): WorkspaceEdit {
  const o = target(program, path, offset);
  if (!o) throw new ResponseError(-32803, "nothing to rename here: fields, nodes, graphs, types and vars can be renamed");
  if (!IDENTIFIER.test(newName)) throw new ResponseError(-32803, `\`${newName}\` is not a valid name`);
  const old = o.sym.name;
  const changes: Record<string, TextEdit[]> = {};
  for (const occ of symbolIndex(program).of(o.sym.key)) {
    const text = program.files.get(occ.span.file)?.text.slice(occ.span.start.offset, occ.span.end.offset);
    if (text !== old) continue;
    const uri = pathToUri(occ.span.file);
    (changes[uri] ??= []).push({ range: spanToRange(occ.span), newText: spelled(occ, old, newName) });
  }
  return { changes };
}

/** the new text of one occurrence (a same-name mapping entry keeps the other side's name) */
function spelled(occ: Occurrence, old: string, name: string): string {
  const s = occ.sameName;
  if (!s) return name;
  // `in`: child <- parent; `out`: child -> parent
  const [child, parent] = s.side === "child" ? [name, old] : [old, name];
  return s.direction === "in" ? `${child} <- ${parent}` : `${child} -> ${parent}`;
}
