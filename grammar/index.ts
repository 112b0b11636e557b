/**
 * `parse(text, file)`: .graph source → AST + syntax diagnostics (G1xxx). Never throws.
 *
 * Pipeline: lex (tokens.ts) → parse with recovery (parser.ts) → CST to AST (to-ast.ts). When the parser
 * stops at something that cannot start a top-level item, the stray tokens are reported once and parsing
 * resumes at the next `graph` / `import` / `type`, so independent errors later in the file are still found.
 */
import type { IToken } from "chevrotain";
import type { Comment, GraphFile, TopItem } from "./ast.ts";
import type { Diagnostic } from "./diagnostic.ts";
import { describeToken, syntax, SYNTAX_ERRORS } from "./parse-errors.ts";
import { parser } from "./parser.ts";
import { lexDiagnostic, quieten, recognitionDiagnostic } from "./report.ts";
import { LineMap } from "./span.ts";
import { AstBuilder } from "./to-ast.ts";
import { BlockComment, KW, lex } from "./tokens.ts";
import { appendAll } from "./append.ts";

export type * from "./ast.ts";
export type { Diagnostic, RelatedLocation } from "./diagnostic.ts";
export type { Position, Span } from "./span.ts";
export { START, END } from "./ast.ts";
export { LineMap, joinSpans } from "./span.ts";
export { SYNTAX_ERRORS };

export interface ParseResult {
  ast: GraphFile;
  diagnostics: Diagnostic[];
}

export function parse(text: string, file: string): ParseResult {
  const map = new LineMap(file, text);
  const diagnostics: Diagnostic[] = [];
  const items: TopItem[] = [];
  let comments: Comment[] = [];
  try {
    const lexed = lex(text);
    const lexDiagnostics = lexed.problems.map((p) => lexDiagnostic(map, p));
    comments = lexed.comments.map((c) => ({
      kind: "Comment",
      style: c.tokenType === BlockComment ? "block" : "line",
      text: c.image,
      span: map.span(c.startOffset, c.startOffset + c.image.length),
    }));
    const astDiagnostics: Diagnostic[] = [];
    const builder = new AstBuilder(map, astDiagnostics);
    const parseDiagnostics: Diagnostic[] = [];
    let tokens = lexed.tokens;
    while (true) {
      parser.setInput(tokens, text);
      const cst = parser.file();
      let rest: IToken[] | undefined;
      let positions: Map<IToken, number> | undefined;
      const indexOf = (t: IToken): number => (positions ??= new Map(tokens.map((x, i) => [x, i]))).get(t) ?? -1;
      for (const e of parser.errors) {
        if (e.name === "NotAllInputParsedException") {
          rest = skipToTopLevel(tokens, e.token);
          const stray = tokens.slice(tokens.indexOf(e.token), tokens.length - rest.length);
          const last = stray[stray.length - 1] ?? e.token;
          parseDiagnostics.push(
            syntax.unexpectedTopLevel(map.span(e.token.startOffset, last.startOffset + last.image.length), {
              found: describeToken(e.token),
            }),
          );
        } else {
          parseDiagnostics.push(recognitionDiagnostic(map, e, tokens, indexOf));
        }
      }
      appendAll(items, builder.file(cst));
      if (!rest || rest.length === 0) break;
      tokens = rest;
    }
    appendAll(diagnostics, lexDiagnostics);
    appendAll(diagnostics, quieten(lexed.problems, map, parseDiagnostics, astDiagnostics));
  } catch (err) {
    // a bug in the parser must not take the compiler down: report it where the user can see it
    diagnostics.push(
      syntax.internalParserError(map.span(0, 0), { detail: err instanceof Error ? err.message : String(err) }),
    );
  }
  diagnostics.sort((a, b) => a.span.start.offset - b.span.start.offset);
  return {
    ast: { kind: "File", file, items, comments, span: map.span(0, text.length) },
    diagnostics,
  };
}

/** tokens from the first top-level keyword after `from` (always making progress past `from`) */
function skipToTopLevel(tokens: IToken[], from: IToken): IToken[] {
  const start = tokens.indexOf(from);
  for (let i = start + 1; i < tokens.length; i++) {
    const t = tokens[i]!.tokenType;
    if (t === KW.graph || t === KW.import || t === KW.type) return tokens.slice(i);
  }
  return [];
}
