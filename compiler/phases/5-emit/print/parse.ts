/**
 * A parser for the TypeScript the emitters write (statements, expressions, types), building print/ast.ts
 * nodes. Anything outside that subset — or a comment anywhere but on its own line in a list (statements,
 * switch cases, object members, array elements) — throws Refused: the statement goes to prettier.
 */
import type { Node } from "./ast.ts";
import { Refused } from "./doc.ts";
import type { Token } from "./lex.ts";
import { TypeParser } from "./parse-types.ts";

const BINARY: Record<string, number> = {
  "??": 1, "||": 2, "&&": 3, "|": 4, "^": 5, "&": 6,
  "==": 7, "!=": 7, "===": 7, "!==": 7,
  "<": 8, ">": 8, "<=": 8, ">=": 8, in: 8, instanceof: 8, as: 8, satisfies: 8,
  "<<": 9, "+": 10, "-": 10, "*": 11, "/": 11, "%": 11, "**": 12,
};
const ASSIGN = new Set(["=", "+=", "-=", "*=", "/=", "%=", "??=", "||=", "&&=", "|=", "&=", "^=", "**=", "<<="]);

export class Parser extends TypeParser {
  /** The chunk's statements (with their leading comments); comments after the last one in `trailing`. */
  program(): { stmts: Node[]; trailing: string[] } {
    const { items, rest } = this.list(() => this.at("eof"), () => this.statement());
    return { stmts: items, trailing: rest };
  }

  // ---------------------------------------------------------------- statements

  statement(): Node {
    const start = this.pos;
    const t = this.tok();
    if (t.kind === "name") {
      switch (t.value) {
        case "import":
          if (!this.at("(", 1)) return this.importDecl();
          break;
        case "export": {
          this.p++;
          if (this.at("{") || this.at("*") || this.at("default")) throw new Refused("export list");
          return this.node("ExportNamedDeclaration", start, { decl: this.statement() });
        }
        case "const":
        case "let":
        case "var": {
          const d = this.varDecl();
          this.semi();
          return d;
        }
        case "function":
          return this.functionDecl();
        case "async":
          if (this.at("function", 1)) throw new Refused("async function");
          break;
        case "type":
          if (this.toks[this.p + 1]!.kind === "name") return this.typeAlias();
          break;
        case "interface":
          return this.interfaceDecl();
        case "if":
          return this.ifStatement();
        case "for":
          return this.forStatement();
        case "switch":
          return this.switchStatement();
        case "return":
        case "throw": {
          this.p++;
          const arg = t.value === "throw" || !this.endsStatement() ? this.expression() : undefined;
          this.semi();
          return this.node(t.value === "return" ? "ReturnStatement" : "ThrowStatement", start, arg ? { arg } : {});
        }
        case "break":
        case "continue":
          this.p++;
          if (!this.endsStatement()) throw new Refused("label");
          this.semi();
          return this.node(t.value === "break" ? "BreakStatement" : "ContinueStatement", start, {});
        case "while":
        case "do":
        case "try":
        case "class":
        case "enum":
        case "namespace":
        case "declare":
        case "abstract":
        case "with":
        case "debugger":
          throw new Refused(`statement ${t.value}`);
      }
    }
    if (this.at("{")) return this.block();
    if (this.at(";")) throw new Refused("empty statement");
    const expr = this.expression();
    this.semi();
    return this.node("ExpressionStatement", start, { arg: expr });
  }

  protected endsStatement(): boolean {
    const t = this.tok();
    return t.value === ";" || t.value === "}" || t.kind === "eof" || t.nl;
  }
  /** a statement's `;`: generated code writes every one (automatic insertion is refused) */
  protected semi(): void {
    this.expect(";");
  }

  block(): Node {
    const start = this.pos;
    this.expect("{");
    const stmts = this.bracketed("}", () => this.statement());
    return this.node("BlockStatement", start, { stmts });
  }

