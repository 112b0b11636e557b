/**
 * Every syntax diagnostic (G1xxx), declared once: code, slug, message template, hint. Call sites use the
 * typed builders in `syntax` (e.g. `syntax.expectedToken(span, { expected, found, context })`).
 *
 * Chevrotain's own error messages are never shown: `errorMessageProvider` below encodes what the parser
 * knew (expected token labels, the rule it was in) as JSON, and grammar/report.ts turns that into one of
 * these diagnostics.
 */
import type { IParserErrorMessageProvider, IToken, TokenType } from "chevrotain";
import type { Diagnostic } from "./diagnostic.ts";
import type { Span } from "./span.ts";

interface SyntaxErrorDef<P extends string> {
  code: string;
  slug: string;
  /** `{param}` placeholders are filled from the call's arguments */
  message: string;
  hint: string;
  params: readonly P[];
  /** text under the carets (same placeholders); a call site may pass a more precise one */
  label: string;
}

function def<const P extends string>(
  code: string,
  slug: string,
  message: string,
  hint: string,
  params: readonly P[],
  label = "",
): SyntaxErrorDef<P> {
  return { code, slug, message, hint, params, label };
}

/** The G1xxx table. Keep codes stable: tests and docs refer to them. */
export const SYNTAX_ERRORS = {
  unexpectedCharacter: def(
    "G1001",
    "unexpected-character",
    "unexpected character {char}",
    "identifiers use ASCII letters, digits and `_`; strings use \"…\" or '…'; members are separated by newlines or commas",
    ["char"],
    "not part of the language",
  ),
  unterminatedString: def(
    "G1002",
    "unterminated-string",
    "unterminated string",
    "close the string with the same quote on the same line; write a line break as \\n",
    [],
    "no closing quote on this line",
  ),
  unterminatedComment: def(
    "G1003",
    "unterminated-comment",
    "unterminated block comment",
    "close the comment with `*/`",
    [],
    "comment starts here",
  ),
  invalidEscape: def(
    "G1004",
    "invalid-escape",
    "unknown escape sequence `{escape}` in string",
    "valid escapes are \\n \\r \\t \\b \\f \\v \\0 \\\\ \\\" \\' \\uXXXX and \\u{X…}; write a backslash as \\\\",
    ["escape"],
    "unknown escape",
  ),
  invalidDuration: def(
    "G1005",
    "invalid-duration",
    "unknown duration unit `{unit}` in `{raw}`",
    "a duration is a number followed by ms, s, m or h, e.g. `500ms`, `0.5s`, `5m`, `1h`",
    ["unit", "raw"],
    "unknown unit",
  ),
  tooDeep: def(
    "G1006",
    "nesting-too-deep",
    "nesting deeper than {max} levels",
    "flatten the expression or type; the nested part is skipped",
    ["max"],
    "too deeply nested",
  ),
  treeTooDeep: def(
    "G1007",
    "expression-too-deep",
    "{what} nests deeper than {max} levels",
    "split it: name a part with a `type` alias or compute it in a node function; the rest of the {what} is skipped",
    ["what", "max"],
    "the limit is crossed here",
  ),
  expectedToken: def(
    "G1010",
    "expected-token",
    "expected {expected} in {context}, found {found}",
    "add {expected} here, or see docs/language.md for the syntax of {context}",
    ["expected", "found", "context"],
    "expected {expected}",
  ),
  unexpectedToken: def(
    "G1011",
    "unexpected-token",
    "unexpected {found} in {context}; expected {expected}",
    "see docs/language.md for the syntax of {context}",
    ["expected", "found", "context"],
    "unexpected here",
  ),
  unexpectedTopLevel: def(
    "G1012",
    "unexpected-top-level",
    "unexpected {found} at the top level of the file",
    "a file holds only `import`, `type` and `graph` declarations; graph members go inside `graph Name { … }`",
    ["found"],
    "outside any graph",
  ),
  reservedWord: def(
    "G1013",
    "reserved-word",
    "`{word}` is a reserved word and cannot be used as a name here",
    "reserved words: graph in out true false null START END; choose another name",
    ["word"],
    "reserved word",
  ),
  missingSeparator: def(
    "G1020",
    "missing-separator",
    "missing ',' or line break between {what}",
    "put each member on its own line or separate them with commas",
    ["what"],
    "expected ',' or a line break before this",
  ),
  branchNotLast: def(
    "G1021",
    "branch-not-last",
    "an edge cannot continue after {branch}",
    "`route(…)`, `send(…)` and a condition block end the edge; start a new edge from their targets",
    ["branch"],
    "the edge ended at the branch",
  ),
  duplicateClause: def("G1022", "duplicate-clause", "duplicate {what}", "write {what} once", ["what"]),
  wrongMapArrow: def(
    "G1023",
    "wrong-map-arrow",
    "`{arrow}` is not allowed in an `{dir}` mapping",
    "`in { child <- parentExpr }` maps into the subgraph; `out { child -> parentField }` maps back",
    ["arrow", "dir"],
    "wrong arrow for `{dir}`",
  ),
  strayBrace: def(
    "G1024",
    "stray-brace",
    "unexpected '}': the graph goes on after it",
    "a `{` is missing before it (a condition block after `->`, an object value, an option block); the lines after it are read as the graph's members",
    [],
    "no block is open here",
  ),
  /** not a syntax error: parse() caught an exception of its own (a bug); G9xxx is the internal band */
  internalParserError: def(
    "G9100",
    "internal-parser-error",
    "internal parser error: {detail}",
    "this is a bug in graphc; please report it together with the file",
    ["detail"],
  ),
} as const;

