/** Shared helpers for the check files: candidates for did-you-mean, node lookups, scopes. */
import type { Diagnostic } from "../../../grammar/diagnostic.ts";
import type { Span } from "../../../grammar/span.ts";
import type { Candidate } from "../../diagnostics/did-you-mean.ts";
import type { BoundGraph, Program } from "../2-bind/model.ts";
import type { ExprScope } from "./typesystem.ts";
import { startsSet } from "../reducers.ts";

export interface CheckContext {
  readonly program: Program;
  readonly diagnostics: Diagnostic[];
}

export const fieldCandidates = (g: BoundGraph): Candidate[] =>
  [...g.fields.values()].map((f) => ({ name: f.name, span: f.span }));
export const nodeCandidates = (g: BoundGraph): Candidate[] =>
  [...g.nodes.values()].map((n) => ({ name: n.name, span: n.span }));

/** Condition / mapping scope: names are the graph's fields, then its vars. */
export function graphScope(g: BoundGraph, context: string): ExprScope {
  return {
    graph: g.name,
    context,
    lookup: (name) => g.fields.get(name)?.type ?? g.vars.get(name)?.type,
    alwaysSet: (name) => {
      const f = g.fields.get(name);
      if (!f || f.ephemeral) return false;
      // the same rule as lowering's initial value: a default, or a built-in reducer's empty value
      return f.default !== undefined || startsSet(f.reducer);
    },
    candidates: () => [
      ...fieldCandidates(g),
      ...[...g.vars.values()].map((v) => ({ name: v.name, span: v.span as Span | undefined })),
    ],
  };
}

/** A graph's display name in messages about several files: `Name (file)`. */
export const graphLabel = (g: BoundGraph) => `${g.name} (${g.file})`;