  protected importDecl(): Node {
    const start = this.pos;
    this.expect("import");
    const isType = this.at("type") && (this.at("{", 1) || this.toks[this.p + 1]!.kind === "name") && !this.at("from", 1) ? this.eat("type") : false;
    if (!this.at("{")) throw new Refused("import without braces");
    this.p++;
    const specs = this.bracketed("}", () => {
      const s = this.pos;
      const typeOnly = this.at("type") && this.toks[this.p + 1]!.kind === "name" && !this.at("as", 1) ? this.eat("type") : false;
      const name = this.ident();
      if (this.at("as")) throw new Refused("import alias");
      return this.node("ImportSpecifier", s, { name, isType: typeOnly });
    }, ",");
    this.expect("from");
    const source = this.primary();
    if (source.type !== "StringLiteral") throw new Refused("import source");
    if (this.at("with") || this.at("assert")) throw new Refused("import attributes");
    this.semi();
    return this.node("ImportDeclaration", start, { specs, source, isType });
  }

  protected varDecl(): Node {
    const start = this.pos;
    const kind = this.ident();
    const decls: Node[] = [];
    do {
      const s = this.pos;
      const name = this.ident();
      const ann = this.eat(":") ? this.type() : undefined;
      const id = this.node("Identifier", s, { name, ...(ann ? { ann } : {}) });
      const init = this.eat("=") ? this.assignment() : undefined;
      decls.push(this.node("VariableDeclarator", s, { id, ...(init ? { init } : {}) }));
    } while (this.eat(","));
    return this.node("VariableDeclaration", start, { kind, decls });
  }

  protected functionDecl(): Node {
    const start = this.pos;
    this.expect("function");
    if (this.at("*")) throw new Refused("generator");
    const s = this.pos;
    const id = this.node("Identifier", s, { name: this.ident() });
    if (this.at("<")) throw new Refused("type parameters");
    const params = this.params();
    const ret = this.eat(":") ? this.type() : undefined;
    const body = this.block();
    return this.node("FunctionDeclaration", start, { id, params, body, ...(ret ? { ret } : {}) });
  }

  /** `(a: T, b?: U)`: identifiers with optional types (no defaults, patterns or rest) */
  protected params(): Node[] {
    this.expect("(");
    const out: Node[] = [];
    while (!this.at(")")) {
      const s = this.pos;
      const name = this.ident();
      const optional = this.eat("?");
      const ann = this.eat(":") ? this.type() : undefined;
      if (this.at("=")) throw new Refused("default parameter");
      out.push(this.node("Identifier", s, { name, optional, ...(ann ? { ann } : {}) }));
      if (!this.eat(",")) break;
    }
    this.expect(")");
    return out;
  }

  protected typeAlias(): Node {
    const start = this.pos;
    this.expect("type");
    const s = this.pos;
    const id = this.node("Identifier", s, { name: this.ident() });
    if (this.at("<")) throw new Refused("type parameters");
    this.expect("=");
    const value = this.type();
    this.semi();
    return this.node("TSTypeAliasDeclaration", start, { id, value });
  }

  protected interfaceDecl(): Node {
    const start = this.pos;
    this.expect("interface");
    const s = this.pos;
    const id = this.node("Identifier", s, { name: this.ident() });
    if (this.at("<") || this.at("extends")) throw new Refused("interface heritage");
    const body = this.objectType();
    return this.node("TSInterfaceDeclaration", start, { id, body });
  }

  protected ifStatement(): Node {
    const start = this.pos;
    this.expect("if");
    this.expect("(");
    const test = this.expression();
    this.expect(")");
    const cons = this.statement();
    const alt = this.eat("else") ? this.statement() : undefined;
    return this.node("IfStatement", start, { test, cons, ...(alt ? { alt } : {}) });
  }

  protected forStatement(): Node {
    const start = this.pos;
    this.expect("for");
    this.expect("(");
    if (!(this.at("const") || this.at("let"))) throw new Refused("for head");
    if (this.at("=", 2)) return this.forCounter(start);
    const ds = this.pos;
    const kind = this.ident();
    const is = this.pos;
    const id = this.node("Identifier", is, { name: this.ident() });
    const left = this.node("VariableDeclaration", ds, { kind, decls: [this.node("VariableDeclarator", is, { id })] });
    const op = this.tok().value;
    if (op !== "of" && op !== "in") throw new Refused("for (;;)");
    this.p++;
    const right = this.assignment();
    this.expect(")");
    const body = this.statement();
    return this.node(op === "of" ? "ForOfStatement" : "ForInStatement", start, { left, right, body });
  }

