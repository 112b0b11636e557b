/**
 * Tokens of the emitters' TypeScript for the printer (print/parse.ts). Only what generated code uses:
 * a regular expression, a numeric separator or a non-ASCII name throws Refused (the statement goes to
 * prettier), never a wrong token.
 */
import { Refused } from "./doc.ts";

export interface Token {
  readonly kind: "name" | "num" | "str" | "tpl" | "punct" | "comment" | "eof";
  value: string;
  readonly start: number;
  end: number;
  /** a line break between the previous token and this one */
  readonly nl: boolean;
}

const PUNCT3 = new Set(["...", "===", "!==", "**=", "<<=", "??=", "&&=", "||="]);
const PUNCT2 = new Set(["=>", "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "**", "<<"]);
const NAME = /[A-Za-z_$][\w$]*/y;
const NUMBER = /[0-9][\w.]*/y;
const SINGLE = "{}()[];,<>+-*/%&|^!~?:=.@#";

export function lex(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  let nl = false;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "\n") {
      nl = true;
      i++;
      continue;
    }
    if (c === " " || c === "\t" || c === "\r") {
      i++;
      continue;
    }
    const start = i;
    let kind: Token["kind"];
    if (c === "/" && text[i + 1] === "/") {
      const e = text.indexOf("\n", i);
      i = e < 0 ? text.length : e;
      kind = "comment";
    } else if (c === "/" && text[i + 1] === "*") {
      const e = text.indexOf("*/", i + 2);
      if (e < 0) throw new Refused("unclosed comment");
      i = e + 2;
      kind = "comment";
    } else if ((NAME.lastIndex = i) >= 0 && NAME.test(text)) {
      i = NAME.lastIndex;
      kind = "name";
    } else if ((NUMBER.lastIndex = i) >= 0 && NUMBER.test(text)) {
      i = NUMBER.lastIndex;
      kind = "num";
    } else if (c === '"' || c === "'") {
      i++;
      while (i < text.length && text[i] !== c) {
        if (text[i] === "\n") throw new Refused("line break in a string");
        i += text[i] === "\\" ? 2 : 1;
      }
      if (i >= text.length) throw new Refused("unclosed string");
      i++;
      kind = "str";
    } else if (c === "`") {
      i = templateEnd(text, i + 1);
      kind = "tpl";
    } else {
      const three = text.slice(i, i + 3);
      const two = three.slice(0, 2);
      const p = PUNCT3.has(three) ? three : PUNCT2.has(two) ? two : SINGLE.includes(c) ? c : undefined;
      if (p === undefined) throw new Refused(`character ${c}`);
      i += p.length;
      kind = "punct";
    }
    out.push({ kind, value: text.slice(start, i), start, end: i, nl });
    nl = false;
  }
  out.push({ kind: "eof", value: "", start: text.length, end: text.length, nl });
  return out;
}

/** the index after the backquote closing the template literal whose text starts at `i` */
function templateEnd(text: string, i: number): number {
  while (i < text.length) {
    const c = text[i]!;
    if (c === "\\") i += 2;
    else if (c === "`") return i + 1;
    else if (c === "$" && text[i + 1] === "{") i = braceEnd(text, i + 2);
    else i++;
  }
  throw new Refused("unclosed template");
}

/** the index after the `}` closing a `${` whose expression starts at `i` */
export function braceEnd(text: string, i: number): number {
  let depth = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "}" && depth === 0) return i + 1;
    if (c === "{") depth++;
    else if (c === "}") depth--;
    else if (c === '"' || c === "'") {
      for (i++; i < text.length && text[i] !== c; i++) if (text[i] === "\\") i++;
    } else if (c === "`") {
      i = templateEnd(text, i + 1);
      continue;
    } else if (c === "/" && (text[i + 1] === "/" || text[i + 1] === "*")) throw new Refused("comment in a template");
    i++;
  }
  throw new Refused("unclosed template expression");
}
