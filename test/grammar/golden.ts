/**
 * Golden helpers for the parser tests: a readable, stable JSON form of the AST (spans as
 * "line:col-line:col", `kind` and `span` first) and of diagnostics ("G1010 3:5-3:6 message").
 */
import type { Diagnostic } from "../../grammar/index.ts";
import type { Span } from "../../grammar/span.ts";

export const BLESS = process.env["GRAPHC_BLESS"] === "1";

export function spanText(s: Span): string {
  return `${s.start.line}:${s.start.column}-${s.end.line}:${s.end.column}`;
}

function isSpan(v: unknown): v is Span {
  return typeof v === "object" && v !== null && "start" in v && "end" in v && "file" in v;
}

/** AST → plain JSON with compact spans; key order: kind, span, then the rest as built. */
export function compact(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(compact);
  if (isSpan(v)) return spanText(v);
  if (typeof v !== "object" || v === null) return v;
  const o = v as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  if ("kind" in o) out["kind"] = o["kind"];
  if ("span" in o) out["span"] = compact(o["span"]);
  for (const [k, val] of Object.entries(o)) if (!(k in out)) out[k] = compact(val);
  return out;
}

export function diagnosticLine(d: Diagnostic): string {
  return `${d.code} ${spanText(d.span)} ${d.message}`;
}