  /** `for (let i = 0; test; i++) body` */
  protected forCounter(start: number): Node {
    const init = this.varDecl();
    this.expect(";");
    const test = this.expression();
    this.expect(";");
    const us = this.pos;
    const name = this.ident();
    const op = this.tok().value;
    if (op !== "++" && op !== "--") throw new Refused("for update");
    this.p++;
    const update = this.node("UpdateExpression", us, { op, arg: this.node("Identifier", us, { name }) });
    this.expect(")");
    const body = this.statement();
    return this.node("ForStatement", start, { init, test, arg: update, body });
  }

  protected switchStatement(): Node {
    const start = this.pos;
    this.expect("switch");
    this.expect("(");
    const test = this.expression();
    this.expect(")");
    this.expect("{");
    const cases: Node[] = [];
    let lead = this.comments();
    while (!this.at("}")) {
      const s = this.pos;
      let caseTest: Node | undefined;
      if (this.eat("case")) caseTest = this.expression();
      else this.expect("default");
      this.expect(":");
      const { items, rest } = this.list(() => this.at("case") || this.at("default") || this.at("}"), () => this.statement());
      const c = this.node("SwitchCase", s, { stmts: items, ...(caseTest ? { test: caseTest } : {}) });
      if (items.length > 0) c.end = items.at(-1)!.end;
      if (lead.length > 0) c.lead = lead;
      cases.push(c);
      lead = rest;
    }
    this.expect("}");
    if (lead.length > 0) {
      if (cases.length === 0) throw new Refused("comment in an empty switch");
      cases[cases.length - 1]!.trail = lead;
    }
    return this.node("SwitchStatement", start, { test, cases });
  }

  // ---------------------------------------------------------------- expressions

  expression(): Node {
    const e = this.assignment();
    if (this.at(",")) throw new Refused("sequence expression");
    return e;
  }

  protected assignment(): Node {
    const start = this.pos;
    const arrow = this.tryArrow();
    if (arrow) return arrow;
    const left = this.conditional();
    const op = this.tok().value;
    if (this.tok().kind === "punct" && ASSIGN.has(op)) {
      this.p++;
      const right = this.assignment();
      return this.node("AssignmentExpression", start, { op, left, right });
    }
    return left;
  }

  /** an arrow function if one starts here: `(params) =>`, `(params): T =>` or `x =>` */
  protected tryArrow(): Node | undefined {
    const start = this.pos;
    if (this.at("async")) throw new Refused("async arrow");
    if (this.tok().kind === "name" && this.at("=>", 1)) throw new Refused("arrow without parentheses");
    if (!this.at("(")) return undefined;
    // find the matching `)` and look at what follows it
    let depth = 0;
    let i = this.p;
    for (; i < this.toks.length; i++) {
      const v = this.toks[i]!;
      if (v.kind !== "punct") continue;
      if (v.value === "(") depth++;
      else if (v.value === ")" && --depth === 0) break;
    }
    const after = this.toks[i + 1];
    if (!after || !(after.value === "=>" || after.value === ":")) return undefined;
    const save = this.p;
    let params: Node[];
    let ret: Node | undefined;
    try {
      params = this.params();
      ret = this.eat(":") ? this.type() : undefined;
      if (!this.at("=>")) throw new Refused("not an arrow");
    } catch (e) {
      if (!(e instanceof Refused) || after.value === "=>") throw e;
      this.p = save;
      return undefined;
    }
    this.expect("=>");
    const body = this.at("{") ? this.block() : this.assignment();
    return this.node("ArrowFunctionExpression", start, { params, body, ...(ret ? { ret } : {}) });
  }

  protected conditional(): Node {
    const start = this.pos;
    const test = this.binary(0);
    if (!this.eat("?")) return test;
    const noIn = this.noIn;
    this.noIn = false;
    const cons = this.assignment();
    this.noIn = noIn;
    this.expect(":");
    const alt = this.assignment();
    return this.node("ConditionalExpression", start, { test, cons, alt });
  }

