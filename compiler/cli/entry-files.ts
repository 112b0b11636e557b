/** What the contracts commands (`manifest`, `diff`) share: the entry files and the working tree's manifest. */
import { posix } from "node:path";
import { manifestOf, type ManifestResult } from "../contracts/program.ts";
import { normalisePath } from "../phases/2-bind/host.ts";
import { expandFiles } from "./files.ts";
import { cliProject, readSource } from "./fs.ts";
import type { CliIO } from "./io.ts";
import { printDiagnostics } from "./report.ts";

/** The `.graph` files `args` name, relative to the working directory (so no output holds an absolute path). */
export function entryFiles(io: CliIO, args: readonly string[]): string[] {
  const cwd = io.cwd.replace(/\\/g, "/");
  return expandFiles(io.cwd, args).map((f) => {
    const p = normalisePath(f);
    return posix.isAbsolute(p) ? normalisePath(posix.relative(cwd, p)) : p;
  });
}

/** The manifest of the files as they are now; diagnostics are printed (the manifest is undefined on errors). */
export function workingTreeManifest(io: CliIO, args: readonly string[], root: string | undefined): ManifestResult {
  const files = entryFiles(io, args);
  for (const f of files) readSource(io, f);
  const project = cliProject(io, files, root);
  const result = manifestOf(files, project.host, root);
  printDiagnostics(io, result.diagnostics, "pretty", project.frameSource);
  return result;
}
