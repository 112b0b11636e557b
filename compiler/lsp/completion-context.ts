/**
 * Where the cursor is, for completion: read from the tokens before it (the lexer never fails, while the
 * text being typed rarely parses): the innermost unclosed bracket, what precedes it, and the last token.
 */
import type { IToken } from "chevrotain";
import { lex, StringTok } from "../../grammar/tokens.ts";

export type Context =
  | { readonly kind: "reducer" }
  | { readonly kind: "importNames"; readonly module: string | undefined }
  | { readonly kind: "fields" }
  | { readonly kind: "mapping"; readonly direction: "in" | "out"; readonly side: "child" | "parent" }
  | { readonly kind: "optionNames"; readonly block: "node" | "subgraph" | "retry" | "timeout" | "cache" | "limits" }
  | { readonly kind: "optionValue"; readonly option: string }
  | { readonly kind: "impl" }
  | { readonly kind: "graphTarget" }
  | { readonly kind: "fn" }
  | { readonly kind: "nodes"; readonly end: boolean; readonly start: boolean }
  | { readonly kind: "condition" }
  | { readonly kind: "type" }
  | { readonly kind: "none" };

const img = (t: IToken | undefined) => t?.image;
const OPENERS = new Set(["{", "(", "["]);
const CLOSERS = new Set(["}", ")", "]"]);
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function contextAt(text: string, offset: number): { context: Context; prefixStart: number } {
  const tokens = lex(text).tokens;
  let end = tokens.findIndex((t) => t.startOffset >= offset);
  if (end < 0) end = tokens.length;
  let prefixStart = offset;
  // the word being typed is not context
  const last = tokens[end - 1];
  if (last && NAME.test(last.image) && last.startOffset + last.image.length === offset) {
    prefixStart = last.startOffset;
    end--;
  }
  const before = tokens.slice(0, end);
  const prev = before[before.length - 1];
  const newLine = prev !== undefined && text.slice(prev.startOffset + prev.image.length, prefixStart).includes("\n");
  return { context: classify(before, tokens.slice(end), newLine), prefixStart };
}

function innermostOpener(t: readonly IToken[]): number {
  let depth = 0;
  for (let i = t.length - 1; i >= 0; i--) {
    const s = t[i]!.image;
    if (CLOSERS.has(s)) depth++;
    else if (OPENERS.has(s)) {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}

/** the statement keyword (`node`, `subgraph`, `interrupt`, `type`, `import`) nearest before `i` at the same depth */
function statementKeyword(t: readonly IToken[], i: number): string | undefined {
  let depth = 0;
  for (let j = i; j >= 0; j--) {
    const s = t[j]!.image;
    if (CLOSERS.has(s)) depth++;
    else if (OPENERS.has(s)) {
      if (depth === 0) return undefined;
      depth--;
    } else if (depth === 0 && ["node", "subgraph", "interrupt", "type", "import", "goto"].includes(s) && t[j]!.tokenType.name.startsWith("Kw_"))
      return s;
  }
  return undefined;
}

function classify(t: readonly IToken[], after: readonly IToken[], newLine: boolean): Context {
  const prev = img(t[t.length - 1]);
  const prev2 = img(t[t.length - 2]);
  const o = innermostOpener(t);
  const opener = img(t[o]);
  const beforeOpener = img(t[o - 1]);
  if (prev === "reduce") return { kind: "reducer" };

  if (opener === "{" && (beforeOpener === "import" || (beforeOpener === "type" && img(t[o - 2]) === "import"))) {
    const from = after.findIndex((x) => x.image === "from");
    const lit = from >= 0 ? after[from + 1] : undefined;
    return { kind: "importNames", module: lit?.tokenType === StringTok ? lit.image.slice(1, -1) : undefined };
  }
  if (opener === "{" && beforeOpener === "(" && statementKeyword(t, o - 2) === "node") return { kind: "fields" };
  if (opener === "{" && beforeOpener === "->" && img(t[o - 2]) === ")") return { kind: "fields" };
  if (opener === "(" && beforeOpener === ":" && img(t[o - 2]) === "key") return { kind: "fields" };
  if (opener === "{" && (beforeOpener === "in" || beforeOpener === "out")) {
    let entry = t.length - 1;
    while (entry > o && t[entry]!.image !== ",") entry--;
    const arrow = t.slice(entry + 1).some((x) => x.image === (beforeOpener === "in" ? "<-" : "->"));
    return { kind: "mapping", direction: beforeOpener, side: arrow ? "parent" : "child" };
  }
  if ((prev === "route" || prev === "send") || (prev === "(" && (prev2 === "route" || prev2 === "send"))) return { kind: "fn" };

  if (opener === "{" && beforeOpener !== undefined) {
    const block = ["retry", "timeout", "cache", "limits"].find((b) => b === beforeOpener) as "retry" | "timeout" | "cache" | "limits" | undefined;
    const stmt = statementKeyword(t, o - 1);
    const optionsOf = block ?? (stmt === "node" && img(t[o - 2]) === "=" ? "node" : stmt === "subgraph" ? "subgraph" : undefined);
    if (optionsOf) {
      if (prev === ":" && prev2 !== undefined) return { kind: "optionValue", option: block && block !== "limits" ? `${block}.${prev2}` : prev2 };
      if (prev === "{" || prev === "," || newLine)
        return { kind: "optionNames", block: optionsOf };
    }
  }

  const stmt = statementKeyword(t, t.length - 1);
  if (prev === "=" && stmt === "node") return { kind: "impl" };
  if (prev === "=" && stmt === "subgraph") return { kind: "graphTarget" };
  if (prev === "before" || prev === "after" || (stmt === "interrupt" && prev === ",")) return { kind: "nodes", end: false, start: false };
  if (stmt === "goto" || prev === "goto" || (opener === "[" && img(t[o - 1]) === "goto")) return { kind: "nodes", end: true, start: false };
  if (prev === ":" || prev === "|" || prev === "<" || (prev === "=" && stmt === "type")) return { kind: "type" };
  if (prev === "->" || prev === "=>" || (opener === "[" && (prev === "[" || prev === ","))) return { kind: "nodes", end: true, start: false };
  // a condition block `a -> { cond => target … }`: before `=>` an expression over fields and vars
  if (opener === "{" && beforeOpener === "->") return { kind: "condition" };
  return { kind: "none" };
}
