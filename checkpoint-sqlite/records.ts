/**
 * The reader shared by the records kept in text columns of the SQLite layout (write-log.ts, row-blobs.ts):
 * tagged records of decimal lengths and numbers followed by the texts they measure. Every damage (a length
 * past the end, a number that is not one) is reported through `damaged` with the character where it is.
 */
export class RecordReader {
  at = 0;

  constructor(
    readonly text: string,
    /** the error for damage at `at`, described by `problem` */
    private readonly damaged: (problem: string) => Error,
  ) {}

  get done(): boolean {
    return this.at >= this.text.length;
  }

  /** the tag character at the reader's position, moving past it */
  tag(): string {
    return this.text[this.at++]!;
  }

  /** the integer from here up to `end` (a separator), moving past the separator */
  int(end: string): number {
    const stop = this.text.indexOf(end, this.at);
    const digits = stop < 0 ? "" : this.text.slice(this.at, stop);
    if (!/^-?\d{1,15}$/.test(digits)) throw this.fail("expected a number");
    this.at = stop + 1;
    return Number(digits);
  }

  /** the next `length` characters */
  take(length: number): string {
    if (length < 0 || this.at + length > this.text.length) throw this.fail("a length past the end");
    return this.text.slice(this.at, (this.at += length));
  }

  /** damage at `at` */
  fail(what: string, at = this.at): Error {
    return this.damaged(`are damaged at character ${at} (${what})`);
  }
}
