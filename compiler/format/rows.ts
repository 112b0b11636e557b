/**
 * Lays out a list of members (top-level items, graph members, fields, options, cases) one per line, with
 * their comments, preserved blank lines and aligned columns.
 *
 * Comments are re-attached by position:
 * - on the line of the opening brace, after it            → stays after the brace
 * - on the line where a member ends, after it             → trailing comment of that member
 * - on their own lines before a member                    → leading comments of that member
 * - inside a member but not inside one of its own lists   → moved to the lines just before the member
 * - after the last member                                 → stay at the end of the list
 * One blank line is kept where the source had at least one; more collapse to one.
 */
import type { Comment } from "../../grammar/ast.ts";
import type { Source } from "./source.ts";
import { appendAll } from "../../grammar/append.ts";

/**
 * How a member prints. `aligned` rows are single lines whose parts (all but the last) are padded to the
 * widest part in a run of rows of the same group, so `input  { a }` / `output { b }` and the `=>` of
 * condition cases line up. `lines` rows are laid out already.
 */
export type Row =
  | { kind: "aligned"; group: string; parts: readonly string[] }
  | { kind: "lines"; lines: readonly string[] };

export interface Entry {
  /** source offsets of the member (end exclusive) */
  readonly start: number;
  readonly end: number;
  readonly print: () => Row;
}

export interface ListLayout {
  /** comments to append to the line of the opening brace ("" when none) */
  readonly open: string;
  /** member lines, not indented (the caller indents them) */
  readonly lines: string[];
}

export const INDENT = "  ";

type Item =
  | { type: "blank" }
  | { type: "comment"; text: string }
  | { type: "row"; row: Row; trailing: string };

export function layoutList(
  src: Source,
  entries: readonly Entry[],
  body: { start: number; end: number; openLine: number },
  forceBlank: (prev: Entry, next: Entry) => boolean = () => false,
): ListLayout {
  const items: Item[] = [];
  const firstStart = entries[0]?.start ?? body.end;
  const open = commentsText(src.take(body.start, firstStart, (c) => c.span.start.line === body.openLine));

  let prevEnd = body.start;
  let prev: Entry | undefined;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    const leading = src.take(prevEnd, entry.start);
    // a forced blank line goes before the member's leading comments, which belong to it
    let force = prev !== undefined && forceBlank(prev, entry);
    let cursor = prevEnd;
    for (const c of leading) {
      if (items.length > 0 && (force || src.blankLineBetween(cursor, c.span.start.offset))) items.push({ type: "blank" });
      items.push({ type: "comment", text: c.text });
      cursor = c.span.end.offset;
      force = false;
    }
    if (items.length > 0 && (force || src.blankLineBetween(cursor, entry.start))) {
      if (items[items.length - 1]?.type !== "blank") items.push({ type: "blank" });
    }
    const row = entry.print();
    for (const c of src.take(entry.start, entry.end)) items.push({ type: "comment", text: c.text });
    const nextStart = entries[i + 1]?.start ?? body.end;
    const endLine = src.line(entry.end);
    const trailing = src.take(entry.end, nextStart, (c) => c.span.start.line === endLine);
    items.push({ type: "row", row, trailing: commentsText(trailing) });
    prevEnd = trailing.length > 0 ? trailing[trailing.length - 1]!.span.end.offset : entry.end;
    prev = entry;
  }
  let cursor = prevEnd;
  for (const c of src.take(prevEnd, body.end)) {
    if (items.length > 0 && src.blankLineBetween(cursor, c.span.start.offset)) items.push({ type: "blank" });
    items.push({ type: "comment", text: c.text });
    cursor = c.span.end.offset;
  }
  return { open, lines: render(items) };
}

function commentsText(cs: readonly Comment[]): string {
  return cs.map((c) => c.text).join(" ");
}

/** Splits items into runs: consecutive single-line rows, broken by blank lines and multi-line rows. */
function runs(items: readonly Item[]): Item[][] {
  const out: Item[][] = [];
  let run: Item[] = [];
  for (const it of items) {
    if (it.type === "blank" || (it.type === "row" && it.row.kind === "lines" && it.row.lines.length !== 1)) {
      out.push(run);
      run = [];
    } else run.push(it);
  }
  out.push(run);
  return out;
}

function render(items: readonly Item[]): string[] {
  const text = new Map<Item, string>();
  for (const run of runs(items)) {
    alignParts(run, text);
    alignTrailing(run, text);
  }
  const lines: string[] = [];
  for (const it of items) {
    if (it.type === "blank") lines.push("");
    else if (it.type === "comment") lines.push(it.text);
    else if (it.row.kind === "lines" && it.row.lines.length !== 1) {
      const ls = [...it.row.lines];
      if (it.trailing !== "") ls[ls.length - 1] = `${ls[ls.length - 1] ?? ""}  ${it.trailing}`;
      appendAll(lines, ls);
    } else lines.push(text.get(it)!);
  }
  return lines;
}

function alignParts(run: readonly Item[], text: Map<Item, string>): void {
  const widths = new Map<string, number[]>();
  for (const it of run) {
    if (it.type !== "row" || it.row.kind !== "aligned") continue;
    const w = widths.get(it.row.group) ?? [];
    it.row.parts.forEach((p, i) => (w[i] = Math.max(w[i] ?? 0, p.length)));
    widths.set(it.row.group, w);
  }
  for (const it of run) {
    if (it.type !== "row") continue;
    if (it.row.kind === "lines") {
      text.set(it, it.row.lines[0] ?? "");
      continue;
    }
    // a column empty in every row of the run takes no space at all
    const w = widths.get(it.row.group)!;
    const last = it.row.parts.length - 1;
    const cells = it.row.parts.flatMap((p, i) => (i === last ? [p] : w[i]! > 0 ? [p.padEnd(w[i]!)] : []));
    text.set(it, cells.join(" ").trimEnd());
  }
}

function alignTrailing(run: readonly Item[], text: Map<Item, string>): void {
  let width = 0;
  for (const it of run) if (it.type === "row" && it.trailing !== "") width = Math.max(width, text.get(it)!.length);
  for (const it of run) {
    if (it.type === "row" && it.trailing !== "") text.set(it, `${text.get(it)!.padEnd(width)}  ${it.trailing}`);
  }
}

/** Indents every non-empty line (a multi-line block comment keeps its own continuation lines). */
export function indent(lines: readonly string[], by: string = INDENT): string[] {
  return lines.map((l) => (l === "" ? "" : by + l));
}

/**
 * A braced block: `head {` + members + `}`. An empty block with no comments prints as `head {}`.
 */
export function block(head: string, layout: ListLayout): string[] {
  const open = layout.open === "" ? "" : `  ${layout.open}`;
  const brace = head === "" ? "{" : `${head} {`;
  if (layout.lines.length === 0 && open === "") return [`${brace}}`];
  return [`${brace}${open}`, ...indent(layout.lines), "}"];
}