type Table = typeof SYNTAX_ERRORS;
type ParamsOf<D> = D extends SyntaxErrorDef<infer P> ? P : never;
type Builder<D> = [ParamsOf<D>] extends [never]
  ? (span: Span, args?: Record<string, never>, label?: string) => Diagnostic
  : (span: Span, args: Record<ParamsOf<D>, string>, label?: string) => Diagnostic;

function fill(template: string, args: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => args[k] ?? m);
}

function builder(d: SyntaxErrorDef<string>) {
  return (span: Span, args: Record<string, string> = {}, label?: string): Diagnostic => {
    const diag: Diagnostic = {
      code: d.code,
      severity: "error",
      message: fill(d.message, args),
      span,
      related: [],
      hint: fill(d.hint, args),
    };
    const text = label ?? fill(d.label, args);
    if (text) diag.label = text;
    return diag;
  };
}

/** Typed diagnostic builders, one per table entry. */
export const syntax = Object.fromEntries(
  Object.entries(SYNTAX_ERRORS).map(([k, d]) => [k, builder(d as SyntaxErrorDef<string>)]),
) as { [K in keyof Table]: Builder<Table[K]> };

// ------------------------------------------------------------ chevrotain bridge

/** What the parser knew when it failed; produced by errorMessageProvider, read by grammar/index.ts. */
export interface EncodedParseError {
  /** expected token labels (deduplicated, in grammar order), or one custom description */
  expected: string[];
  rule: string;
}

function labelOf(t: TokenType): string {
  return t.LABEL ?? t.name;
}

function firstTokens(paths: TokenType[][][] | TokenType[][]): string[] {
  const out = new Set<string>();
  for (const p of paths) {
    const seqs = (Array.isArray(p[0]) ? p : [p]) as TokenType[][];
    for (const seq of seqs) {
      const first = seq[0];
      if (first) out.add(labelOf(first));
    }
  }
  return [...out];
}

function encode(expected: string[], ruleName: string): string {
  return JSON.stringify({ expected, rule: ruleName } satisfies EncodedParseError);
}

