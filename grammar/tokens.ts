/**
 * The .graph lexer (chevrotain). Decisions (also in docs/language.md §10–§11):
 * - Newlines are whitespace. Member separation ("newline or comma") is enforced after parsing by
 *   grammar/separators.ts, so the grammar itself only has optional commas.
 * - Identifiers are ASCII: `[A-Za-z_][A-Za-z0-9_]*`. `_` alone is the default-case token.
 * - Most keywords are *soft*: they are in the `Name` category and may be used as field / node names
 *   (`state { type: string, output: string }`). Hard (reserved) words: graph in out true false null START END.
 * - Strings and durations are matched leniently (unterminated strings, unknown duration units) so the
 *   parser keeps going; `lex()` reports those problems separately.
 * - Comments go to the "comments" group (kept for the formatter, invisible to the parser).
 */
import type { IToken, TokenType } from "chevrotain";
import { createToken, Lexer } from "./chevrotain.ts";

/** Everything that can name a thing: identifiers and soft keywords. */
export const Name = createToken({ name: "Name", pattern: Lexer.NA, label: "identifier" });
/** Names allowed as edge endpoints: Name plus START / END. */
export const EndpointName = createToken({ name: "EndpointName", pattern: Lexer.NA, label: "node name" });
Name.CATEGORIES = [EndpointName];

export const Identifier = createToken({
  name: "Identifier",
  pattern: /[A-Za-z_][A-Za-z0-9_]*/,
  categories: [Name, EndpointName],
  label: "identifier",
});

/** soft keywords: keywords in their construct, names everywhere else */
// prettier-ignore
const SOFT_WORDS = [
  "state", "input", "output", "private", "vars", "limits", "interrupt", "before", "after", "node",
  "subgraph", "from", "as", "import", "type", "reduce", "ephemeral", "goto", "route", "send", "meta",
  "interface", "implements",
] as const;
/** reserved words: never names (START/END are endpoint names only) */
const HARD_WORDS = ["graph", "in", "out", "true", "false", "null"] as const;
const ENDPOINT_WORDS = ["START", "END"] as const;

type Word = (typeof SOFT_WORDS)[number] | (typeof HARD_WORDS)[number] | (typeof ENDPOINT_WORDS)[number];

function keyword(word: Word, categories: TokenType[]): TokenType {
  const tokenName = "Kw_" + word;
  return createToken({ name: tokenName, pattern: word, longer_alt: Identifier, categories, label: `'${word}'` });
}

export const KW = {} as Record<Word, TokenType>;
for (const w of SOFT_WORDS) KW[w] = keyword(w, [Name, EndpointName]);
for (const w of HARD_WORDS) KW[w] = keyword(w, []);
for (const w of ENDPOINT_WORDS) KW[w] = keyword(w, [EndpointName]);

/** true for keywords that can never be a name (used for the "reserved word" diagnostic) */
export function isReservedWord(image: string): boolean {
  return (HARD_WORDS as readonly string[]).includes(image) || (ENDPOINT_WORDS as readonly string[]).includes(image);
}

export const Underscore = createToken({ name: "Underscore", pattern: "_", longer_alt: Identifier, label: "'_'" });

// A lenient string: the closing quote is optional so an unterminated string is still one token.
export const StringTok = createToken({
  name: "String",
  pattern: /"(?:[^"\\\r\n]|\\[^\r\n]?)*"?|'(?:[^'\\\r\n]|\\[^\r\n]?)*'?/,
  start_chars_hint: ['"', "'"],
  label: "string",
});

// Any digits followed by letters: `10s`, `500ms`; unknown units are reported by lex().
export const Duration = createToken({
  name: "Duration",
  pattern: /\d+(?:\.\d+)?[A-Za-z_][A-Za-z0-9_]*/,
  start_chars_hint: ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"],
  label: "duration",
});
export const NumberTok = createToken({
  name: "Number",
  pattern: /\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/,
  longer_alt: Duration,
  start_chars_hint: ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"],
  label: "number",
});

