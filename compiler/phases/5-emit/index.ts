/**
 * Emission: the graph IR -> one formatted `x.graph.ts` per `.graph` file, with a source map back to the
 * `.graph` file and the line -> span table used to report TypeScript errors at `.graph` locations.
 */
import type { Diagnostic } from "../../../grammar/diagnostic.ts";
import type { Span } from "../../../grammar/span.ts";
import type { FileIR, ProgramIR } from "../4-lower/ir.ts";
import type { FnBinding } from "./context.ts";
import { emitFileText, type EmitOptions } from "./file.ts";
import { extractMarkers, formatGenerated, withoutEmptyLines } from "./format.ts";
import { prettierPays, reindent } from "./layout.ts";
import { buildSourceMap, type SourceMapV3 } from "./source-map.ts";

export { defaultOutPath, type EmitOptions } from "./file.ts";
export type { SourceMapV3 } from "./source-map.ts";
export type { FnBinding } from "./context.ts";

export interface EmittedFile {
  /** the `.graph` file */
  readonly source: string;
  /** the generated file's path */
  readonly path: string;
  /** formatted TypeScript, ending with a `sourceMappingURL` comment */
  readonly text: string;
  readonly map: SourceMapV3;
  /** per generated line (index 0 = line 1): the `.graph` span it was generated from */
  readonly lines: (Span | undefined)[];
  /** the user functions bound to generated types, keyed by `<type> = <userFn>` (for mapping TypeScript errors) */
  readonly bindings: ReadonlyMap<string, FnBinding>;
}

export async function emitFile(
  file: FileIR,
  program: ProgramIR,
  graphText: string,
  options: EmitOptions,
): Promise<{ value: EmittedFile; diagnostics: Diagnostic[] }> {
  const raw = emitFileText(file, program, options);
  // a name the module cannot bind (reported) leaves code prettier cannot parse: keep it unformatted
  const broken = raw.diagnostics.some((d) => d.severity === "error");
  // prettier where it pays: it costs about a second per 100 KB, so big files get the linear layout
  const formatted = broken
    ? extractMarkers(raw.text, raw.spans)
    : prettierPays(raw.text)
      ? await formatGenerated(raw.text, raw.spans, raw.path, options.formatCache).catch(() => laidOut(raw.text, raw.spans))
      : laidOut(raw.text, raw.spans);
  const mapName = `${basename(raw.path)}.map`;
  const text = `${formatted.text.replace(/\n+$/, "")}\n//# sourceMappingURL=${mapName}\n`;
  const map = buildSourceMap(formatted.lines, raw.path, file.file, graphText);
  return {
    value: { source: file.file, path: raw.path, text, map, lines: formatted.lines, bindings: raw.bindings },
    diagnostics: raw.diagnostics,
  };
}

/**
 * The linear layout (layout.ts); also the fallback should prettier still fail on some text (a stack
 * overflow on an expression shape prettierPays does not foresee) — never an exception from emit.
 */
function laidOut(text: string, spans: readonly Span[]) {
  return extractMarkers(reindent(withoutEmptyLines(text)), spans);
}

function basename(p: string): string {
  const i = p.lastIndexOf("/");
  return i < 0 ? p : p.slice(i + 1);
}
