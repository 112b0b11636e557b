/**
 * check(entryFiles, host?, options?): parse -> bind -> check. Returns the bound program and every diagnostic, sorted
 * (file, position, code) and de-duplicated. Never throws: an unexpected exception becomes a G9001 internal
 * diagnostic (a bug: the property tests treat any G9xxx as a failure).
 */
import type { Diagnostic } from "../grammar/diagnostic.ts";
import { parse } from "../grammar/index.ts";
import { bind, fileStart } from "./phases/2-bind/bind.ts";
import { nodeHost, normalisePath, type CompilerHost } from "./phases/2-bind/host.ts";
import type { Program } from "./phases/2-bind/model.ts";
import { projectRoot } from "./phases/2-bind/project-root.ts";
import { checkProgram } from "./phases/3-check/index.ts";
import { d } from "./diagnostics/messages.ts";
import { appendAll } from "../grammar/append.ts";

export interface CheckResult {
  /** undefined only when an internal error stopped binding */
  program: Program | undefined;
  diagnostics: Diagnostic[];
}

export interface CheckOptions {
  /**
   * The folder `.graph` files may be read from (relative to the host's working directory, or absolute).
   * Default: per entry file, the nearest folder upwards holding a package.json or tsconfig.json
   * (phases/2-bind/project-root.ts).
   */
  readonly root?: string | undefined;
}

export function check(entryFiles: readonly string[], host: CompilerHost = nodeHost(), options: CheckOptions = {}): CheckResult {
  let program: Program | undefined;
  const diagnostics: Diagnostic[] = [];
  try {
    const bound = bind(entryFiles, host, parse, projectRoot(entryFiles, host, options.root));
    program = bound.program;
    appendAll(diagnostics, bound.diagnostics);
    appendAll(diagnostics, checkProgram(program));
  } catch (e) {
    diagnostics.push(internalError(entryFiles, e));
  }
  return { program, diagnostics: sortDiagnostics(withoutSyntaxCascades(diagnostics)) };
}

/** G9001 for an exception that escaped a phase: its message and the top of its stack, at the first entry file. */
export function internalError(entryFiles: readonly string[], e: unknown): Diagnostic {
  const error =
    e instanceof Error ? `${e.message}${e.stack ? `\n${e.stack.split("\n").slice(1, 4).join("\n")}` : ""}` : String(e);
  return d.internalError(fileStart(normalisePath(entryFiles[0] ?? "<input>")), { error });
}

/**
 * In a file with syntax errors, the checker sees the parser's recovered guesses (a `node` line read as a
 * field after an unclosed brace…), so its findings there are mostly cascades: report only the syntax
 * errors for that file, and everything for the other files.
 */
function withoutSyntaxCascades(diags: readonly Diagnostic[]): readonly Diagnostic[] {
  const broken = new Set<string>();
  for (const x of diags) if (x.code.startsWith("G1") && x.severity === "error") broken.add(x.span.file);
  if (broken.size === 0) return diags;
  return diags.filter((x) => x.code.startsWith("G1") || x.code.startsWith("G9") || !broken.has(x.span.file));
}

/** Sorted by file, line, column, code; exact duplicates (same code, span and message) dropped. */
export function sortDiagnostics(diags: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  const out: Diagnostic[] = [];
  for (const x of diags) {
    const key = `${x.code}|${x.span.file}|${x.span.start.offset}|${x.span.end.offset}|${x.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(x);
  }
  return out.sort(
    (a, b) =>
      (a.span.file < b.span.file ? -1 : a.span.file > b.span.file ? 1 : 0) ||
      a.span.start.offset - b.span.start.offset ||
      (a.code < b.code ? -1 : a.code > b.code ? 1 : 0),
  );
}

export const hasErrors = (diags: readonly Diagnostic[]) => diags.some((x) => x.severity === "error");
