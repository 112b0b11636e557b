/**
 * `graphc fmt [files...] [--check]`: formats in place, or lists the files that are not formatted. Never
 * throws on any input: a formatter failure is a diagnostic for that file, which is left untouched.
 */
import { fileStart } from "../phases/2-bind/bind.ts";
import { d } from "../diagnostics/messages.ts";
import { format, type FormatResult } from "../format/index.ts";
import { expandFiles } from "./files.ts";
import { type CliIO, EXIT } from "./io.ts";
import { readSource, writeIfChanged } from "./fs.ts";
import { printDiagnostics } from "./report.ts";

export async function fmtCommand(io: CliIO, args: readonly string[], opts: { check?: boolean }): Promise<number> {
  const files = expandFiles(io.cwd, args);
  const unformatted: string[] = [];
  let syntaxErrors = false;
  for (const file of files) {
    const text = readSource(io, file);
    const r = safeFormat(text, file);
    if (r.diagnostics.length > 0) {
      printDiagnostics(io, r.diagnostics, "pretty", (f) => (f === file ? text : undefined));
      syntaxErrors = true;
      continue;
    }
    if (r.text === text) continue;
    unformatted.push(file);
    if (!opts.check) writeIfChanged(io, file, r.text);
  }
  if (opts.check) {
    for (const f of unformatted) io.stdout(`${f}\n`);
    if (unformatted.length > 0) {
      io.stderr(`${unformatted.length} file${unformatted.length === 1 ? " is" : "s are"} not formatted; run \`graphc fmt\`\n`);
    }
    return syntaxErrors || unformatted.length > 0 ? EXIT.errors : EXIT.ok;
  }
  for (const f of unformatted) io.stdout(`formatted ${f}\n`);
  return syntaxErrors ? EXIT.errors : EXIT.ok;
}

/** `format`, with an exception (a stack overflow on a pathological file, a bug) turned into a G9002. */
function safeFormat(text: string, file: string): FormatResult {
  try {
    return format(text, file);
  } catch (e) {
    const error = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    return { text, diagnostics: [d.formatFailed(fileStart(file), { error })] };
  }
}
