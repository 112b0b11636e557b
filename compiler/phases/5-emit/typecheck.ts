/**
 * The TypeScript side of a build, on one in-memory program (one TypeScript checker for the whole build),
 * between the draft and the final emit (compile.ts: check → lower → emit draft → this → emit final):
 * 1. the draft of every generated file (unformatted, every function `sync: false`) is staged, because the
 *    user's modules usually import their types from the generated file;
 * 2. the modules the generated files import are added;
 * 3. the draft is type-checked and its errors mapped to `.graph` spans (the draft and the final output
 *    differ only in formatting and in `sync` specialisation, which TypeScript does not see differently);
 *    when the runtime module does not resolve from the project, that is the one error instead (every
 *    TypeScript error would be a cascade of it: "Parameter 'raw' implicitly has an 'any' type"…);
 * 4. the same program answers "is this function synchronous, does it return no Command?", which `withSync`
 *    records in the IR.
 * The program is native TypeScript 7's (ts-native.ts) or, where its binary does not run, ts-morph's (ts-check.ts).
 */
import type { Diagnostic } from "../../../grammar/diagnostic.ts";
import type { ImportRef, Program } from "../2-bind/model.ts";
import type { ReturnOracle } from "../4-lower/index.ts";
import { rebase, type EmittedText } from "./file.ts";
import { traceLines } from "./format.ts";
import { d } from "../../diagnostics/messages.ts";
import { fileStart } from "../2-bind/bind.ts";
import { RUNTIME_MODULE, RUNTIME_PACKAGE } from "./runtime-api.ts";
import { TsWorld } from "./ts-check.ts";
import { NativeWorld } from "./ts-native.ts";

export interface TypecheckResult {
  readonly diagnostics: Diagnostic[];
  readonly returns: ReturnOracle;
}

/** One draft: the `.graph` file and the unformatted text emitted for it. */
export interface Draft {
  readonly source: string;
  readonly raw: EmittedText;
}

export function typecheckDrafts(
  program: Program,
  drafts: readonly Draft[],
  options: {
    readonly outPath: (graphFile: string) => string;
    readonly cwd?: string | undefined;
  },
): TypecheckResult {
  const { outPath } = options;
  // native TypeScript 7 when its binary runs here, else the same pass on TypeScript's JavaScript API
  const world = NativeWorld.shared(options.cwd) ?? TsWorld.shared(options.cwd);
  world.stage(drafts.map((d) => d.raw));
  const imports = [...program.files.values()].flatMap((f) =>
    f.imports
      .filter((i) => i.kind === "value")
      .map((i) => ({ module: rebase(i.module, f.path, outPath(f.path)), outFile: outPath(f.path) })),
  );
  world.prepare(imports);
  // a name the module cannot bind leaves the draft unparsable: emission reports it, TypeScript need not
  const broken = drafts.some((d) => d.raw.diagnostics.some((x) => x.severity === "error"));
  const noRuntime = broken ? undefined : drafts.find((d) => !world.resolves(RUNTIME_MODULE, d.raw.path));
  const diagnostics = broken
    ? []
    : noRuntime
      ? [runtimeNotFound(program, noRuntime.source, noRuntime.raw.path)]
      : world.diagnose(
        drafts.map((d) => ({
          path: d.raw.path,
          text: d.raw.text,
          lines: traceLines(d.raw.text, d.raw.spans),
          source: d.source,
          bindings: d.raw.bindings,
        })),
      );
  // the module specifier is resolved from the generated file, as tsc will resolve it
  const returns = (fn: ImportRef, file: string) =>
    world.returns({ ...fn, module: rebase(fn.module, file, outPath(file)) }, outPath(file));
  return { diagnostics, returns };
}

/** One error at the first graph of the file whose generated code cannot import the runtime. */
function runtimeNotFound(program: Program, source: string, outFile: string): Diagnostic {
  const graph = program.files.get(source)?.ast.items.find((i) => i.kind === "Graph");
  const span = graph?.kind === "Graph" ? graph.name.span : fileStart(source);
  return d.runtimeNotFound(span, { module: RUNTIME_MODULE, package: RUNTIME_PACKAGE, outFile });
}