  protected binary(min: number): Node {
    const start = this.pos;
    let left = this.unary();
    for (;;) {
      const t = this.tok();
      const op = t.value;
      const prec = (t.kind === "punct" || t.kind === "name") && Object.hasOwn(BINARY, op) ? BINARY[op]! : undefined;
      if (prec === undefined || prec <= min || (op === "in" && this.noIn)) return left;
      if (op === ">" && this.at(">", 1) && this.toks[this.p + 1]!.start === t.end) throw new Refused("shift");
      if (t.nl && (op === "as" || op === "satisfies" || op === "in" || op === "instanceof")) throw new Refused("operator on a new line");
      this.p++;
      if (op === "as" || op === "satisfies") {
        if (this.at("const") && op === "as") {
          const cs = this.pos;
          this.p++;
          left = this.node("TSAsExpression", start, { arg: left, ann: this.node("TSConst", cs, {}) });
          continue;
        }
        left = this.node(op === "as" ? "TSAsExpression" : "TSSatisfiesExpression", start, { arg: left, ann: this.type() });
        continue;
      }
      // `**` is right-associative
      const right = this.binary(op === "**" ? prec - 1 : prec);
      const type = op === "&&" || op === "||" || op === "??" ? "LogicalExpression" : "BinaryExpression";
      left = this.node(type, start, { op, left, right });
    }
  }

  protected unary(): Node {
    const start = this.pos;
    const t = this.tok();
    if ((t.kind === "punct" && (t.value === "!" || t.value === "-" || t.value === "+" || t.value === "~")) || (t.kind === "name" && (t.value === "typeof" || t.value === "void" || t.value === "delete"))) {
      this.p++;
      const arg = this.unary();
      return this.node("UnaryExpression", start, { op: t.value, arg });
    }
    if (t.kind === "name" && t.value === "await") {
      this.p++;
      return this.node("AwaitExpression", start, { arg: this.unary() });
    }
    if (t.value === "++" || t.value === "--") throw new Refused("update expression");
    const e = this.postfix();
    if ((this.at("++") || this.at("--")) && !this.tok().nl) throw new Refused("update expression");
    return e;
  }

  protected postfix(): Node {
    const start = this.pos;
    let e: Node;
    if (this.at("new")) {
      this.p++;
      const callee = this.memberOnly();
      const typeArgs = this.at("<") ? this.callTypeArgs() : undefined;
      if (!this.at("(")) throw new Refused("new without arguments");
      const args = this.arguments();
      e = this.node("NewExpression", start, { callee, args, ...(typeArgs ? { typeArgs } : {}) });
    } else e = this.primary();
    return this.suffixes(e, start, true);
  }

  /** `new`'s callee: a name and its member accesses */
  protected memberOnly(): Node {
    const start = this.pos;
    return this.suffixes(this.primary(), start, false);
  }

  protected suffixes(e: Node, start: number, calls: boolean): Node {
    for (;;) {
      if (this.at(".") || this.at("?.")) {
        const optional = this.tok().value === "?.";
        this.p++;
        if (optional && (this.at("(") || this.at("["))) throw new Refused("optional call");
        const ps = this.pos;
        const property = this.node("Identifier", ps, { name: this.ident() });
        e = this.node("MemberExpression", start, { object: e, property, computed: false, optional });
      } else if (this.at("[")) {
        this.p++;
        const property = this.expression();
        this.expect("]");
        e = this.node("MemberExpression", start, { object: e, property, computed: true, optional: false });
      } else if (this.at("!") && !this.tok().nl && calls) {
        this.p++;
        e = this.node("TSNonNullExpression", start, { arg: e });
      } else if (this.at("(") && calls) {
        const args = this.arguments();
        e = this.node("CallExpression", start, { callee: e, args });
      } else if (this.at("<") && calls) {
        const typeArgs = this.callTypeArgs();
        if (typeArgs === undefined) return e;
        const args = this.arguments();
        e = this.node("CallExpression", start, { callee: e, args, typeArgs });
      } else if (this.tok().kind === "tpl") {
        throw new Refused("tagged template");
      } else return e;
    }
  }

  /** `<T, U>` before a call's `(`, or undefined (nothing consumed) where `<` is a comparison */
  protected callTypeArgs(): Node[] | undefined {
    const save = this.p;
    try {
      this.expect("<");
      const out: Node[] = [];
      while (!this.at(">")) {
        out.push(this.type());
        if (!this.eat(",")) break;
      }
      this.closeAngle();
      if (!this.at("(")) throw new Refused("not a call");
      return out;
    } catch (e) {
      if (!(e instanceof Refused)) throw e;
      this.p = save;
      return undefined;
    }
  }