export const LineComment = createToken({ name: "LineComment", pattern: /\/\/[^\r\n]*/, group: "comments" });
/** `/* … *\/`; an unterminated comment runs to the end of the text (reported by lex()). */
function matchBlockComment(text: string, offset: number): RegExpExecArray | null {
  if (text.charCodeAt(offset) !== 47 || text.charCodeAt(offset + 1) !== 42) return null;
  const close = text.indexOf("*/", offset + 2);
  const m = [text.slice(offset, close < 0 ? text.length : close + 2)] as unknown as RegExpExecArray;
  return m;
}
export const BlockComment = createToken({
  name: "BlockComment",
  pattern: { exec: matchBlockComment },
  start_chars_hint: ["/"],
  line_breaks: true,
  group: "comments",
});
export const Whitespace = createToken({
  name: "Whitespace",
  pattern: /[ \t\r\n\f\v\uFEFF\u00A0]+/,
  group: Lexer.SKIPPED,
  line_breaks: true,
});

function punct(name: string, text: string): TokenType {
  return createToken({ name, pattern: text, label: `'${text}'` });
}
export const Arrow = punct("Arrow", "->");
export const LeftArrow = punct("LeftArrow", "<-");
export const FatArrow = punct("FatArrow", "=>");
export const EqEq = punct("EqEq", "==");
export const NotEq = punct("NotEq", "!=");
export const LtEq = punct("LtEq", "<=");
export const GtEq = punct("GtEq", ">=");
export const AndAnd = punct("AndAnd", "&&");
export const OrOr = punct("OrOr", "||");
export const Bang = punct("Bang", "!");
export const Question = punct("Question", "?");
export const Pipe = punct("Pipe", "|");
export const Lt = punct("Lt", "<");
export const Gt = punct("Gt", ">");
export const Eq = punct("Eq", "=");
export const Minus = punct("Minus", "-");
export const Comma = punct("Comma", ",");
export const Colon = punct("Colon", ":");
export const Dot = punct("Dot", ".");
export const LCurly = punct("LCurly", "{");
export const RCurly = punct("RCurly", "}");
export const LParen = punct("LParen", "(");
export const RParen = punct("RParen", ")");
export const LBracket = punct("LBracket", "[");
export const RBracket = punct("RBracket", "]");

// Longer keywords first so `in` never shadows `input` / `interrupt`.
const keywordTokens = Object.entries(KW)
  .sort(([a], [b]) => b.length - a.length)
  .map(([, t]) => t);

/** Lexer order matters: comments before punctuation, multi-char operators before their prefixes. */
export const allTokens: TokenType[] = [
  Whitespace,
  LineComment,
  BlockComment,
  StringTok,
  NumberTok,
  Duration,
  Arrow,
  LeftArrow,
  FatArrow,
  EqEq,
  NotEq,
  LtEq,
  GtEq,
  AndAnd,
  OrOr,
  Bang,
  Question,
  Pipe,
  Lt,
  Gt,
  Eq,
  Minus,
  Comma,
  Colon,
  Dot,
  LCurly,
  RCurly,
  LParen,
  RParen,
  LBracket,
  RBracket,
  ...keywordTokens,
  Underscore,
  Identifier,
  Name,
  EndpointName,
];

const lexer = new Lexer(allTokens, { positionTracking: "full", ensureOptimizations: false });

/** A lexical problem, turned into a G1xxx diagnostic by grammar/index.ts. Offsets: [start, end). */
export type LexProblem =
  | { kind: "tooDeep"; start: number; end: number; max: number }
  | { kind: "unexpectedCharacter"; start: number; end: number; text: string }
  | { kind: "unterminatedString"; start: number; end: number }
  | { kind: "unterminatedComment"; start: number; end: number }
  | { kind: "invalidEscape"; start: number; end: number; escape: string }
  | { kind: "invalidDuration"; start: number; end: number; raw: string; unit: string };

export interface LexResult {
  tokens: IToken[];
  comments: IToken[];
  problems: LexProblem[];
}

export const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Splits a duration token into number and unit; `ms` is undefined for an unknown unit. */
export function durationValue(raw: string): { ms: number | undefined; unit: string } {
  const m = /^(\d+(?:\.\d+)?)(.*)$/.exec(raw);
  const unit = m?.[2] ?? "";
  const factor = DURATION_UNITS[unit];
  return { ms: factor === undefined ? undefined : Number(m?.[1]) * factor, unit };
}

