/**
 * Edge statements -> StaticEdge / JoinEdge / BranchEdge (see BoundEdges in model.ts for the rules).
 * Names are not resolved here: the checker looks every NameRef up in the graph's nodes.
 */
import type { EdgeStmt, Endpoints, Ident } from "../../../grammar/ast.ts";
import type { BoundEdges, BranchEdge, ImportRef, NameRef } from "./model.ts";

export const ref = (id: Ident): NameRef => ({ name: id.name, span: id.span });
const refs = (e: Endpoints): NameRef[] => e.names.filter((n) => n.name !== "").map(ref);

export function bindEdges(stmts: readonly EdgeStmt[], importValue: (id: Ident) => ImportRef | undefined): BoundEdges {
  const edges: BoundEdges = { static: [], joins: [], branches: [] };
  for (const stmt of stmts) {
    for (let i = 0; i + 1 < stmt.steps.length; i++) {
      const left = stmt.steps[i]!;
      const right = stmt.steps[i + 1]!;
      const from = refs(left);
      const to = refs(right);
      if (left.bracketed && from.length > 1) {
        for (const target of to) edges.joins.push({ sources: from, target, span: left.span, stmt });
      } else {
        for (const f of from) for (const t of to) edges.static.push({ from: f, to: t, stmt });
      }
    }
    const last = stmt.steps[stmt.steps.length - 1];
    const branch = stmt.branch;
    if (!last || !branch) continue;
    for (const from of refs(last)) {
      let b: BranchEdge;
      switch (branch.kind) {
        case "Route":
          b = {
            kind: "route",
            from,
            span: branch.span,
            stmt,
            fn: importValue(branch.fn),
            fnName: ref(branch.fn),
            cases: branch.cases?.map((c) => ({
              key: c.key.kind === "Ident" ? c.key.name : c.key.value,
              keySpan: c.key.span,
              targets: refs(c.targets),
              decl: c,
            })),
          };
          break;
        case "Conditions": {
          const def = branch.cases.findIndex((c) => c.cond === undefined);
          b = {
            kind: "conditions",
            from,
            span: branch.span,
            stmt,
            cases: branch.cases.map((c) => ({ cond: c.cond, targets: refs(c.targets), decl: c })),
            defaultIndex: def >= 0 ? def : undefined,
          };
          break;
        }
        case "Send":
          b = { kind: "send", from, span: branch.span, stmt, fn: importValue(branch.fn), fnName: ref(branch.fn) };
          break;
      }
      edges.branches.push(b);
    }
  }
  return edges;
}
