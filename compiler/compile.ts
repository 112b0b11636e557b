/**
 * The compiler pipeline, linear: check (parse, bind, check) -> stop on errors -> lower (the IR, once) ->
 * emit a draft -> the TypeScript pass over the draft and the user's modules (errors mapped to `.graph`
 * spans; which functions are synchronous, recorded in the IR by `withSync`) -> emit the final files
 * (+ prettier). `buildFiles` is the CLI's entry: it returns every output's path and text (generated code
 * and source maps); writing them is the CLI's job.
 */
import { posix } from "node:path";
import type { Diagnostic } from "../grammar/diagnostic.ts";
import { check, hasErrors, internalError, sortDiagnostics, type CheckResult } from "./check.ts";
import { nodeHost, normalisePath, type CompilerHost } from "./phases/2-bind/host.ts";
import type { Program } from "./phases/2-bind/model.ts";
import { lower, withSync, type ProgramIR } from "./phases/4-lower/index.ts";
import { emitFile, type EmittedFile } from "./phases/5-emit/index.ts";
import { emitFileText } from "./phases/5-emit/file.ts";
import { typecheckDrafts } from "./phases/5-emit/typecheck.ts";
import { undeclaredReturns } from "./phases/5-emit/undeclared-returns.ts";
import { FormatCache } from "./phases/5-emit/format-cache.ts";
import { PRETTIER_OPTIONS } from "./phases/5-emit/format.ts";
import type { ImportExt } from "./phases/5-emit/import-ext.ts";
import type { RuntimeMode } from "./phases/4-lower/lean.ts";
import { userTsconfig } from "./user-tsconfig.ts";
import { VERSION } from "./version.ts";

export interface CompileOptions {
  /** write generated files under this folder (mirroring paths relative to `rootDir`); default: beside each `.graph` */
  readonly outDir?: string | undefined;
  /** with `outDir`: the folder whose layout is mirrored (default: the working directory) */
  readonly rootDir?: string | undefined;
  /** type-check node functions and imported types against the generated code (default true; needs the real file system) */
  readonly typecheck?: boolean | undefined;
  readonly host?: CompilerHost | undefined;
  /** the only folder `.graph` files are read from (see `CheckOptions.root`; default: found from the entry files) */
  readonly root?: string | undefined;
  /** the folder relative paths are relative to, for the TypeScript check (default: `process.cwd()`) */
  readonly cwd?: string | undefined;
  /** extension of relative imports in generated code; default from the nearest tsconfig.json (user-tsconfig.ts) */
  readonly importExt?: ImportExt | undefined;
  /**
   * Generated files whose graphs are all lean-eligible import `@graphc/runtime/core`; with "full" (the
   * default) they also install streaming and Command input (all "@graphc/runtime" installs but node
   * policies, which such graphs have none of), with "lean" nothing (the smallest bundles). Other files
   * import `@graphc/runtime` (docs/cli.md).
   */
  readonly runtime?: RuntimeMode | undefined;
  /**
   * false: stop at the diagnostics — lowering, an unformatted draft of every file and the TypeScript pass
   * run, prettier and source maps do not, and `files` is empty. The language server's pass per keystroke.
   */
  readonly emit?: boolean | undefined;
  /**
   * keep prettier's output in node_modules/.cache/graphc/ (found from `cwd` up) for the next process:
   * a build formats only what changed since the last one (format-cache.ts; `graphc build` sets it)
   */
  readonly formatCache?: boolean | undefined;
}

export interface CompileResult {
  /** one per loaded `.graph` file (imported ones included); empty when checking failed */
  readonly files: EmittedFile[];
  readonly ir: ProgramIR | undefined;
  /** sorted; errors from TypeScript are mapped to `.graph` spans */
  readonly diagnostics: Diagnostic[];
}

/**
 * Never throws (like `check`): an exception in lowering, emission or the TypeScript pass becomes a G9001,
 * which matters since `graphc check` runs all of them too.
 */
