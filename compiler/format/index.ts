/**
 * The `.graph` formatter: `format(text, file)` reprints a file in the canonical layout (docs/cli.md,
 * "Formatting") from its AST and comments. It is idempotent and never drops a comment; a file with syntax
 * errors is left untouched and its diagnostics are returned.
 */
import type { Diagnostic } from "../../grammar/diagnostic.ts";
import type { GraphFile } from "../../grammar/ast.ts";
import { parse } from "../../grammar/index.ts";
import { fileLines } from "./file.ts";
import { Source } from "./source.ts";
import { appendAll } from "../../grammar/append.ts";

export interface FormatResult {
  /** the formatted text, or the input unchanged when it has syntax errors */
  text: string;
  /** syntax errors that prevented formatting (empty on success) */
  diagnostics: Diagnostic[];
}

export function format(text: string, file: string): FormatResult {
  const { ast, diagnostics } = parse(text, file);
  const errors = diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) return { text, diagnostics: errors };
  return { text: print(ast, text, file), diagnostics: [] };
}

/** Prints a parsed file. Exposed for callers that already hold the AST. */
export function print(ast: GraphFile, text: string, file: string): string {
  const src = new Source(text, file, ast.comments);
  const lines = fileLines({ src, depth: 0 }, ast);
  // every comment is placed by the list layout; this is a guard against a printer forgetting one
  const lost = src.unprinted();
  if (lost.length > 0) appendAll(lines, lost.map((c) => c.text));
  const out = lines.map((l) => l.replace(/[ \t]+$/, "")).join("\n");
  return out === "" ? "" : `${out}\n`;
}
