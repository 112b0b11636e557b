/**
 * The TypeScript pass's input and output around the pass itself (typecheck-run.ts): the job built from the
 * program and its drafts, the answer turned into diagnostics, `isSync`'s questions. Apart from typecheck.ts
 * so that a build whose pass runs on a thread (ts-thread.ts) never loads the pass's modules here.
 */
import type { Diagnostic } from "../../../grammar/diagnostic.ts";
import type { ImportRef, Program } from "../2-bind/model.ts";
import type { SyncOracle } from "../4-lower/index.ts";
import { rebase, type EmittedText } from "./file.ts";
import { traceLines } from "./format.ts";
import { d } from "../../diagnostics/messages.ts";
import { fileStart } from "../2-bind/bind.ts";
import { RUNTIME_MODULE, RUNTIME_PACKAGE } from "./runtime-api.ts";
import type { TypecheckAnswer, TypecheckJob } from "./typecheck-run.ts";

export interface TypecheckResult {
  readonly diagnostics: Diagnostic[];
  readonly isSync: SyncOracle;
}

/** One draft: the `.graph` file and the unformatted text emitted for it. */
export interface Draft {
  readonly source: string;
  readonly raw: EmittedText;
}

export function typecheckJob(program: Program, drafts: readonly Draft[], options: { readonly outPath: (graphFile: string) => string; readonly cwd?: string | undefined }): TypecheckJob {
  const { outPath } = options;
  const imports = [...program.files.values()].flatMap((f) =>
    f.imports
      .filter((i) => i.kind === "value")
      .map((i) => ({ module: rebase(i.module, f.path, outPath(f.path)), outFile: outPath(f.path) })),
  );
  return {
    cwd: options.cwd,
    imports,
    drafts: drafts.map((d) => ({
      path: d.raw.path,
      text: d.raw.text,
      lines: traceLines(d.raw.text, d.raw.spans),
      source: d.source,
      bindings: d.raw.bindings,
      // a name the module cannot bind leaves the draft unparsable: emission reports it, TypeScript need not
      broken: d.raw.diagnostics.some((x) => x.severity === "error"),
    })),
  };
}

export function typecheckDiagnostics(program: Program, answer: TypecheckAnswer): Diagnostic[] {
  return answer.noRuntime ? [runtimeNotFound(program, answer.noRuntime.source, answer.noRuntime.path)] : answer.diagnostics;
}

/** `isSync`'s question for `fn` used in `file`: the module specifier as the generated file imports it */
export function syncQuery(fn: ImportRef, file: string, outPath: (graphFile: string) => string): { fn: ImportRef; outFile: string } {
  return { fn: { ...fn, module: rebase(fn.module, file, outPath(file)) }, outFile: outPath(file) };
}

/** One error at the first graph of the file whose generated code cannot import the runtime. */
function runtimeNotFound(program: Program, source: string, outFile: string): Diagnostic {
  const graph = program.files.get(source)?.ast.items.find((i) => i.kind === "Graph");
  const span = graph?.kind === "Graph" ? graph.name.span : fileStart(source);
  return d.runtimeNotFound(span, { module: RUNTIME_MODULE, package: RUNTIME_PACKAGE, outFile });
}
