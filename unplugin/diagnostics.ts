/**
 * graphc's diagnostics as bundler errors and warnings. Every bundler gets `loc` (file, 1-based line,
 * 0-based column as Rollup counts) and the `file:line:col` in the text; Rollup and Vite also get `frame`,
 * the rendered diagnostics with their code frames, which the Vite dev overlay shows under the message.
 * The other bundlers print only the message, so for them it carries the frames too.
 */
import { resolve } from "node:path";
import { readText, shownPath } from "./files.ts";
import type { GraphcApi, GraphcDiagnostic, GraphcSpan } from "./toolchain.ts";

export interface BundlerMessage {
  message: string;
  id: string;
  code: string;
  loc: { file: string; line: number; column: number };
  frame: string;
  plugin: string;
}

export const PLUGIN_NAME = "graphc";

/** `framesInMessage`: the bundler shows no `frame` of its own (everything but Rollup and Vite). */
export function toBundlerMessage(
  graphc: GraphcApi,
  diags: readonly GraphcDiagnostic[],
  cwd: string,
  framesInMessage: boolean,
): BundlerMessage {
  const first = diags[0]!;
  const file = resolve(cwd, first.span.file);
  const where = `${shownPath(cwd, first.span.file)}:${first.span.start.line}:${first.span.start.column}`;
  const more = diags.length > 1 ? ` (and ${diags.length - 1} more)` : "";
  const headline = `${where}: ${first.severity}[${first.code}]: ${first.message}${more}`;
  const frame = graphc.renderPretty(diags.map((x) => relativeTo(cwd, x)), { readFile: (f) => readText(resolve(cwd, f)) }).trimEnd();
  return {
    message: framesInMessage ? `${headline}\n\n${frame}` : headline,
    id: file,
    code: first.code,
    loc: { file, line: first.span.start.line, column: first.span.start.column - 1 },
    frame,
    plugin: PLUGIN_NAME,
  };
}

/** the diagnostic with its paths relative to `cwd` (what the user reads) */
function relativeTo(cwd: string, d: GraphcDiagnostic): GraphcDiagnostic {
  const span = (s: GraphcSpan): GraphcSpan => ({ ...s, file: shownPath(cwd, s.file) });
  return { ...d, span: span(d.span), related: d.related.map((r) => ({ ...r, span: span(r.span) })) };
}

