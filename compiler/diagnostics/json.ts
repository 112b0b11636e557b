/**
 * `--format json`: one object per diagnostic with LSP `Diagnostic` fields (0-based line/character ranges,
 * numeric severity 1 = error, 2 = warning, `code`, `source: "graphc"`, `relatedInformation` with
 * `location.uri` set to the file path) plus `file`, and graphc's own `label`/`hint` under `data`.
 * Characters are UTF-16 code units, as LSP's default position encoding.
 */
import type { Diagnostic } from "../../grammar/diagnostic.ts";
import type { Span } from "../../grammar/span.ts";
import { SYNTAX_ERRORS } from "../../grammar/parse-errors.ts";
import { MESSAGES } from "./messages.ts";

export interface JsonRange {
  start: { line: number; character: number };
  end: { line: number; character: number };
}

export interface JsonDiagnostic {
  file: string;
  range: JsonRange;
  severity: 1 | 2;
  code: string;
  /** the slug, e.g. `edge-unknown-node` */
  codeName?: string;
  source: "graphc";
  message: string;
  relatedInformation: { location: { uri: string; range: JsonRange }; message: string }[];
  data: { label?: string; hint?: string };
}

const slugs = new Map<string, string>(
  [...Object.values(SYNTAX_ERRORS), ...Object.values(MESSAGES)].map((m) => [m.code, m.slug]),
);

export function toRange(span: Span): JsonRange {
  return {
    start: { line: span.start.line - 1, character: span.start.column - 1 },
    end: { line: span.end.line - 1, character: span.end.column - 1 },
  };
}

export function toJson(diags: readonly Diagnostic[]): JsonDiagnostic[] {
  return diags.map((x) => {
    const out: JsonDiagnostic = {
      file: x.span.file,
      range: toRange(x.span),
      severity: x.severity === "error" ? 1 : 2,
      code: x.code,
      source: "graphc",
      message: x.message,
      relatedInformation: x.related.map((r) => ({
        location: { uri: r.span.file, range: toRange(r.span) },
        message: r.message,
      })),
      data: {},
    };
    const slug = slugs.get(x.code);
    if (slug) out.codeName = slug;
    if (x.label !== undefined) out.data.label = x.label;
    if (x.hint !== undefined) out.data.hint = x.hint;
    return out;
  });
}
