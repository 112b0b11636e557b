/**
 * Lowering: the checked program model -> the graph IR (ir.ts), the single input of every emitter.
 * Runs only on a program `check()` accepted; an unresolved reference here is reported as an internal error.
 */
import type { Diagnostic } from "../../../grammar/diagnostic.ts";
import { d } from "../../diagnostics/messages.ts";
import type { BoundFile, BoundGraph, Program } from "../2-bind/model.ts";
import { LowerError, lowerGraph } from "./graph.ts";
import type { FileIR, ImportIR, ProgramIR } from "./ir.ts";
import { typeFromExpr } from "./types.ts";

export type * from "./ir.ts";
export { withSync, UNKNOWN_RETURN, type ReturnFacts, type ReturnOracle } from "./sync.ts";
export { leanEligible, type RuntimeMode } from "./lean.ts";

/** The IR of every file; every imported function is `sync: false` until `withSync` records TypeScript's answers. */
export function lower(program: Program): { value: ProgramIR; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const files: FileIR[] = [];
  for (const file of program.files.values()) {
    try {
      files.push(lowerFile(file, program));
    } catch (e) {
      if (!(e instanceof LowerError)) throw e;
      diagnostics.push(d.internalError(e.span, { error: e.message }));
    }
  }
  return { value: { files }, diagnostics };
}

function lowerFile(file: BoundFile, program: Program): FileIR {
  const graphs = dependencyOrder(program.graphs.filter((g) => g.file === file.path));
  return {
    file: file.path,
    imports: lowerImports(file, program),
    types: [...file.types.values()].map((t) => ({ name: t.name, type: typeFromExpr(t.decl.type, file), span: t.decl.span })),
    interfaces: [...file.interfaces.values()].map((i) => ({ name: i.name, span: i.decl.span, shape: lowerGraph(i.shape, { file }) })),
    graphs: graphs.map((g) => lowerGraph(g, { file })),
  };
}

/** One IR import per import declaration, names in source order. */
function lowerImports(file: BoundFile, program: Program): ImportIR[] {
  const byDecl = new Map<object, ImportIR>();
  for (const imp of file.imports) {
    let ir = byDecl.get(imp.decl);
    if (!ir) {
      ir = { kind: imp.kind, module: imp.module, names: [], span: imp.decl.span, resolvedFile: imp.resolvedFile };
      byDecl.set(imp.decl, ir);
    }
    const from = imp.kind === "graph" && imp.resolvedFile !== undefined ? program.files.get(imp.resolvedFile) : undefined;
    ir.names.push({ exported: imp.exported, local: imp.local, type: from?.types.has(imp.exported) ?? false });
  }
  return [...byDecl.values()];
}

/**
 * Graphs of one file ordered so that each comes after the graphs of the same file it uses as subgraphs
 * (generated specs are `const`s; a parent refers to its child's spec). Stable: declaration order otherwise.
 * Subgraph cycles were rejected by the checker.
 */
function dependencyOrder(graphs: readonly BoundGraph[]): BoundGraph[] {
  const out: BoundGraph[] = [];
  const visit = (g: BoundGraph, path: Set<BoundGraph>) => {
    if (out.includes(g) || path.has(g)) return;
    path.add(g);
    for (const n of g.nodes.values()) {
      const child = n.kind === "subgraph" ? n.target : n.usesTarget;
      if (child && graphs.includes(child)) visit(child, path);
    }
    path.delete(g);
    out.push(g);
  };
  for (const g of graphs) visit(g, new Set());
  return out;
}
