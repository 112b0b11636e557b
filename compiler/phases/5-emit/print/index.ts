/**
 * Prettier's output for the emitters' text without prettier: the raw text cut into its top-level
 * statements (cut), each parsed (parse.ts) and printed by prettier's rules (print.ts, doc.ts). A
 * statement outside what the printer builds is refused (undefined), and the caller formats the text with
 * prettier as before. test/compiler/print-exact.test.ts compares every statement the printer accepts
 * with prettier's output, on every emit fixture and sample.
 */
import { hardline, printDoc, type Doc } from "./doc.ts";
import { Parser } from "./parse.ts";
import { printStatement, topLevel } from "./print.ts";

const PRINT_WIDTH = 110;

/** The whole raw text as prettier prints it, or undefined if one of its statements is refused. */
export function printText(raw: string): string | undefined {
  const chunks = cut(raw);
  if (chunks === undefined) return undefined;
  let out = "";
  for (const c of chunks) {
    const printed = printChunk(c);
    if (printed === undefined) return undefined;
    out += printed;
  }
  return out;
}

/**
 * The raw text cut where its top-level statements end, each piece with the comment lines before it (the
 * last piece: the comments after the last statement) — the cut format.ts's statementChunks makes with
 * prettier's parser. A statement ends at a line end outside brackets, strings and comments after `;` or
 * `}`, when the next line starts a name or a comment (not a word that continues a statement).
 */
export function cut(raw: string): string[] | undefined {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  let last = "";
  let i = 0;
  const n = raw.length;
  while (i < n) {
    const c = raw[i]!;
    if (c === "\n") {
      if (depth === 0 && (last === ";" || last === "}") && startsStatement(raw, i + 1)) {
        out.push(raw.slice(start, i));
        start = i;
        last = "";
      }
      i++;
      continue;
    }
    if (c === "/" && raw[i + 1] === "/") {
      const e = raw.indexOf("\n", i);
      i = e < 0 ? n : e;
      continue;
    }
    if (c === "/" && raw[i + 1] === "*") {
      const e = raw.indexOf("*/", i + 2);
      if (e < 0) return undefined;
      i = e + 2;
      continue;
    }
    if (c === '"' || c === "'") {
      for (i++; i < n && raw[i] !== c; i++) {
        if (raw[i] === "\\") i++;
        else if (raw[i] === "\n") return undefined;
      }
      i++;
      last = c;
      continue;
    }
    if (c === "`") {
      // a template literal: skipped whole (its `${}` nest); the statement is parsed again when printed
      const e = templateEnd(raw, i + 1);
      if (e < 0) return undefined;
      i = e;
      last = c;
      continue;
    }
    if (c === "{" || c === "(" || c === "[") depth++;
    else if (c === "}" || c === ")" || c === "]") {
      if (--depth < 0) return undefined;
    }
    if (c !== " " && c !== "\t" && c !== "\r") last = c;
    i++;
  }
  if (depth !== 0) return undefined;
  out.push(raw.slice(start));
  return out;
}

const CONTINUES = /^(else|catch|finally|as|satisfies|in|instanceof|of)\b/;

function startsStatement(raw: string, at: number): boolean {
  const rest = raw.slice(at, at + 16).replace(/^[ \t]+/, "");
  if (rest.startsWith("//") || rest.startsWith("/*")) return true;
  return /^[A-Za-z_$]/.test(rest) && !CONTINUES.test(rest);
}

function templateEnd(raw: string, i: number): number {
  let depth = 0;
  while (i < raw.length) {
    const c = raw[i]!;
    if (c === "\\") i += 2;
    else if (depth === 0 && c === "`") return i + 1;
    else if (c === "$" && raw[i + 1] === "{") {
      depth++;
      i += 2;
    } else if (depth > 0 && c === "}") {
      depth--;
      i++;
    } else if (depth > 0 && c === "`") {
      const e = templateEnd(raw, i + 1);
      if (e < 0) return -1;
      i = e;
    } else i++;
  }
  return -1;
}

/** One piece of the cut as prettier prints it alone, or undefined if the printer refuses it. */
export function printChunk(chunk: string): string | undefined {
  if (chunk.trim() === "") return "";
  try {
    const { stmts, trailing } = new Parser(chunk).program();
    if (stmts.length > 1) return undefined;
    const docs: Doc[] = stmts.map((s) => printStatement(topLevel(s)));
    let out = stmts.length > 0 ? printDoc([docs, hardline], PRINT_WIDTH) : "";
    for (const c of trailing) out += `${c.startsWith("//") ? c.trimEnd() : c}\n`;
    return out;
  } catch {
    // Refused, or a text the printer chokes on (nesting too deep for its recursion): prettier decides
    return undefined;
  }
}
