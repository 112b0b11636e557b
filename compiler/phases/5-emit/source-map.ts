/**
 * A version-3 source map from the generated file back to the `.graph` file: every generated line that came
 * from a traced declaration maps (at column 0) to the start of that declaration.
 */
import { posix } from "node:path";
import type { Span } from "../../../grammar/span.ts";

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

function vlq(n: number): string {
  let v = n < 0 ? (-n << 1) | 1 : n << 1;
  let out = "";
  do {
    let digit = v & 31;
    v >>>= 5;
    if (v > 0) digit |= 32;
    out += B64[digit];
  } while (v > 0);
  return out;
}

export interface SourceMapV3 {
  version: 3;
  file: string;
  sources: string[];
  sourcesContent: string[];
  names: string[];
  mappings: string;
}

/**
 * `lines[i]` is the span of generated line i+1. `generatedPath` and `graphPath` are used to write the
 * source path relative to the map (which sits beside the generated file).
 */
export function buildSourceMap(
  lines: readonly (Span | undefined)[],
  generatedPath: string,
  graphPath: string,
  graphText: string,
): SourceMapV3 {
  let prevLine = 0;
  let prevCol = 0;
  const groups: string[] = [];
  for (const span of lines) {
    if (span === undefined || span.file !== graphPath) {
      groups.push("");
      continue;
    }
    const line = span.start.line - 1;
    const col = span.start.column - 1;
    // [generated column, source index, source line delta, source column delta]
    groups.push(vlq(0) + vlq(0) + vlq(line - prevLine) + vlq(col - prevCol));
    prevLine = line;
    prevCol = col;
  }
  return {
    version: 3,
    file: posix.basename(generatedPath),
    sources: [posix.relative(posix.dirname(generatedPath), graphPath) || posix.basename(graphPath)],
    sourcesContent: [graphText],
    names: [],
    mappings: groups.join(";"),
  };
}
