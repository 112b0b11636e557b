/**
 * A string literal as prettier prints it: double quotes unless the text holds more double quotes than
 * single ones, the enclosing quote escaped, the other one unescaped, other escapes kept as written
 * (prettier's makeString).
 */
export function printString(raw: string): string {
  const content = raw.slice(1, -1);
  let doubles = 0;
  let singles = 0;
  for (const ch of content) {
    if (ch === '"') doubles++;
    else if (ch === "'") singles++;
  }
  const enclosing = doubles > singles ? "'" : '"';
  const other = enclosing === '"' ? "'" : '"';
  const body = content.replace(/\\(.)|(["'])/gs, (match, escaped: string | undefined, quote: string | undefined) => {
    if (escaped === other) return escaped;
    if (quote === enclosing) return `\\${quote}`;
    if (quote) return quote;
    return /^[^\n\r"'0-7\\bfnrt-vx\u2028\u2029]$/.test(escaped!) ? escaped! : `\\${escaped}`;
  });
  return enclosing + body + enclosing;
}
