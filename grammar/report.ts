/**
 * Turning what the lexer and parser found into G1xxx diagnostics: chevrotain's recognition exceptions
 * become our own wording (token labels, the construct being parsed, "the end of the line"), lexical
 * problems get their codes, and cascades are filtered so one mistake gives one diagnostic.
 */
import type { IRecognitionException, IToken } from "chevrotain";
import { EOF } from "./chevrotain.ts";
import type { Diagnostic } from "./diagnostic.ts";
import { decodeParseError, describeToken, joinAlternatives, ruleContext, syntax } from "./parse-errors.ts";
import type { LineMap } from "./span.ts";
import { isReservedWord, type LexProblem } from "./tokens.ts";

const CLOSERS = new Set(["'}'", "']'", "')'"]);

/** what an item of the list in each rule is called (for "expected a field or '}'") */
const LIST_ITEMS: Record<string, string> = {
  graphBody: "a graph member",
  fieldBlock: "a field",
  optionBlock: "an option",
  importDecl: "a name to import",
  schemaRef: "a field name",
  nameList: "a node name",
  tuple: "a field name",
  subgraphBody: "`in`, `out` or an option",
  mapping: "a mapping `child`, `child <- expr` or `child -> field`",
  branch: "a case",
  primaryType: "a member `name: Type`",
  primaryExpr: "an expression",
};

/** tokens after which a word is plainly meant as a name (`true: boolean`, `node END()`) */
const NAME_FOLLOWERS = new Set([":", "(", "?"]);

export function lexDiagnostic(map: LineMap, p: LexProblem): Diagnostic {
  const span = map.span(p.start, p.end);
  switch (p.kind) {
    case "unexpectedCharacter":
      return syntax.unexpectedCharacter(span, { char: showChars(p.text) });
    case "unterminatedString":
      return syntax.unterminatedString(span);
    case "unterminatedComment":
      return syntax.unterminatedComment(map.span(p.start, p.start + 2));
    case "invalidEscape":
      return syntax.invalidEscape(span, { escape: p.escape });
    case "tooDeep":
      return syntax.tooDeep(map.span(p.start, Math.min(p.end, p.start + 1)), { max: String(p.max) });
    case "invalidDuration":
      return syntax.invalidDuration(span, { unit: p.unit, raw: p.raw });
  }
}