  protected arguments(): Node[] {
    this.expect("(");
    const args: Node[] = [];
    while (!this.at(")")) {
      args.push(this.spreadOr(() => this.assignment()));
      if (!this.eat(",")) break;
    }
    this.expect(")");
    return args;
  }

  protected spreadOr(item: () => Node): Node {
    const start = this.pos;
    if (this.eat("...")) return this.node("SpreadElement", start, { arg: this.assignment() });
    return item();
  }

  primary(): Node {
    const start = this.pos;
    const t = this.tok();
    switch (t.kind) {
      case "str":
        this.p++;
        return this.node("StringLiteral", start, { raw: t.value });
      case "num":
        this.p++;
        if (!/^(0|[1-9]\d*)(\.\d*[1-9])?$/.test(t.value)) throw new Refused("number form");
        return this.node("NumericLiteral", start, { raw: t.value });
      case "tpl":
        this.p++;
        return this.template(t);
      case "name": {
        if (["function", "class", "this", "super", "yield", "import"].includes(t.value)) throw new Refused(t.value);
        this.p++;
        return this.node("Identifier", start, { name: t.value });
      }
      case "punct":
        if (t.value === "(") {
          this.p++;
          const noIn = this.noIn;
          this.noIn = false;
          const e = this.expression();
          this.noIn = noIn;
          this.expect(")");
          e.parens = true;
          return e;
        }
        if (t.value === "[") {
          this.p++;
          const elems = this.bracketed("]", () => this.spreadOr(() => this.assignment()), ",");
          return this.node("ArrayExpression", start, { elems });
        }
        if (t.value === "{") return this.objectLiteral();
        throw new Refused(`expression at ${t.value}`);
      default:
        throw new Refused(`expression at ${t.value}`);
    }
  }

  protected objectLiteral(): Node {
    const start = this.pos;
    this.expect("{");
    const nlAfterBrace = this.toks[this.p]!.nl;
    const props = this.bracketed("}", () => {
      const s = this.pos;
      if (this.eat("...")) return this.node("SpreadElement", s, { arg: this.assignment() });
      const computed = this.at("[");
      const key = computed ? this.computedKey() : this.propertyKey();
      if (computed) {
        this.expect(":");
        return this.node("ObjectProperty", s, { key, value: this.assignment(), computed });
      }
      if (this.at("(") || this.at("<")) throw new Refused("method");
      if (!this.eat(":")) {
        if (key.type !== "Identifier") throw new Refused("shorthand");
        return this.node("ObjectProperty", s, { key, value: key, shorthand: true });
      }
      return this.node("ObjectProperty", s, { key, value: this.assignment() });
    }, ",");
    return this.node("ObjectExpression", start, { props, nlAfterBrace });
  }

  protected template(t: Token): Node {
    const quasis: string[] = [];
    const exprs: Node[] = [];
    const body = t.value.slice(1, -1);
    let q = "";
    for (let i = 0; i < body.length; i++) {
      const c = body[i]!;
      if (c === "\\") {
        q += c + body[i + 1];
        i++;
      } else if (c === "$" && body[i + 1] === "{") {
        quasis.push(q);
        q = "";
        let depth = 0;
        let j = i + 2;
        // the lexer checked the template's shape: find the `}` that closes this `${`
        for (; j < body.length; j++) {
          const d = body[j]!;
          if (d === "{") depth++;
          else if (d === "}" && depth-- === 0) break;
          else if (d === '"' || d === "'" || d === "`") throw new Refused("string in a template expression");
        }
        const src = body.slice(i + 2, j);
        if (src.includes("\n")) throw new Refused("line break in a template expression");
        const inner = new Parser(src);
        const e = inner.expression();
        if (!inner.atEnd()) throw new Refused("template expression");
        exprs.push(e);
        i = j;
      } else q += c;
    }
    quasis.push(q);
    return { type: "TemplateLiteral", start: t.start, end: t.end, quasis, exprs };
  }

}
