/**
 * The "members are separated by newlines or commas" rule. The grammar treats newlines as whitespace and
 * commas as optional, so `a -> b c -> d` parses as two edges; this check then reports the missing
 * separator (G1020). Decided here rather than in the lexer so no rule has to deal with newline tokens.
 */

/** true when the source between two items holds a comma or a line break (comments count as space). */
export function hasSeparator(text: string, from: number, to: number): boolean {
  let i = from;
  while (i < to) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13 || c === 44 /* , */) return true;
    if (c === 47 /* / */ && text.charCodeAt(i + 1) === 47) return true; // a line comment ends at a line break
    if (c === 47 && text.charCodeAt(i + 1) === 42 /* * */) {
      const close = text.indexOf("*/", i + 2);
      const end = close < 0 ? to : close + 2;
      if (/[\r\n]/.test(text.slice(i, end))) return true;
      i = end;
      continue;
    }
    if (c !== 32 && c !== 9 && c !== 12 && c !== 11 && c !== 0xfeff && c !== 0xa0) {
      // something the parser skipped during recovery: that error is already reported
      return true;
    }
    i++;
  }
  return false;
}

/** Offsets [start, end) of the items of one list, in source order. */
export interface ItemRange {
  start: number;
  end: number;
  /** the item starts with a keyword that can only begin an item (`node`, `in`, `_` …) */
  keywordLed?: boolean;
}

/**
 * Calls `report(prevEnd, nextStart)` for each pair of neighbours without a separator. The separator may
 * be left out where the boundary cannot be misread: after an item ending in `}` and before a
 * keyword-led item (`in { a } out { b }`, `in = f  out = g`, `state { … } node n() = f`).
 */
export function checkSeparated(
  text: string,
  items: ItemRange[],
  report: (prevEnd: number, nextStart: number) => void,
): void {
  for (let i = 1; i < items.length; i++) {
    const prev = items[i - 1]!;
    const next = items[i]!;
    if (prev.end > next.start || next.keywordLed || text.charCodeAt(prev.end - 1) === 125 /* } */) continue;
    if (!hasSeparator(text, prev.end, next.start)) report(prev.end, next.start);
  }
}
