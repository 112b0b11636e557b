/**
 * `graphc build [files|globs...] [--out DIR] [--watch] [--check] [--root DIR]`.
 * - Outputs go only under the project root (or under `--out`): an output whose real path leads elsewhere
 *   (a symlink) fails the build before anything is written.
 * - Outputs identical to what is on disk are not rewritten (mtimes and watchers stay quiet).
 * - A build with errors writes nothing, so the last good output is never deleted or overwritten.
 * - `--check` writes nothing and exits 1 when an output is missing or differs from what would be written.
 * - `--watch` rebuilds the entry files that depend on a changed file (see watch.ts).
 */
import { buildFiles } from "../compile.ts";
import { hasErrors } from "../check.ts";
import { expandFiles } from "./files.ts";
import { describeRoot, projectRoot } from "../phases/2-bind/project-root.ts";
import { cliProject, readOutput, readSource, writeIfChanged } from "./fs.ts";
import { type CliIO, EXIT, UsageError } from "./io.ts";
import type { ImportExt } from "../phases/5-emit/import-ext.ts";
import type { RuntimeMode } from "../phases/4-lower/lean.ts";
import { printDiagnostics } from "./report.ts";
import { watchAndRebuild } from "./watch.ts";

export interface BuildOptions {
  readonly out?: string | undefined;
  readonly watch?: boolean | undefined;
  readonly check?: boolean | undefined;
  /** false with `--no-typecheck` */
  readonly typecheck?: boolean | undefined;
  readonly root?: string | undefined;
  /** `--import-ext`; default from the nearest tsconfig.json */
  readonly importExt?: ImportExt | undefined;
  /** `--runtime lean`: lean-eligible files install nothing (default "full": streaming and Command input) */
  readonly runtime?: RuntimeMode | undefined;
}

export async function buildCommand(io: CliIO, args: readonly string[], opts: BuildOptions): Promise<number> {
  if (opts.watch && opts.check) throw new UsageError("--watch and --check cannot be used together");
  const files = expandFiles(io.cwd, args);
  for (const f of files) readSource(io, f);
  const code = await buildOnce(io, files, opts);
  if (!opts.watch) return code;
  return watchAndRebuild(io, files, code, (changed) => buildOnce(io, changed, opts), opts.root);
}

/** One build of `files` (entry files); returns the exit code. */
export async function buildOnce(io: CliIO, files: readonly string[], opts: BuildOptions): Promise<number> {
  const { host, root, frameSource } = cliProject(io, files, opts.root);
  const { outputs, diagnostics } = await buildFiles(files, {
    outDir: opts.out,
    host,
    root: opts.root,
    typecheck: opts.typecheck,
    cwd: io.cwd,
    importExt: opts.importExt,
    runtime: opts.runtime,
    formatCache: true,
  });
  printDiagnostics(io, diagnostics, "pretty", frameSource);
  // the compiler only reads inside the root, so its outputs land there too; this guards the writer itself
  const writable = opts.out === undefined ? root : projectRoot([], host, opts.out);
  const refused = outputs.filter((o) => !writable.contains(o.path));
  for (const o of refused) io.stderr(`graphc: refusing to write \`${o.path}\`: it leads outside ${describeRoot(writable)}\n`);
  if (hasErrors(diagnostics) || refused.length > 0) {
    io.stderr(`build failed: nothing written${opts.check ? "" : " (existing outputs are left as they were)"}\n`);
    return EXIT.errors;
  }
  if (opts.check) {
    const stale = outputs.filter((o) => readOutput(io, o.path) !== o.text);
    for (const o of stale) io.stdout(`${o.path}\n`);
    if (stale.length > 0) io.stderr(`${stale.length} output${stale.length === 1 ? " is" : "s are"} missing or stale; run \`graphc build\`\n`);
    return stale.length > 0 ? EXIT.errors : EXIT.ok;
  }
  let written = 0;
  for (const o of outputs) {
    if (!writeIfChanged(io, o.path, o.text)) continue;
    written++;
    io.stdout(`wrote ${o.path}\n`);
  }
  io.stderr(`built ${files.length} file${files.length === 1 ? "" : "s"}: ${written} written, ${outputs.length - written} unchanged\n`);
  return EXIT.ok;
}