const SIMPLE_ESCAPES: Record<string, string> = {
  n: "\n",
  r: "\r",
  t: "\t",
  b: "\b",
  f: "\f",
  v: "\v",
  "0": "\0",
  "\\": "\\",
  '"': '"',
  "'": "'",
};

/**
 * Decodes a string token (quotes included). Escapes: \n \r \t \b \f \v \0 \\ \" \' \uXXXX \u{X…}.
 * Unknown escapes keep the character and are reported as `bad` (offsets relative to the token).
 */
export function decodeString(raw: string): {
  value: string;
  terminated: boolean;
  bad: { at: number; escape: string }[];
} {
  const quote = raw[0] ?? '"';
  const terminated = raw.length >= 2 && raw.endsWith(quote) && !endsWithEscapedQuote(raw);
  const body = raw.slice(1, terminated ? -1 : raw.length);
  let value = "";
  const bad: { at: number; escape: string }[] = [];
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== "\\") {
      value += c;
      continue;
    }
    const e = body[i + 1];
    if (e === undefined) {
      bad.push({ at: i + 1, escape: "\\" });
      break;
    }
    const simple = SIMPLE_ESCAPES[e];
    if (simple !== undefined) {
      value += simple;
      i++;
      continue;
    }
    if (e === "u") {
      const braced = /^\{([0-9a-fA-F]{1,6})\}/.exec(body.slice(i + 2));
      const plain = /^[0-9a-fA-F]{4}/.exec(body.slice(i + 2));
      const hex = braced?.[1] ?? plain?.[0];
      const cp = hex === undefined ? NaN : parseInt(hex, 16);
      if (!Number.isNaN(cp) && cp <= 0x10ffff) {
        value += String.fromCodePoint(cp);
        i += 1 + (braced ? braced[0].length : 4);
        continue;
      }
    }
    bad.push({ at: i + 1, escape: body.slice(i, i + 2) });
    value += e;
    i++;
  }
  return { value, terminated, bad };
}

/** `"abc\"` is unterminated: its last quote is escaped. */
function endsWithEscapedQuote(raw: string): boolean {
  let backslashes = 0;
  for (let i = raw.length - 2; i >= 1 && raw[i] === "\\"; i--) backslashes++;
  return backslashes % 2 === 1;
}

/** Tokenises `text`. Never throws; problems are returned, not raised. */
export function lex(text: string): LexResult {
  const r = lexer.tokenize(text);
  const problems: LexProblem[] = [];
  for (const e of r.errors) {
    problems.push({
      kind: "unexpectedCharacter",
      start: e.offset,
      end: e.offset + e.length,
      text: text.slice(e.offset, e.offset + e.length),
    });
  }
  for (const t of r.tokens) {
    const start = t.startOffset;
    const end = start + t.image.length;
    if (t.tokenType === StringTok) {
      const d = decodeString(t.image);
      if (!d.terminated) problems.push({ kind: "unterminatedString", start, end });
      for (const b of d.bad)
        problems.push({
          kind: "invalidEscape",
          start: start + b.at,
          end: start + b.at + b.escape.length,
          escape: b.escape,
        });
    } else if (t.tokenType === Duration) {
      const d = durationValue(t.image);
      if (d.ms === undefined) problems.push({ kind: "invalidDuration", start, end, raw: t.image, unit: d.unit });
    }
  }
  const comments = r.groups["comments"] ?? [];
  for (const c of comments) {
    if (c.tokenType === BlockComment && !(c.image.length >= 4 && c.image.endsWith("*/"))) {
      problems.push({ kind: "unterminatedComment", start: c.startOffset, end: c.startOffset + c.image.length });
    }
  }
  const tokens = limitNesting(r.tokens, problems);
  problems.sort((a, b) => a.start - b.start);
  return { tokens, comments, problems };
}

/**
 * Deepest nesting the parser is given: open brackets, type-argument `<…>` pairs and pending prefix
 * operators (`!`, `-`), which all recurse like brackets. 64 is far beyond any real file and keeps the
 * recursive-descent parser well inside the stack even when parse() is called from deep inside a host (an
 * editor, a test runner): the parser itself overflows at about 400 levels.
 */
export const MAX_NESTING = 64;

