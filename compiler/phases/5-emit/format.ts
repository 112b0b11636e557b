/**
 * Formats generated code with prettier (once, at the end) and turns the marker lines the emitters left
 * (`//@graphc:N` — see context.ts) into a line -> `.graph` span table: each marker maps the lines after it,
 * up to the next marker, to span N. The markers are removed from the final text.
 */
import { format } from "prettier";
import { ts } from "ts-morph";
import type { Span } from "../../../grammar/span.ts";
import { MARK_PREFIX } from "./context.ts";

/**
 * `babel-ts` rather than `typescript`: the same output for generated code (every golden is unchanged), and
 * about a third less time, most of it when the parser is first loaded (a cold `graphc build`).
 */
export const PRETTIER_OPTIONS = { parser: "babel-ts", printWidth: 110 } as const;

export interface Formatted {
  readonly text: string;
  /** per generated line (index 0 = line 1): the `.graph` span it comes from, if any */
  readonly lines: (Span | undefined)[];
}

/** A line the emitters want kept blank (all other blank lines of the raw text are dropped before prettier). */
export const BLANK = `${MARK_PREFIX}blank`;

export async function formatGenerated(text: string, spans: readonly Span[]): Promise<Formatted> {
  const raw = withoutEmptyLines(text);
  const chunks = statementChunks(raw);
  let pretty: string;
  if (chunks === undefined) pretty = await formatCached(raw);
  else {
    pretty = "";
    for (const c of chunks) pretty += await formatCached(c);
  }
  // the markers carry indices into `spans`: the same text may map to other spans (an edit that moved lines)
  return extractMarkers(pretty, spans);
}

/**
 * The raw text cut into its top-level statements, each with the comment lines before it (the last piece:
 * the comments after the last statement). Prettier prints top-level statements one by one, each on its own
 * lines, and keeps a blank line between two only where the input had one (the raw text has none): so the
 * pieces formatted one by one and joined are the file formatted whole — every emit golden is formatted this
 * way — and a rebuild after an edit formats only the statements whose text changed. Undefined (format the
 * whole text) when that does not hold: a syntax error, a directive prologue (prettier keeps the blank line
 * after it), or a comment on the line where a statement ends (prettier keeps it on that line).
 */
export function statementChunks(raw: string): string[] | undefined {
  const sf = ts.createSourceFile("generated.ts", raw, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const parseErrors = (sf as unknown as { parseDiagnostics?: readonly unknown[] }).parseDiagnostics;
  if (parseErrors === undefined || parseErrors.length > 0) return undefined;
  const chunks: string[] = [];
  let start = 0;
  for (const s of sf.statements) {
    if (ts.isExpressionStatement(s) && ts.isStringLiteral(s.expression)) return undefined;
    if (!/^[ \t]*(\n|$)/.test(raw.slice(start, s.getStart(sf))) && start > 0) return undefined;
    chunks.push(raw.slice(start, s.end));
    start = s.end;
  }
  if (!/^[ \t]*(\n|$)/.test(raw.slice(start)) && start > 0) return undefined;
  chunks.push(raw.slice(start));
  return chunks;
}

async function formatCached(raw: string): Promise<string> {
  let pretty = formatted.get(raw);
  if (pretty === undefined) {
    pretty = raw.trim() === "" ? "" : await format(raw, PRETTIER_OPTIONS);
    remember(raw, pretty);
  }
  return pretty;
}

/**
 * Prettier's output by input text (a top-level statement, see statementChunks), for rebuilds in one process
 * (`--watch`, an IDE): a rebuild after an edit formats only the statements whose generated text changed.
 * Bounded (the oldest entry leaves first), and keyed by the whole text, so a hit is always exactly what
 * prettier would print.
 */
const formatted = new Map<string, string>();
const FORMATTED_MAX = 8192;

function remember(raw: string, pretty: string): void {
  if (formatted.size >= FORMATTED_MAX) formatted.delete(formatted.keys().next().value!);
  formatted.set(raw, pretty);
}

/** The emitters' empty lines are noise: only BLANK markers ask for a blank line. */
export function withoutEmptyLines(text: string): string {
  return text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .join("\n");
}

/** Removes marker lines; exported for tests that skip prettier. */
export function extractMarkers(text: string, spans: readonly Span[]): Formatted {
  const out: string[] = [];
  const lines: (Span | undefined)[] = [];
  // regions nest (context.ts `traced`): a stack of the open ones, innermost last
  const open: (Span | undefined)[] = [];
  for (const line of text.split("\n")) {
    const t = line.trim();
    if (t === BLANK || t === "") {
      // one blank line at most: prettier keeps its own blank lines (after imports) beside the emitters' ones
      if (out.length > 0 && out[out.length - 1] !== "") {
        out.push("");
        lines.push(undefined);
      }
      continue;
    }
    if (t.startsWith(MARK_PREFIX)) {
      const id = t.slice(MARK_PREFIX.length);
      if (id === "end") open.pop();
      else open.push(spans[Number(id)]);
      continue;
    }
    out.push(line);
    lines.push(open.at(-1));
  }
  return { text: out.join("\n"), lines };
}

/** The span of each line of a text that still holds its marker lines (marker lines map to nothing). */
export function traceLines(text: string, spans: readonly Span[]): (Span | undefined)[] {
  const open: (Span | undefined)[] = [];
  return text.split("\n").map((line) => {
    const t = line.trim();
    if (t === BLANK) return undefined;
    if (t.startsWith(MARK_PREFIX)) {
      const id = t.slice(MARK_PREFIX.length);
      if (id === "end") open.pop();
      else open.push(spans[Number(id)]);
      return undefined;
    }
    return t === "" ? undefined : open.at(-1);
  });
}
