/**
 * Compiles every sample's .graph files to the `*.graph.ts` beside them (build outputs, git-ignored).
 * `npx tsx samples/build.ts`; also run by `npm start` and by the e2e test before they import a sample.
 */
import { readdirSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { buildFiles } from "graphc";
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

export async function buildSamples(): Promise<SamplesBuild> {
  const files = sampleGraphFiles();
  const result = await buildFiles(files);
  return { ok: result.ok, files, report: result.report };
}

if (isMain(import.meta.url)) {
  const { ok, files, report } = await buildSamples();
  if (report) console.error(report);
  console.log(ok ? `built ${files.length} .graph files` : "build failed");
  process.exitCode = ok ? 0 : 1;
}
