/**
 * Formats generated code with prettier (once, at the end) and turns the marker lines the emitters left
 * (`//@graphc:N` — see context.ts) into a line -> `.graph` span table: each marker maps the lines after it,
 * up to the next marker, to span N. The markers are removed from the final text.
 */
import type { ParserOptions } from "prettier";
import type { FormatCache } from "./format-cache.ts";
import type { Span } from "../../../grammar/span.ts";
import { MARK_PREFIX } from "./context.ts";
import { cut, printChunk } from "./print/index.ts";

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

export async function formatGenerated(text: string, spans: readonly Span[], path?: string, disk?: FormatCache): Promise<Formatted> {
  // the markers carry indices into `spans`: the same text may map to other spans (an edit that moved lines)
  return extractMarkers(await formatRaw(withoutEmptyLines(text), path, disk), spans);
}

/**
 * How often this process called prettier (a format, or its parser to cut a text): a test asserts that a
 * cold build of samples/customer-service never does (print/ prints all of it).
 */
export const prettierUse = { calls: 0 };

/** prettier, imported when first needed: a build whose output is all in the disk cache never loads it */
async function format(text: string): Promise<string> {
  prettierUse.calls++;
  const prettier = await import("prettier");
  return prettier.format(text, PRETTIER_OPTIONS);
}

/**
 * Prettier's output for the emitters' text of the generated file `path`. The first version of a file is
 * formatted whole (a prettier call per statement costs a fifth to a third more, cold). A later version (a
 * rebuild after an edit) is formatted statement by statement (statementChunks), the statements it shares
 * with the version before coming from the cache: that version's output, cut where its statements end, is
 * what prettier prints for each of them (formattedPieces). So only the statements an edit changed reach
 * prettier, and a one-shot build pays nothing for it.
 *
 * `disk` (format-cache.ts, `graphc build`): the same for the first version of a file in this process,
 * from earlier processes — the whole file if it is unchanged, else its statements; what this call formats
 * goes there too (a file formatted whole, cut into its statements).
 */
export async function formatRaw(raw: string, path?: string, disk?: FormatCache): Promise<string> {
  let pretty = files.get(raw) ?? disk?.get(raw);
  const before = path === undefined ? undefined : lastVersion.get(path);
  if (pretty === undefined) {
    // without prettier: each statement from the caches or printed by print/ (prettier's exact output)
    const chunks = cut(raw);
    const pieces = chunks && withoutPrettier(chunks, disk);
    if (chunks && pieces) {
      pretty = pieces.join("");
      // kept on disk too: a later process reads them back rather than printing again (a few times cheaper, cold)
      chunks.forEach((c, i) => (remember(statements, c, pieces[i]!), disk?.put(c, pieces[i]!)));
      disk?.put(raw, pretty);
      remember(files, raw, pretty);
      if (path !== undefined) {
        lastVersion.delete(path);
        remember(lastVersion, path, { raw, pretty, cut: true, chunks });
      }
      return pretty;
    }
  }
  if (pretty !== undefined) {
    // a rebuild of this path can start from this version (from the disk cache: not one seen before)
    if (path !== undefined && before?.raw !== raw) remember(lastVersion, path, { raw, pretty, cut: false });
    remember(files, raw, pretty);
    return pretty;
  }
  let beforeChunks = before?.chunks;
  if (before !== undefined && !before.cut) {
    beforeChunks ??= await statementChunks(before.raw);
    const pieces = beforeChunks && (await formattedPieces(before.pretty, beforeChunks.length));
    if (beforeChunks && pieces) beforeChunks.forEach((c, i) => remember(statements, c, pieces[i]!));
  }
  const chunks =
    before === undefined && disk === undefined ? undefined : beforeChunks ? await editedChunks(raw, beforeChunks) : await statementChunks(raw);
  const byStatement = chunks !== undefined && 2 * cachedLength(chunks, disk) >= raw.length;
  if (byStatement) {
    pretty = "";
    for (const c of chunks) pretty += await formatStatement(c, disk);
  } else {
    pretty = await format(raw);
    const pieces = disk && chunks && (await formattedPieces(pretty, chunks.length));
    if (disk && chunks && pieces) chunks.forEach((c, i) => disk.put(c, pieces[i]!));
  }
  disk?.put(raw, pretty);
  remember(files, raw, pretty);
  if (path !== undefined) {
    lastVersion.delete(path);
    remember(lastVersion, path, { raw, pretty, cut: byStatement, ...(chunks ? { chunks } : {}) });
  }
  return pretty;
}

/** each statement's output from the caches or print/, or undefined if one of them needs prettier */
function withoutPrettier(chunks: readonly string[], disk: FormatCache | undefined): string[] | undefined {
  const out: string[] = [];
  for (const c of chunks) {
    const pretty = statements.get(c) ?? disk?.get(c) ?? printChunk(c);
    if (pretty === undefined) return undefined;
    out.push(pretty);
  }
  return out;
}

/** per generated file: its last formatted version; `cut` once its statements are in the cache; `chunks` once known */
const lastVersion = new Map<string, { raw: string; pretty: string; cut: boolean; chunks?: readonly string[] }>();

function cachedLength(chunks: readonly string[], disk: FormatCache | undefined): number {
  let n = 0;
  for (const c of chunks) if (statements.has(c) || disk?.get(c) !== undefined) n += c.length;
  return n;
}

