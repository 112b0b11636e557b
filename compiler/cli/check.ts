/**
 * `graphc check [files|globs...] [--format pretty|json] [--no-typecheck] [--root DIR]`: every check `build`
 * runs (parse, bind, check, lowering, emission and the TypeScript pass over the node functions), printing
 * every diagnostic and writing nothing. `--no-typecheck` skips the TypeScript pass, as for `build`.
 */
import { hasErrors } from "../check.ts";
import { compile } from "../compile.ts";
import { expandFiles } from "./files.ts";
import { cliProject, readSource } from "./fs.ts";
import { type CliIO, EXIT } from "./io.ts";
import { type DiagnosticFormat, printDiagnostics } from "./report.ts";

export interface CheckOptions {
  readonly format: DiagnosticFormat;
  /** false with `--no-typecheck` */
  readonly typecheck?: boolean | undefined;
  readonly root?: string | undefined;
}

export async function checkCommand(io: CliIO, args: readonly string[], opts: CheckOptions): Promise<number> {
  const files = expandFiles(io.cwd, args);
  for (const f of files) readSource(io, f);
  const project = cliProject(io, files, opts.root);
  const { diagnostics } = await compile(files, { host: project.host, root: opts.root, typecheck: opts.typecheck, cwd: io.cwd });
  printDiagnostics(io, diagnostics, opts.format, project.frameSource);
  if (opts.format === "pretty" && diagnostics.length === 0) {
    io.stderr(`checked ${files.length} file${files.length === 1 ? "" : "s"}: no problems\n`);
  }
  return hasErrors(diagnostics) ? EXIT.errors : EXIT.ok;
}