export async function compile(entryFiles: readonly string[], options: CompileOptions = {}): Promise<CompileResult> {
  return compileChecked(check(entryFiles, options.host ?? nodeHost(), { root: options.root }), entryFiles, options);
}

/** `compile` after the caller ran `check` itself (the language server keeps the checked program for its features). */
export async function compileChecked(checked: CheckResult, entryFiles: readonly string[], options: CompileOptions = {}): Promise<CompileResult> {
  if (!checked.program || hasErrors(checked.diagnostics)) return { files: [], ir: undefined, diagnostics: checked.diagnostics };
  try {
    return await generate(checked.program, checked.diagnostics, options);
  } catch (e) {
    return { files: [], ir: undefined, diagnostics: sortDiagnostics([...checked.diagnostics, internalError(entryFiles, e)]) };
  }
}

async function generate(program: Program, checkDiagnostics: readonly Diagnostic[], options: CompileOptions): Promise<CompileResult> {
  const outPath = outPathFor(options);
  const importExt = options.importExt ?? userTsconfig(options.cwd ?? process.cwd()).importExt;
  const formatCache = options.formatCache === true && options.emit !== false ? FormatCache.forProcess(options.cwd ?? process.cwd(), PRETTIER_OPTIONS) : undefined;
  const emitOptions = { version: VERSION, outPath, importExt, runtime: options.runtime, formatCache };
  const lowered = lower(program);
  const drafts = lowered.value.files.map((f) => ({ source: f.file, raw: emitFileText(f, lowered.value, emitOptions) }));
  // TypeScript: the node functions against the draft's types, and which functions are synchronous
  const ts = options.typecheck === false ? undefined : typecheckDrafts(program, drafts, { outPath, cwd: options.cwd, importExt });
  const ir = ts ? withSync(lowered.value, ts.returns) : lowered.value;
  // the TypeScript pass's errors, and its warnings of node functions that may return undeclared fields
  const tsDiagnostics = ts ? [...ts.diagnostics, ...undeclaredReturns(ir)] : [];
  if (options.emit === false) {
    const draftDiagnostics = drafts.flatMap((d) => d.raw.diagnostics);
    const all = [...checkDiagnostics, ...lowered.diagnostics, ...draftDiagnostics, ...tsDiagnostics];
    return { files: [], ir, diagnostics: sortDiagnostics(all) };
  }
  const emitted = await Promise.all(ir.files.map((f) => emitFile(f, ir, program.files.get(f.file)!.text, emitOptions)));
  const all = [...checkDiagnostics, ...lowered.diagnostics, ...emitted.flatMap((e) => e.diagnostics), ...tsDiagnostics];
  return { files: emitted.map((e) => e.value), ir, diagnostics: sortDiagnostics(all) };
}

export interface BuildOutput {
  readonly path: string;
  readonly text: string;
}

/** Compiles and returns the files to write: `x.graph.ts` and `x.graph.ts.map` per `.graph` file. */
export async function buildFiles(
  files: readonly string[],
  options: CompileOptions = {},
): Promise<{ outputs: BuildOutput[]; diagnostics: Diagnostic[] }> {
  const result = await compile(files, options);
  const outputs = result.files.flatMap((f) => [
    { path: f.path, text: f.text },
    { path: `${f.path}.map`, text: `${JSON.stringify(f.map)}\n` },
  ]);
  return { outputs, diagnostics: result.diagnostics };
}

/** Where the generated code of a `.graph` file goes. */
export function outPathFor(options: Pick<CompileOptions, "outDir" | "rootDir">): (graphFile: string) => string {
  const { outDir } = options;
  if (outDir === undefined) return (file) => `${file}.ts`;
  const root = normalisePath(options.rootDir ?? ".");
  return (file) => {
    // files outside the root keep their path below it, without the leading `../` segments
    const rel = posix.relative(root === "." ? "" : root, file).replace(/^(\.\.\/)+/, "");
    return normalisePath(posix.join(normalisePath(outDir), `${rel}.ts`));
  };
}
