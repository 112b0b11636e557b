/**
 * G3097: a node function whose return type has a field the node does not write. TypeScript accepts the
 * function (a wider object type is assignable to the node's update type), yet a return carrying the field
 * fails at run time with an InvalidUpdateError, so the TypeScript pass's answer (return-facts.ts
 * `returnedFields`, recorded in the IR by `withSync`) is compared with each node's declared writes. One function may serve several nodes, each
 * checked against its own writes.
 */
import type { Diagnostic } from "../../../grammar/diagnostic.ts";
import { d } from "../../diagnostics/messages.ts";
import type { ProgramIR } from "../4-lower/index.ts";

export function undeclaredReturns(program: ProgramIR): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const file of program.files) {
    for (const g of file.graphs) {
      for (const n of g.nodes) {
        if (n.kind !== "function") continue;
        const extra = n.fn.fields?.filter((f) => !n.writes.includes(f)) ?? [];
        if (extra.length > 0) out.push(d.nodeReturnsUndeclared(n.fn.span, { node: n.name, fn: n.fn.local, fields: extra, writes: n.writes }));
      }
    }
  }
  return out;
}
