/** Checks that a diagnostic's spans lie inside their file and that line/column agree with the offsets. */
import type { Diagnostic } from "../../grammar/diagnostic.ts";
import { LineMap, type Position, type Span } from "../../grammar/span.ts";

function positionProblem(p: Position, map: LineMap): string | undefined {
  if (!Number.isInteger(p.offset) || p.offset < 0 || p.offset > map.text.length) return `offset ${p.offset} outside 0..${map.text.length}`;
  const want = map.position(p.offset);
  if (want.line !== p.line || want.column !== p.column) {
    return `offset ${p.offset} is ${want.line}:${want.column}, span says ${p.line}:${p.column}`;
  }
  return undefined;
}

function spanProblem(s: Span, files: ReadonlyMap<string, LineMap>): string | undefined {
  const map = files.get(s.file);
  if (map === undefined) return `unknown file ${JSON.stringify(s.file)}`;
  if (s.start.offset > s.end.offset) return `start ${s.start.offset} after end ${s.end.offset}`;
  return positionProblem(s.start, map) ?? positionProblem(s.end, map);
}

/** A description of the first invalid span among the diagnostics, or undefined when all are valid. */
export function invalidSpan(diags: readonly Diagnostic[], files: Readonly<Record<string, string>>): string | undefined {
  const maps = new Map(Object.entries(files).map(([f, t]) => [f, new LineMap(f, t)]));
  for (const d of diags) {
    if (!/^G\d{4}$/.test(d.code)) return `bad code ${d.code}`;
    if (d.message.trim() === "") return `${d.code}: empty message`;
    for (const s of [d.span, ...d.related.map((r) => r.span)]) {
      const p = spanProblem(s, maps);
      if (p !== undefined) return `${d.code} (${d.message}): ${p}`;
    }
  }
  return undefined;
}
