/**
 * The formatter's view of the original text: line lookups, blank-line detection and the set of comments
 * still to print. Every comment is printed exactly once; `take` hands each out a single time.
 */
import type { Comment } from "../../grammar/ast.ts";
import { LineMap } from "../../grammar/span.ts";

export class Source {
  readonly lines: LineMap;
  private readonly comments: readonly Comment[];
  private readonly printed: boolean[];

  constructor(
    readonly text: string,
    file: string,
    comments: readonly Comment[],
  ) {
    this.lines = new LineMap(file, text);
    this.comments = [...comments].sort((a, b) => a.span.start.offset - b.span.start.offset);
    this.printed = this.comments.map(() => false);
  }

  line(offset: number): number {
    return this.lines.position(offset).line;
  }

  /** Unprinted comments lying entirely in [from, to), in source order; they count as printed from now on. */
  take(from: number, to: number, filter: (c: Comment) => boolean = () => true): Comment[] {
    const out: Comment[] = [];
    for (let i = this.firstAtOrAfter(from); i < this.comments.length; i++) {
      const c = this.comments[i]!;
      if (c.span.start.offset >= to) break;
      if (this.printed[i] || c.span.end.offset > to || !filter(c)) continue;
      this.printed[i] = true;
      out.push(c);
    }
    return out;
  }

  /** Whether an unprinted comment lies in [from, to) — decides between inline and one-member-per-line layout. */
  hasComments(from: number, to: number): boolean {
    for (let i = this.firstAtOrAfter(from); i < this.comments.length; i++) {
      const c = this.comments[i]!;
      if (c.span.start.offset >= to) return false;
      if (!this.printed[i]) return true;
    }
    return false;
  }

  /** Comments never printed (the formatter's own safety check: must be empty at the end). */
  unprinted(): Comment[] {
    return this.comments.filter((_, i) => !this.printed[i]);
  }

  /** True when some whitespace-only line lies strictly between the line of `from` and the line of `to`. */
  blankLineBetween(from: number, to: number): boolean {
    const last = this.line(to);
    for (let l = this.line(from) + 1; l < last; l++) {
      if (this.lines.lineText(l).trim() === "") return true;
    }
    return false;
  }

  /**
   * Offset of the first `ch` at or after `from` that is not inside a comment (the AST has no spans for
   * braces). Returns -1 when there is none before `to`.
   */
  findChar(ch: string, from: number, to: number): number {
    let i = from;
    let ci = this.firstAtOrAfter(from);
    while (i < to) {
      const c = this.comments[ci];
      if (c && c.span.start.offset === i) {
        i = c.span.end.offset;
        ci++;
        continue;
      }
      if (this.text[i] === ch) return i;
      i++;
    }
    return -1;
  }

  private firstAtOrAfter(offset: number): number {
    let lo = 0;
    let hi = this.comments.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.comments[mid]!.span.start.offset < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