/**
 * The raw text cut into its top-level statements, each with the comment lines before it (the last piece:
 * the comments after the last statement). Prettier prints top-level statements one by one, each on its own
 * lines, and keeps a blank line between two only where the input had one (the raw text has none): so the
 * pieces formatted one by one and joined are the file formatted whole (test/compiler/format-chunks.test.ts,
 * on every emit fixture). Undefined (format the whole text) when that does not hold: a syntax error, a
 * directive prologue (prettier keeps the blank line after it), or a comment on the line where a statement
 * ends (prettier keeps it on that line).
 */
export async function statementChunks(raw: string): Promise<string[] | undefined> {
  const program = await parse(raw);
  if (program === undefined || program.directives.length > 0) return undefined;
  const chunks: string[] = [];
  let start = 0;
  for (const s of program.body) {
    if (start > 0 && !OWN_LINE.test(raw.slice(start, s.start))) return undefined;
    chunks.push(raw.slice(start, s.end));
    start = s.end;
  }
  if (start > 0 && !OWN_LINE.test(raw.slice(start))) return undefined;
  chunks.push(raw.slice(start));
  return chunks;
}

/** what follows a statement on its line: nothing */
const OWN_LINE = /^[ \t]*(\n|$)/;

/**
 * `statementChunks(raw)` for a new version of a text whose chunks were `old`, parsing only what an edit
 * changed (a rebuild: a full parse of a 40 KB file is most of a one-line edit's prettier time): the leading
 * and trailing chunks `raw` still has are kept, and the text between them is cut on its own. That is the
 * same cut as a full parse's when the text between starts on a line of its own and every boundary ends a
 * statement that nothing after it can continue (`;`, or `}` before a name or a comment); otherwise, or on
 * a syntax error, the whole text is parsed (test/compiler/format-chunks.test.ts compares both).
 */
export async function editedChunks(raw: string, old: readonly string[]): Promise<string[] | undefined> {
  let head = 0;
  let start = 0;
  while (head < old.length - 1 && raw.startsWith(old[head]!, start)) start += old[head++]!.length;
  let tail = 0;
  let end = raw.length;
  while (old.length - 1 - tail >= head) {
    const chunk = old[old.length - 1 - tail]!;
    if (end - chunk.length < start || !raw.endsWith(chunk, end)) break;
    end -= chunk.length;
    tail++;
  }
  if (head === 0 || tail === 0) return statementChunks(raw);
  const middle = raw.slice(start, end);
  const cut = middle === "" ? [""] : OWN_LINE.test(middle) ? await statementChunks(middle) : undefined;
  if (cut === undefined || cut.at(-1) !== "") return statementChunks(raw);
  const inner = cut.slice(0, -1);
  const kept = [...old.slice(0, head), ...inner, ...old.slice(old.length - tail)];
  // each statement that ends where the re-cut text begins or ends
  for (let i = head - 1; i < head + inner.length; i++) {
    if (!closed(kept[i]!, kept[i + 1]!)) return statementChunks(raw);
  }
  return kept;
}

/** Does a statement ending `chunk` stay whole whatever follows it, given that `next` follows? */
function closed(chunk: string, next: string): boolean {
  return chunk.endsWith(";") || (chunk.endsWith("}") && /^\s*(\/\/|\/\*|[A-Za-z_$@])/.test(next));
}

/**
 * Prettier's output for a whole file cut where its top-level statements end (each piece: the comment lines
 * before a statement, the statement and its line break): the output of each of the file's `count`
 * statementChunks formatted alone. Undefined if the output does not have those statements.
 */
export async function formattedPieces(pretty: string, count: number): Promise<string[] | undefined> {
  const program = await parse(pretty);
  if (program === undefined || program.directives.length > 0 || program.body.length !== count - 1) return undefined;
  const pieces: string[] = [];
  let start = 0;
  for (const s of program.body) {
    if (pretty[s.end] !== "\n") return undefined;
    pieces.push(pretty.slice(start, s.end + 1));
    start = s.end + 1;
  }
  pieces.push(pretty.slice(start));
  return pieces;
}

/** A statement's span in its text: from its first token (comments before it excluded) to its last. */
interface Located {
  readonly start: number;
  readonly end: number;
}

/**
 * The top-level statements (and directives) of `text`, parsed by prettier's own parser (`babel-ts`, loaded
 * for formatting anyway); undefined on a syntax error.
 */
async function parse(text: string): Promise<{ body: Located[]; directives: unknown[] } | undefined> {
  try {
    prettierUse.calls++;
    const { parsers } = await import("prettier/plugins/babel");
    // the parser reads no option a format call sets (the typed options are the printer's, all required)
    const file = (await parsers["babel-ts"].parse(text, {} as ParserOptions)) as { program: { body: Located[]; directives: unknown[] }; errors?: unknown[] };
    return (file.errors?.length ?? 0) > 0 ? undefined : file.program;
  } catch {
    return undefined;
  }
}

async function formatStatement(raw: string, disk: FormatCache | undefined): Promise<string> {
  let pretty = statements.get(raw) ?? disk?.get(raw);
  pretty ??= printChunk(raw) ?? (await format(raw));
  remember(statements, raw, pretty);
  disk?.put(raw, pretty);
  return pretty;
}

/**
 * Prettier's output by input text, for rebuilds in one process (`--watch`, an IDE): whole files, and the
 * top-level statements of files formatted more than once (formatRaw). Bounded (the oldest entry leaves
 * first), and keyed by the whole text, so a hit is always exactly what prettier would print.
 */
const files = new Map<string, string>();
const statements = new Map<string, string>();
const FILES_MAX = 64;
const STATEMENTS_MAX = 8192;

function remember<V>(cache: Map<string, V>, key: string, value: V): void {
  if (cache.size >= (cache === statements ? STATEMENTS_MAX : FILES_MAX)) cache.delete(cache.keys().next().value!);
  cache.set(key, value);
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
