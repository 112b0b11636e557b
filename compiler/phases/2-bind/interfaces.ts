/**
 * Interfaces (`interface Q { input {…} output {…} }`) and the `implements` lists of graphs. An interface
 * body is a graph body of schema blocks only, so it is bound by bindGraph itself into a `shape` kept out
 * of the program's graphs: one set of rules for fields, types and reducers in both. `implements` names
 * resolve like subgraph targets: an interface of the same file, or one imported from a `.graph` file.
 */
import type { GraphDecl, InterfaceDecl } from "../../../grammar/ast.ts";
import { bindGraph, type BindContext } from "./graph.ts";
import { findImport, type BoundFile, type BoundInterface } from "./model.ts";

export function bindInterface(decl: InterfaceDecl, file: BoundFile, ctx: BindContext): BoundInterface {
  const asGraph: GraphDecl = { kind: "Graph", name: decl.name, inline: false, members: decl.members, span: decl.span };
  // a context of its own: the shape must not join the program's graphs (it is never lowered)
  const shape = bindGraph(asGraph, file, { ...ctx, graphs: [], pending: [] });
  return { name: decl.name.name, file: file.path, decl, shape };
}

/** The interface `name` means in `file`, if any. */
export function findInterface(files: ReadonlyMap<string, BoundFile>, file: BoundFile, name: string): BoundInterface | undefined {
  const local = file.interfaces.get(name);
  if (local) return local;
  const imp = findImport(file, name);
  if (imp?.kind !== "graph" || imp.resolvedFile === undefined) return undefined;
  return files.get(imp.resolvedFile)?.interfaces.get(imp.exported);
}

/** Fills every graph's `implements` (after all files' interfaces are bound). */
export function resolveImplements(ctx: BindContext): void {
  for (const g of ctx.graphs) {
    const file = ctx.files.get(g.file);
    if (!file) continue;
    for (const id of g.decl.implements ?? []) {
      if (id.name === "") continue;
      g.implements.push({ name: id.name, span: id.span, target: findInterface(ctx.files, file, id.name) });
    }
  }
}
