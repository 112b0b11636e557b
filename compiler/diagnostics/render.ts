/**
 * Pretty diagnostics, as ARCHITECTURE.md shows them:
 *
 *   error[G2003]: unknown node `serch` in edge
 *     --> research.graph:14:13
 *      |
 *   14 |   START -> serch -> END
 *      |            ^^^^^ not declared in graph `Research`
 *      |
 *      = help: did you mean `search`? (declared at research.graph:12:8)
 *
 * Related locations follow as `::: file:line:col` frames underlined with `-`. Colour (ANSI) only when asked:
 * the CLI passes `color: stream.isTTY`. Pure: no I/O except through `readFile`.
 */
import type { Diagnostic } from "../../grammar/diagnostic.ts";
import { LineMap, type Span } from "../../grammar/span.ts";

export interface RenderOptions {
  color?: boolean;
  /** source text of a file, for code frames; frames are left out when it returns undefined */
  readFile?: (file: string) => string | undefined;
}

const ANSI = { red: 31, yellow: 33, blue: 34, cyan: 36, bold: 1 } as const;
type Style = keyof typeof ANSI;

/** Renders every diagnostic, separated by blank lines, plus a summary line. */
export function renderPretty(diags: readonly Diagnostic[], options: RenderOptions = {}): string {
  const maps = new Map<string, LineMap | undefined>();
  const mapOf = (file: string) => {
    if (!maps.has(file)) {
      const text = options.readFile?.(file);
      maps.set(file, text === undefined ? undefined : new LineMap(file, text));
    }
    return maps.get(file);
  };
  const parts = diags.map((x) => renderOne(x, mapOf, options.color ?? false));
  if (diags.length) parts.push(summary(diags, options.color ?? false));
  return parts.join("\n\n") + (diags.length ? "\n" : "");
}

/** `2 errors, 1 warning` */
export function summary(diags: readonly Diagnostic[], color = false): string {
  const errors = diags.filter((x) => x.severity === "error").length;
  const warnings = diags.length - errors;
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? "" : "s"}`;
  const text = [errors ? plural(errors, "error") : "", warnings ? plural(warnings, "warning") : ""]
    .filter(Boolean)
    .join(", ");
  return paint(color, errors ? "red" : "yellow", true, text);
}

function paint(color: boolean, style: Style, bold: boolean, text: string): string {
  if (!color || text === "") return text;
  return `\u001b[${bold ? "1;" : ""}${ANSI[style]}m${text}\u001b[0m`;
}

const expandTabs = (s: string) => s.replace(/\t/g, "    ");
/** display column (0-based) of a UTF-16 column inside `line`, counting tabs as 4 */
const displayCol = (line: string, col0: number) => expandTabs(line.slice(0, col0)).length;

interface Frame {
  span: Span;
  label: string | undefined;
  primary: boolean;
}

function renderOne(x: Diagnostic, mapOf: (f: string) => LineMap | undefined, color: boolean): string {
  const sev = x.severity === "error" ? "red" : "yellow";
  const frames: Frame[] = [
    { span: x.span, label: x.label, primary: true },
    ...x.related.map((r) => ({ span: r.span, label: r.message, primary: false })),
  ];
  const width = frames.reduce((w, f) => Math.max(w, String(f.span.start.line).length), 0);
  const pad = " ".repeat(width);
  const gutter = (s = "") => paint(color, "blue", true, `${s.padStart(width)} |`);
  const lines: string[] = [
    `${paint(color, sev, true, `${x.severity}[${x.code}]`)}${paint(color, "bold", true, `: ${x.message}`)}`,
  ];

  frames.forEach((f, i) => {
    const arrow = f.primary ? "-->" : ":::";
    const loc = `${f.span.file}:${f.span.start.line}:${f.span.start.column}`;
    lines.push(`${pad}${paint(color, "blue", true, arrow)} ${loc}`);
    const map = mapOf(f.span.file);
    if (!map || f.span.start.line > map.lineCount) {
      // no source: still say what the related location is
      if (!f.primary && f.label) lines.push(`${pad} ${paint(color, "blue", true, "=")} note: ${f.label}`);
      return;
    }
    const text = map.lineText(f.span.start.line);
    const startCol = displayCol(text, f.span.start.column - 1);
    const endCol =
      f.span.end.line === f.span.start.line ? displayCol(text, f.span.end.column - 1) : expandTabs(text).length;
    const marks = Math.max(1, endCol - startCol);
    const underline = (f.primary ? "^" : "-").repeat(marks);
    lines.push(gutter());
    lines.push(`${gutter(String(f.span.start.line))} ${expandTabs(text)}`.trimEnd());
    const label = f.label ? ` ${f.label}` : "";
    lines.push(`${gutter()} ${" ".repeat(startCol)}${paint(color, f.primary ? sev : "blue", true, underline + label)}`);
    if (i === frames.length - 1) lines.push(gutter());
  });
  if (x.hint) lines.push(`${pad} ${paint(color, "blue", true, "=")} ${paint(color, "cyan", true, "help")}: ${x.hint}`);
  return lines.join("\n");
}
