/** Printing diagnostics: pretty code frames on stderr (colour on a terminal only) or LSP-style JSON on stdout. */
import type { Diagnostic } from "../../grammar/diagnostic.ts";
import { toJson } from "../diagnostics/json.ts";
import { renderPretty } from "../diagnostics/render.ts";
import { type CliIO, useColor } from "./io.ts";

export type DiagnosticFormat = "pretty" | "json";

export function printDiagnostics(
  io: CliIO,
  diags: readonly Diagnostic[],
  format: DiagnosticFormat,
  readFile: (file: string) => string | undefined,
): void {
  if (format === "json") {
    io.stdout(`${JSON.stringify(toJson(diags), null, 2)}\n`);
    return;
  }
  if (diags.length > 0) io.stderr(renderPretty(diags, { color: useColor(io, "stderr"), readFile }));
}