const OPENERS = new Set<TokenType>([LCurly, LBracket, LParen]);
const CLOSERS = new Set<TokenType>([RCurly, RBracket, RParen]);
const isPrefix = (t: IToken | undefined): boolean => t !== undefined && (t.tokenType === Bang || t.tokenType === Minus);
/** tokens that never occur inside type arguments: a `<` before one of them is a comparison */
const NOT_IN_TYPE_ARGS = new Set<TokenType>([Eq, FatArrow, Arrow, LeftArrow, OrOr, AndAnd, EqEq, NotEq, LtEq, GtEq, Bang, Minus, Dot]);

/**
 * Indices of the `<` and `>` tokens that pair up like brackets (type arguments, `Record<string, T>`): a `<`
 * pairs with the next unpaired `>` at the same bracket depth unless a token that cannot occur in type
 * arguments comes first. A comparison `a < b` stays unpaired (and costs no nesting); the rare `a < b > c`
 * pairs, which costs one level. Linear, so it adds nothing to the lexer's growth.
 */
function angleClosers(tokens: IToken[]): Map<number, number> {
  const partner = new Map<number, number>();
  const frames: number[][] = [[]];
  for (let i = 0; i < tokens.length; i++) {
    const type = tokens[i]!.tokenType;
    const open = frames[frames.length - 1]!;
    if (OPENERS.has(type)) frames.push([]);
    else if (CLOSERS.has(type)) {
      if (frames.length > 1) frames.pop();
      else open.length = 0;
    } else if (type === Lt) open.push(i);
    else if (type === Gt) {
      const j = open.pop();
      if (j !== undefined) partner.set(j, i).set(i, j);
    } else if (NOT_IN_TYPE_ARGS.has(type)) open.length = 0;
  }
  return partner;
}

/**
 * Tokens nested deeper than MAX_NESTING are dropped (a bracket with everything up to its closer, or the
 * rest of a run of prefix operators) and reported once per dropped run, so parse() stays total on any input.
 */
function limitNesting(tokens: IToken[], problems: LexProblem[]): IToken[] {
  const angles = angleClosers(tokens);
  const isOpener = (i: number): boolean => OPENERS.has(tokens[i]!.tokenType) || (angles.has(i) && tokens[i]!.tokenType === Lt);
  const isCloser = (i: number): boolean => CLOSERS.has(tokens[i]!.tokenType) || (angles.has(i) && tokens[i]!.tokenType === Gt);
  // prefix operators still waiting for their operand, per bracket depth
  const pending: number[] = [0];
  let cost = 0;
  let out: IToken[] | undefined;
  let lastDrop: { to: number; problem: LexProblem } | undefined;
  const drop = (from: number, to: number): void => {
    out ??= tokens.slice(0, from);
    const last = tokens[to]!;
    const end = last.startOffset + last.image.length;
    // one report for a dropped region, even when it is dropped in several pieces
    if (lastDrop && lastDrop.to === from - 1) {
      lastDrop.problem.end = end;
      lastDrop.to = to;
      return;
    }
    const problem: LexProblem = { kind: "tooDeep", start: tokens[from]!.startOffset, end, max: MAX_NESTING };
    problems.push(problem);
    lastDrop = { to, problem };
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (isOpener(i)) {
      if (cost + 1 > MAX_NESTING) {
        // skip to the matching closer (or the end)
        let j = angles.get(i) ?? i;
        if (j === i) {
          for (let d = 0; j < tokens.length; j++) {
            if (isOpener(j)) d++;
            else if (isCloser(j) && --d === 0) break;
          }
        }
        j = Math.min(j, tokens.length - 1);
        drop(i, j);
        i = j;
        continue;
      }
      pending.push(0);
      cost++;
    } else if (isCloser(i)) {
      if (pending.length > 1) cost -= 1 + pending.pop()!;
      cost -= pending[pending.length - 1]!;
      pending[pending.length - 1] = 0;
    } else if (isPrefix(t)) {
      if (cost + 1 > MAX_NESTING) {
        let j = i;
        while (isPrefix(tokens[j + 1])) j++;
        drop(i, j);
        i = j;
        continue;
      }
      pending[pending.length - 1]!++;
      cost++;
    } else {
      // an operand: the prefix operators at this depth have it now
      cost -= pending[pending.length - 1]!;
      pending[pending.length - 1] = 0;
    }
    out?.push(t);
  }
  return out ?? tokens;
}
