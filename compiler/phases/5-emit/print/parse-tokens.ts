/**
 * The token stream under print/parse.ts: looking at and taking tokens, and the lists (statements, cases,
 * members, elements) where own-line comments may stand.
 */
import type { Node } from "./ast.ts";
import { Refused } from "./doc.ts";
import { lex, type Token } from "./lex.ts";

export abstract class Tokens {
  protected readonly toks: Token[];
  protected p = 0;
  /** inside `for (… in …)`'s head, `in` is not an operator */
  protected noIn = false;

  constructor(readonly text: string) {
    this.toks = lex(text);
  }

  // ---------------------------------------------------------------- tokens

  protected tok(): Token {
    const t = this.toks[this.p]!;
    if (t.kind === "comment") throw new Refused("comment inside a statement");
    return t;
  }
  protected at(value: string, offset = 0): boolean {
    const t = this.toks[this.p + offset];
    if (t === undefined) return false;
    if (value === "eof") return t.kind === "eof";
    return (t.kind === "punct" || t.kind === "name") && t.value === value && (offset > 0 || t === this.tok());
  }
  atEnd(): boolean {
    return this.tok().kind === "eof";
  }
  protected eat(value: string): boolean {
    if (!this.at(value)) return false;
    this.p++;
    return true;
  }
  protected expect(value: string): Token {
    const t = this.tok();
    if (t.value !== value || (t.kind !== "punct" && t.kind !== "name")) throw new Refused(`expected ${value}, got ${t.value}`);
    this.p++;
    return t;
  }
  protected ident(): string {
    const t = this.tok();
    if (t.kind !== "name") throw new Refused(`expected a name, got ${t.value}`);
    this.p++;
    return t.value;
  }
  protected get pos(): number {
    return this.tok().start;
  }
  protected get last(): number {
    return this.toks[this.p - 1]!.end;
  }
  protected node(type: string, start: number, fields: Omit<Node, "type" | "start" | "end">): Node {
    return { type, start, end: this.last, ...fields };
  }
  /** `>` where a type argument list closes: splits `>>` and `>=` */
  protected closeAngle(): void {
    const t = this.tok();
    if (t.value === ">") this.p++;
    else throw new Refused("`>` joined to another token");
  }

  /** Own-line comments at a list position. */
  protected comments(): string[] {
    const out: string[] = [];
    for (let t = this.toks[this.p]!; t.kind === "comment"; t = this.toks[this.p]!) {
      const next = this.toks[this.p + 1]!;
      if (!(t.nl || this.p === 0) || !(next.nl || next.kind === "eof")) throw new Refused("comment beside code");
      // a block comment over several lines: prettier re-indents it only when every line after the first starts with `*`
      if (t.value.startsWith("/*") && t.value.includes("\n") && !t.value.split("\n").slice(1).every((l) => l.trim().startsWith("*"))) {
        throw new Refused("multi-line block comment");
      }
      out.push(t.value);
      this.p++;
    }
    return out;
  }

  /** Items up to `end`, each with its leading comments; comments after the last item in `rest`. */
  protected list(end: () => boolean, item: () => Node, sep?: string): { items: Node[]; rest: string[] } {
    const items: Node[] = [];
    for (;;) {
      const lead = this.comments();
      if (end()) return { items, rest: lead };
      const n = item();
      if (lead.length > 0) n.lead = lead;
      items.push(n);
      if (sep !== undefined && !this.eat(sep)) {
        const rest = this.comments();
        if (!end()) throw new Refused(`expected ${sep}`);
        return { items, rest };
      }
    }
  }

  /** `list` between brackets; comments after the last item become its `trail` (none allowed in an empty list) */
  protected bracketed(close: string, item: () => Node, sep?: string): Node[] {
    const { items, rest } = this.list(() => this.at(close), item, sep);
    this.expect(close);
    if (rest.length > 0) {
      if (items.length === 0) throw new Refused("comment in an empty list");
      items[items.length - 1]!.trail = rest;
    }
    return items;
  }

}
