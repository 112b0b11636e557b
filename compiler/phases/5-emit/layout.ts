/**
 * The layout of generated files too big for prettier: every line of the emitters' text re-indented by its
 * bracket depth (two spaces a level), trailing spaces dropped — in one linear pass, so it costs
 * milliseconds where prettier costs minutes (32,000 state fields: about 20 MB of code). Lines stay as the
 * emitters wrote them, so the text is deterministic and the marker lines (format.ts) still map every line.
 *
 * Only leading whitespace of lines that start in code changes: a line that starts inside a string,
 * template literal or block comment is kept as it is (JSDoc `*` lines are re-aligned, which changes no
 * comment text), so the program means exactly what the emitters wrote.
 */

/** Raw generated text at or below this size is formatted by prettier (where it pays: files people read). */
export const PRETTIER_MAX_CHARS = 200_000;
/**
 * …and with no line longer than this: prettier overflows the stack on one long expression (the input
 * check of a union of 4,000 literals, 75,000 characters on one line; 1,000 members, 19,000, still pass).
 */
export const PRETTIER_MAX_LINE = 20_000;

/** Does prettier pay (and manage) for this raw text? Decided from the text alone, so the output is deterministic. */
export function prettierPays(text: string): boolean {
  if (text.length > PRETTIER_MAX_CHARS) return false;
  for (let start = 0; start < text.length; ) {
    const end = text.indexOf("\n", start);
    const stop = end < 0 ? text.length : end;
    if (stop - start > PRETTIER_MAX_LINE) return false;
    start = stop + 1;
  }
  return true;
}

const OPEN = new Set(["{", "[", "("]);
const CLOSE = new Set(["}", "]", ")"]);
/** after one of these (or at the start), `/` starts a regular expression rather than a division */
const BEFORE_REGEX = new Set(["", "(", ",", "=", ":", "[", "!", "&", "|", "?", "{", "}", ";", "+", "-", "*", "%", "<", ">", "~", "^"]);

type State = "code" | "line-comment" | "block-comment" | "string" | "template" | "regex";

/** an open bracket: the indent of the line it opened on; `caseBody` while a `case x:` label's statements run */
interface Open {
  readonly indent: number;
  caseBody: boolean;
}

export function reindent(text: string): string {
  const out: string[] = [];
  const open: Open[] = [];
  let state: State = "code";
  let quote = "";
  // template literals nest through `${ … }`: the bracket count at which each open `${` returns to its template
  const templates: number[] = [];
  let lastSignificant = "";
  let lineStart = 0;
  // the state where the line being scanned began, and its indent once known
  let stateAtLineStart: State = "code";
  let indent = 0;
  const startLine = (at: number): void => {
    const line = text.slice(at, text.indexOf("\n", at) < 0 ? text.length : text.indexOf("\n", at)).trim();
    const top = open[open.length - 1];
    if (!top) indent = 0;
    else if (CLOSE.has(line[0] ?? "")) indent = top.indent;
    else {
      const label = /^(case\b|default\s*:)/.test(line);
      if (label) top.caseBody = false;
      indent = top.indent + (top.caseBody ? 2 : 1);
      if (label && line.endsWith(":")) top.caseBody = true;
    }
  };
  startLine(0);
  for (let i = 0; i <= text.length; i++) {
    if (i === text.length || text[i] === "\n") {
      if (state === "line-comment") state = "code";
      const line = text.slice(lineStart, i);
      const trimmed = line.trim();
      if (stateAtLineStart === "code") out.push(trimmed === "" ? "" : "  ".repeat(indent) + trimmed);
      else if (stateAtLineStart === "block-comment" && trimmed.startsWith("*")) out.push(`${"  ".repeat(indent)} ${trimmed}`);
      else out.push(line);
      lineStart = i + 1;
      stateAtLineStart = state;
      if (i < text.length) startLine(lineStart);
      continue;
    }
    const c = text[i]!;
    const next = text[i + 1];
    switch (state) {
      case "line-comment":
        break;
      case "block-comment":
        if (c === "*" && next === "/") {
          state = "code";
          i++;
        }
        break;
      case "string":
      case "regex":
        if (c === "\\") i++;
        else if (c === quote) state = "code";
        else if (state === "regex" && c === "[") {
          // a class may hold an unescaped `/`
          for (i++; i < text.length && text[i] !== "]" && text[i] !== "\n"; i++) if (text[i] === "\\") i++;
        }
        break;
      case "template":
        if (c === "\\") i++;
        else if (c === "`") state = "code";
        else if (c === "$" && next === "{") {
          templates.push(open.length);
          open.push({ indent, caseBody: false });
          state = "code";
          i++;
        }
        break;
      case "code":
        if (c === "/" && next === "/") state = "line-comment";
        else if (c === "/" && next === "*") {
          state = "block-comment";
          i++;
        } else if (c === '"' || c === "'") {
          state = "string";
          quote = c;
        } else if (c === "`") state = "template";
        else if (c === "/" && BEFORE_REGEX.has(lastSignificant)) {
          state = "regex";
          quote = "/";
        } else if (OPEN.has(c)) open.push({ indent, caseBody: false });
        else if (CLOSE.has(c)) {
          open.pop();
          if (c === "}" && templates.length > 0 && templates[templates.length - 1] === open.length) {
            templates.pop();
            state = "template";
          }
        }
        if (c !== " " && c !== "\t") lastSignificant = state === "code" ? c : "x";
        break;
    }
  }
  return out.join("\n");
}
