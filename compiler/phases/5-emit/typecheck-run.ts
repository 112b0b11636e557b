/**
 * The TypeScript pass itself, on data (typecheck.ts builds the job from the program and the drafts): kept
 * apart, with few imports, because the TypeScript thread of a one-shot build loads it (ts-thread-worker.ts).
 */
import type { Diagnostic } from "../../../grammar/diagnostic.ts";
import type { GeneratedForCheck, TsPass } from "./ts-check.ts";
import { RUNTIME_MODULE } from "./runtime-api.ts";

/** What the TypeScript pass reads, as data: it runs in this thread (typecheckDrafts) or another (ts-thread.ts). */
export interface TypecheckJob {
  readonly cwd: string | undefined;
  readonly drafts: readonly (GeneratedForCheck & { readonly broken: boolean })[];
  /** the modules the drafts import */
  readonly imports: readonly { module: string; outFile: string }[];
}

/** The pass's answer: TypeScript's diagnostics, or the draft whose generated file cannot import the runtime. */
export interface TypecheckAnswer {
  readonly diagnostics: Diagnostic[];
  readonly noRuntime?: { readonly source: string; readonly path: string } | undefined;
}

export function runTypecheck(world: TsPass, job: TypecheckJob): TypecheckAnswer {
  world.stage(job.drafts);
  world.prepare(job.imports);
  if (job.drafts.some((d) => d.broken)) return { diagnostics: [] };
  const noRuntime = job.drafts.find((d) => !world.resolves(RUNTIME_MODULE, d.path));
  return noRuntime ? { diagnostics: [], noRuntime: { source: noRuntime.source, path: noRuntime.path } } : { diagnostics: world.diagnose(job.drafts) };
}

