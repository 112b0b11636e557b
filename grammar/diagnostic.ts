import type { Span } from "./span.ts";

/**
 * A compiler diagnostic. Shared by the grammar (syntax errors, G1xxx) and the compiler phases.
 * Never built by hand at call sites: every code is declared once in a message table
 * (grammar/parse-errors.ts for G1xxx, compiler/diagnostics/messages.ts for the rest).
 */
export interface Diagnostic {
  /** `G` + 4 digits, banded: 1xxx syntax, 2xxx names/imports, 3xxx types/state/reducers/schemas,
   *  4xxx graph structure, 5xxx subgraphs, 6xxx options/vars, 9xxx internal */
  code: string;
  severity: "error" | "warning";
  message: string;
  span: Span;
  /** short text printed under the carets */
  label?: string;
  /** other places that explain this one ("also declared here") */
  related: RelatedLocation[];
  /** one `= help:` line */
  hint?: string;
}

export interface RelatedLocation {
  span: Span;
  message: string;
}
