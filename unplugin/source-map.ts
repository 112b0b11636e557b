/**
 * One source map from the bundled JavaScript straight to the `.graph` file: TypeScript's map (JavaScript →
 * generated TypeScript) composed with graphc's per-line spans (generated TypeScript → `.graph`). Composing
 * here, rather than handing bundlers two maps, is what makes it work the same in every bundler: esbuild
 * and webpack keep only the last map a plugin returns.
 */

export interface SourceMapJson {
  version: 3;
  file: string;
  sources: string[];
  sourcesContent: string[];
  names: string[];
  mappings: string;
}

/** the `.graph` position (0-based line and column) a generated TypeScript line (0-based) comes from */
export type LineOrigin = (tsLine: number) => { line: number; column: number } | undefined;

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const B64_INDEX = new Map([...B64].map((c, i) => [c, i]));

/** The numbers of one mappings segment (`AAgBC` → [0, 0, 16, 1]), each relative to the previous segment. */
function decodeSegment(segment: string): number[] {
  const out: number[] = [];
  let value = 0;
  let shift = 0;
  for (const c of segment) {
    const digit = B64_INDEX.get(c);
    if (digit === undefined) throw new Error(`invalid base64 VLQ character ${JSON.stringify(c)} in a source map`);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
      continue;
    }
    out.push(value & 1 ? -(value >>> 1) : value >>> 1);
    value = 0;
    shift = 0;
  }
  return out;
}

function encodeNumber(n: number): string {
  let v = n < 0 ? (-n << 1) | 1 : n << 1;
  let out = "";
  do {
    const digit = v & 31;
    v >>>= 5;
    out += B64[v > 0 ? digit | 32 : digit];
  } while (v > 0);
  return out;
}

/**
 * `tsMap`: TypeScript's `mappings` (one source: the generated file). Every JavaScript segment whose
 * TypeScript line has a `.graph` origin maps to that origin; the rest stay unmapped.
 */
export function composeMappings(tsMappings: string, origin: LineOrigin): string {
  // TypeScript's source line is relative across the whole map; the output's source line and column too
  let tsLine = 0;
  let prevLine = 0;
  let prevCol = 0;
  const lines: string[] = [];
  for (const group of tsMappings.split(";")) {
    // generated columns restart at 0 on every line, in the input and in the output
    let genCol = 0;
    let prevGenCol = 0;
    let last: string | undefined;
    const out: string[] = [];
    for (const segment of group.split(",")) {
      if (segment === "") continue;
      const [dCol = 0, , dLine] = decodeSegment(segment);
      genCol += dCol;
      if (dLine === undefined) continue;
      tsLine += dLine;
      const o = origin(tsLine);
      if (o === undefined) continue;
      // consecutive segments of one line from the same `.graph` position add nothing
      const key = `${o.line}:${o.column}`;
      if (key === last) continue;
      last = key;
      out.push(encodeNumber(genCol - prevGenCol) + encodeNumber(0) + encodeNumber(o.line - prevLine) + encodeNumber(o.column - prevCol));
      prevGenCol = genCol;
      prevLine = o.line;
      prevCol = o.column;
    }
    lines.push(out.join(","));
  }
  return lines.join(";");
}
