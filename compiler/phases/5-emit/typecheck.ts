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
 * 4. the same program answers "is this function synchronous?", which `withSync` records in the IR.
 * The program is native TypeScript 7's (ts-native.ts) or, where its binary does not run, ts-morph's (ts-check.ts).
 */
import type { ImportRef, Program } from "../2-bind/model.ts";
import { TsWorld } from "./ts-check.ts";
import { runTypecheck } from "./typecheck-run.ts";
import { NativeWorld } from "./ts-native.ts";
import { syncQuery, typecheckDiagnostics, typecheckJob, type Draft, type TypecheckResult } from "./typecheck-job.ts";

export type { Draft, TypecheckResult } from "./typecheck-job.ts";

export function typecheckDrafts(
  program: Program,
  drafts: readonly Draft[],
  options: {
    readonly outPath: (graphFile: string) => string;
    readonly cwd?: string | undefined;
  },
): TypecheckResult {
  const { outPath } = options;
  const job = typecheckJob(program, drafts, options);
  // native TypeScript 7 when its binary runs here, else the same pass on TypeScript's JavaScript API
  const world = NativeWorld.shared(options.cwd) ?? TsWorld.shared(options.cwd);
  const answer = runTypecheck(world, job);
  // the module specifier is resolved from the generated file, as tsc will resolve it
  const isSync = (fn: ImportRef, file: string) => world.isSync(syncQuery(fn, file, outPath).fn, outPath(file));
  return { diagnostics: typecheckDiagnostics(program, answer), isSync };
}

