/** `graphc check [files|globs...] [--format pretty|json]`: parse, bind and check; print every diagnostic. */
import { check, hasErrors } from "../check.ts";
import { expandFiles } from "./files.ts";
import { cwdHost, readSource } from "./fs.ts";
import { type CliIO, EXIT } from "./io.ts";
import { type DiagnosticFormat, printDiagnostics } from "./report.ts";

export function checkCommand(io: CliIO, args: readonly string[], opts: { format: DiagnosticFormat }): number {
  const files = expandFiles(io.cwd, args);
  for (const f of files) readSource(io, f);
  const host = cwdHost(io);
  const { diagnostics } = check(files, host);
  printDiagnostics(io, diagnostics, opts.format, (f) => host.readFile(f));
  if (opts.format === "pretty" && diagnostics.length === 0) {
    io.stderr(`checked ${files.length} file${files.length === 1 ? "" : "s"}: no problems\n`);
  }
  return hasErrors(diagnostics) ? EXIT.errors : EXIT.ok;
}
