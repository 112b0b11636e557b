/**
 * Source positions. Every AST node and every diagnostic carries a Span.
 * Offsets are UTF-16 code-unit offsets into the file text (what JS strings index);
 * lines and columns are 1-based, columns counted in UTF-16 code units.
 */
export interface Position {
  offset: number;
  line: number;
  column: number;
}

export interface Span {
  file: string;
  start: Position;
  /** exclusive end */
  end: Position;
}

/** Maps offsets to line/column for one file; built once per file. */
export class LineMap {
  private readonly lineStarts: number[] = [0];

  constructor(
    readonly file: string,
    readonly text: string,
  ) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) this.lineStarts.push(i + 1);
      else if (c === 13 && text.charCodeAt(i + 1) !== 10) this.lineStarts.push(i + 1);
    }
  }

  position(offset: number): Position {
    const o = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid]! <= o) lo = mid;
      else hi = mid - 1;
    }
    return { offset: o, line: lo + 1, column: o - this.lineStarts[lo]! + 1 };
  }

  span(startOffset: number, endOffset: number): Span {
    return { file: this.file, start: this.position(startOffset), end: this.position(endOffset) };
  }

  /** The text of line `line` (1-based) without its line break. */
  lineText(line: number): string {
    const start = this.lineStarts[line - 1];
    if (start === undefined) return "";
    const next = this.lineStarts[line];
    return this.text.slice(start, next === undefined ? this.text.length : next).replace(/\r?\n$|\r$/, "");
  }

  get lineCount(): number {
    return this.lineStarts.length;
  }
}

/** A span covering both a and b (a must start first). */
export function joinSpans(a: Span, b: Span): Span {
  return { file: a.file, start: a.start, end: b.end };
}