export const errorMessageProvider: IParserErrorMessageProvider = {
  buildMismatchTokenMessage({ expected, ruleName }) {
    return encode([labelOf(expected)], ruleName);
  },
  buildNotAllInputParsedMessage({ ruleName }) {
    return encode([], ruleName);
  },
  buildNoViableAltMessage({ expectedPathsPerAlt, customUserDescription, ruleName }) {
    return encode(customUserDescription ? [customUserDescription] : firstTokens(expectedPathsPerAlt), ruleName);
  },
  buildEarlyExitMessage({ expectedIterationPaths, customUserDescription, ruleName }) {
    return encode(customUserDescription ? [customUserDescription] : firstTokens(expectedIterationPaths), ruleName);
  },
};

export function decodeParseError(message: string): EncodedParseError {
  try {
    const v = JSON.parse(message) as EncodedParseError;
    if (Array.isArray(v.expected) && typeof v.rule === "string") return v;
  } catch {
    // fall through: a message we did not encode
  }
  return { expected: [], rule: "" };
}

/** `a`, `a or b`, `a, b or c` */
export function joinAlternatives(labels: string[]): string {
  if (labels.length <= 1) return labels[0] ?? "something else";
  return `${labels.slice(0, -1).join(", ")} or ${labels[labels.length - 1]}`;
}

/** How a found token is named in a message: `identifier \`serch\``, `'->'`, `end of file`. */
export function describeToken(t: IToken): string {
  const type = t.tokenType;
  if (type.name === "EOF") return "end of file";
  const label = labelOf(type);
  if (label === "identifier" || label === "number" || label === "duration" || label === "string") {
    const shown = t.image.length > 30 ? t.image.slice(0, 27) + "…" : t.image;
    return `${label} \`${shown}\``;
  }
  return label;
}

/** Human phrase for the innermost grammar rule, used as `{context}`. */
const RULE_CONTEXT: Record<string, string> = {
  file: "the file",
  topItem: "the file",
  importDecl: "an import",
  importName: "an import",
  typeAlias: "a type alias",
  graphDecl: "a graph declaration",
  interfaceDecl: "an interface declaration",
  graphBody: "a graph body",
  graphMember: "a graph body",
  stateBlock: "the `state` block",
  schemaBlock: "an `input`/`output` block",
  privateBlock: "a `private` block",
  varsBlock: "the `vars` block",
  limitsBlock: "the `limits` block",
  metaBlock: "the `meta` block",
  interruptDecl: "an `interrupt` declaration",
  nodeDecl: "a node declaration",
  schemaRef: "a node's reads or writes",
  nameList: "a name list",
  optionBlock: "an option block",
  optionEntry: "an option",
  optionValue: "an option",
  bareOptionValue: "an option",
  tuple: "a tuple",
  subgraphDecl: "a subgraph declaration",
  subgraphBody: "a subgraph body",
  mapping: "a subgraph mapping",
  mapEntry: "a subgraph mapping",
  edgeStmt: "an edge",
  endpoints: "an edge",
  branch: "an edge branch",
  routeCase: "a route case",
  conditionCase: "a condition case",
};

/** rules that only describe a piece of a bigger construct; the context is taken from their parent */
const TRANSPARENT = new Set(["fieldBlock", "field", "nameList", "endpoints", "graphMember", "topItem"]);

export function ruleContext(ruleStack: string[]): string {
  for (let i = ruleStack.length - 1; i >= 0; i--) {
    const r = ruleStack[i]!;
    if (r === "field") return fieldContext(ruleStack.slice(0, i));
    if (TRANSPARENT.has(r) && i > 0) continue;
    if (/Type$|^typeExpr$|objectTypeMember/.test(r)) return "a type";
    if (/Expr$|^literal$|^objectEntry$/.test(r)) return "an expression";
    const c = RULE_CONTEXT[r];
    if (c) return c;
  }
  return "the file";
}

function fieldContext(outer: string[]): string {
  const parent = [...outer].reverse().find((r) => r.endsWith("Block") && r !== "fieldBlock");
  return parent ? `a field of ${RULE_CONTEXT[parent] ?? "a block"}` : "a field";
}