/** `` `;` `` or, for invisible / control characters, their code points */
function showChars(text: string): string {
  const shown = text.length > 12 ? text.slice(0, 12) + "…" : text;
  if (/^[\x21-\x7e\u00a1-\uffff…]+$/.test(shown) && !/[\u2000-\u200f\u2028-\u202f\ufff0-\uffff]/.test(shown))
    return `\`${shown}\``;
  return (
    [...text.slice(0, 4)].map((c) => "U+" + c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")).join(" ") +
    (text.length > 4 ? " …" : "")
  );
}

/** `tokens` is the token vector parsed; `indexOf` maps a token to its position in it */
export function recognitionDiagnostic(
  map: LineMap,
  e: IRecognitionException,
  tokens: IToken[],
  indexOf: (t: IToken) => number,
): Diagnostic {
  const info = decodeParseError(e.message);
  const context = ruleContext(e.context.ruleStack);
  const found = e.token;
  const isEof = found.tokenType === EOF || !Number.isFinite(found.startOffset);
  const prev = (e as IRecognitionException & { previousToken?: IToken }).previousToken;
  const prevEnd = prev && Number.isFinite(prev.startOffset) ? prev.startOffset + prev.image.length : undefined;
  const lastEnd =
    tokens.length > 0 ? tokens[tokens.length - 1]!.startOffset + tokens[tokens.length - 1]!.image.length : 0;

  if (info.rule === "file") {
    // something that cannot start an import, type or graph: one diagnostic for the whole stray run
    const stray = [found, ...e.resyncedTokens].filter((t) => Number.isFinite(t.startOffset) && t.tokenType !== EOF);
    const last = stray[stray.length - 1];
    if (!last) return syntax.unexpectedTopLevel(map.span(lastEnd, lastEnd), { found: describeToken(found) });
    return syntax.unexpectedTopLevel(map.span(stray[0]!.startOffset, last.startOffset + last.image.length), {
      found: describeToken(found),
    });
  }
  const next = tokens[indexOf(found) + 1];
  const usedAsName = info.expected.includes("identifier") || (next !== undefined && NAME_FOLLOWERS.has(next.image));
  if (!isEof && usedAsName && isReservedWord(found.image)) {
    return syntax.reservedWord(map.span(found.startOffset, found.startOffset + found.image.length), {
      word: found.image,
    });
  }
  const args = { expected: joinAlternatives(info.expected), found: describeToken(found), context };
  // a single expected token (including the one-alternative `trailingName` choice) reads as "expected X"
  const single =
    info.expected.length === 1 && (info.expected[0] === "identifier" || info.expected[0] === "a node name");
  if (e.name === "MismatchedTokenException" || single) {
    // a token missing at the end of a line is reported right after the previous token, not on the next line
    const at = isEof ? (prevEnd ?? lastEnd) : found.startOffset;
    const onLaterLine = prevEnd !== undefined && map.position(at).line > map.position(prevEnd).line;
    if (isEof || onLaterLine) {
      const eolArgs = isEof ? args : { ...args, found: "the end of the line" };
      return syntax.expectedToken(map.span(prevEnd ?? at, prevEnd ?? at), eolArgs, `expected ${args.expected} here`);
    }
    // a list that expected its closing bracket met something that cannot start an item
    const closer = info.expected.length === 1 && CLOSERS.has(info.expected[0]!);
    if (closer && LIST_ITEMS[info.rule]) {
      const listArgs = { ...args, expected: `${LIST_ITEMS[info.rule]} or ${info.expected[0]}` };
      return syntax.unexpectedToken(map.span(found.startOffset, found.startOffset + found.image.length), listArgs);
    }
    return syntax.expectedToken(map.span(found.startOffset, found.startOffset + found.image.length), args);
  }
  // nothing fits after the end of a line: say what was expected there rather than blame the next line
  if (isEof || (prevEnd !== undefined && map.position(found.startOffset).line > map.position(prevEnd).line)) {
    const at = prevEnd ?? lastEnd;
    const eolArgs = isEof ? args : { ...args, found: "the end of the line" };
    return syntax.expectedToken(map.span(at, at), eolArgs, `expected ${args.expected} here`);
  }
  return syntax.unexpectedToken(map.span(found.startOffset, found.startOffset + found.image.length), args);
}

/**
 * Cascade control, so one mistake gives one diagnostic:
 * - a line with a bad character or an unterminated string reports only that (what the parser makes of
 *   the rest of that line is noise), and a token the lexer complained about is not reported again;
 * - at most one parse error per line (recovery may stumble twice over the same mistake);
 * - structural checks (separators …) stay quiet on lines that already have a parse error.
 */
export function quieten(
  problems: LexProblem[],
  map: LineMap,
  parseDiagnostics: Diagnostic[],
  astDiagnostics: Diagnostic[],
): Diagnostic[] {
  const noisyLines = new Set(
    problems
      .filter((p) => p.kind === "unexpectedCharacter" || p.kind === "unterminatedString" || p.kind === "tooDeep")
      .map((p) => map.position(p.start).line),
  );
  const lexStarts = new Set(problems.map((p) => p.start));
  const errorLines = new Set<number>();
  const out: Diagnostic[] = [];
  for (const d of [...parseDiagnostics].sort((a, b) => a.span.start.offset - b.span.start.offset)) {
    const line = d.span.start.line;
    if (noisyLines.has(line) || errorLines.has(line) || lexStarts.has(d.span.start.offset)) continue;
    errorLines.add(line);
    out.push(d);
  }
  for (const d of astDiagnostics) {
    if (!noisyLines.has(d.span.start.line) && !errorLines.has(d.span.start.line)) out.push(d);
  }
  return out;
}
