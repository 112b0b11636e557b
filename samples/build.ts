/**
 * Compiles every sample's .graph files to the `*.graph.ts` beside them (build outputs, git-ignored).
 * `npx tsx samples/build.ts`; also run by `npm start` and by the e2e test before they import a sample.
 */
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { buildFiles, hasErrors, type Diagnostic } from "graphc";
import { isMain } from "./shared/is-main.ts";

export const SAMPLES_DIR = dirname(fileURLToPath(import.meta.url));

/** every .graph file of the samples, as paths relative to the current directory */
export function sampleGraphFiles(): string[] {
  return (readdirSync(SAMPLES_DIR, { recursive: true }) as string[])
    .filter((f) => f.endsWith(".graph") && !f.split(/[\\/]/).some((part) => part.startsWith("_tmp") || part === "data"))
    .sort()
    .map((f) => relative(process.cwd(), join(SAMPLES_DIR, f)));
}

export interface SamplesBuild {
  ok: boolean;
  files: string[];
  /** rendered diagnostics (errors and warnings), empty when clean */
  report: string;
}

/** `file:line:col: error[G2003] message` plus the hint, one diagnostic per paragraph */
function describe(d: Diagnostic): string {
  const at = `${d.span.file}:${d.span.start.line}:${d.span.start.column}`;
  return [`${at}: ${d.severity}[${d.code}] ${d.message}`, ...(d.hint ? [`  = help: ${d.hint}`] : [])].join("\n");
}

/**
 * Builds all samples; writes nothing when there are errors (the last good output stays).
 * `typecheck: false` skips graphc's own TypeScript pass over the node functions (callers that run tsc over
 * samples/tsconfig.json anyway, like the e2e test, save its time).
 */
export async function buildSamples(options: { typecheck?: boolean } = {}): Promise<SamplesBuild> {
  const files = sampleGraphFiles();
  const { outputs, diagnostics } = await buildFiles(files, { typecheck: options.typecheck ?? true });
  const ok = !hasErrors(diagnostics);
  if (ok) {
    for (const out of outputs) {
      // unchanged output is not rewritten, so tsx/vitest/editors see no spurious change
      const old = (() => {
        try {
          return readFileSync(out.path, "utf8");
        } catch {
          return undefined;
        }
      })();
      if (old !== out.text) writeFileSync(out.path, out.text);
    }
  }
  return { ok, files, report: diagnostics.map(describe).join("\n\n") };
}

if (isMain(import.meta.url)) {
  const { ok, files, report } = await buildSamples();
  if (report) console.error(report);
  console.log(ok ? `built ${files.length} .graph files` : "build failed");
  process.exitCode = ok ? 0 : 1;
}
