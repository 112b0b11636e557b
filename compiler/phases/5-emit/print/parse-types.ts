/**
 * Types for print/parse.ts: unions, intersections, operators, references with arguments, object and
 * function types, tuples, literals.
 */
import type { Node } from "./ast.ts";
import { Refused } from "./doc.ts";
import { Tokens } from "./parse-tokens.ts";

const KEYWORD_TYPES = new Set(["string", "number", "boolean", "unknown", "any", "never", "void", "undefined", "null", "object", "symbol", "bigint"]);

export abstract class TypeParser extends Tokens {
  /** `(a: T, b?: U)` (parse.ts) */
  protected abstract params(): Node[];
  /** a literal or name (parse.ts) */
  abstract primary(): Node;

  // ---------------------------------------------------------------- types

  type(): Node {
    const start = this.pos;
    if (this.at("|") || this.at("&")) throw new Refused("leading | or &");
    const first = this.intersection();
    if (!this.at("|")) return first;
    const types = [first];
    while (this.eat("|")) types.push(this.intersection());
    return this.node("TSUnionType", start, { types });
  }

  protected intersection(): Node {
    const start = this.pos;
    const first = this.typeOperator();
    if (!this.at("&")) return first;
    const types = [first];
    while (this.eat("&")) types.push(this.typeOperator());
    return this.node("TSIntersectionType", start, { types });
  }

  protected typeOperator(): Node {
    const start = this.pos;
    if (this.at("readonly") || this.at("keyof") || (this.at("unique") && this.at("symbol", 1))) {
      const op = this.ident();
      return this.node("TSTypeOperator", start, { op, arg: this.typeOperator() });
    }
    if (this.at("typeof")) {
      this.p++;
      let name = this.ident();
      while (this.eat(".")) name += `.${this.ident()}`;
      if (this.at("<")) throw new Refused("typeof with type arguments");
      return this.node("TSTypeQuery", start, { name });
    }
    let t = this.primaryType();
    for (;;) {
      if (this.at("[") && !this.tok().nl) {
        this.p++;
        if (this.eat("]")) {
          t = this.node("TSArrayType", start, { arg: t });
          continue;
        }
        const index = this.type();
        this.expect("]");
        t = this.node("TSIndexedAccessType", start, { object: t, property: index });
      } else return t;
    }
  }

  protected primaryType(): Node {
    const start = this.pos;
    const t = this.tok();
    if (t.kind === "str") {
      this.p++;
      return this.node("TSLiteralType", start, { arg: this.node("StringLiteral", start, { raw: t.value }) });
    }
    if (t.kind === "num") {
      this.primary();
      return this.node("TSLiteralType", start, { arg: this.node("NumericLiteral", start, { raw: t.value }) });
    }
    if (t.kind === "name") {
      if (KEYWORD_TYPES.has(t.value)) {
        this.p++;
        return this.node("TSKeyword", start, { name: t.value });
      }
      if (t.value === "true" || t.value === "false") {
        this.p++;
        return this.node("TSLiteralType", start, { arg: this.node("Identifier", start, { name: t.value }) });
      }
      if (["infer", "asserts", "is", "unique", "new", "abstract"].includes(t.value)) throw new Refused(`type ${t.value}`);
      let name = this.ident();
      while (this.at(".")) {
        this.p++;
        name += `.${this.ident()}`;
      }
      let typeArgs: Node[] | undefined;
      if (this.at("<") && !this.tok().nl) {
        this.p++;
        typeArgs = [];
        while (!this.at(">")) {
          typeArgs.push(this.type());
          if (!this.eat(",")) break;
        }
        this.closeAngle();
      }
      return this.node("TSTypeReference", start, { name, ...(typeArgs ? { typeArgs } : {}) });
    }
    if (this.at("{")) return this.objectType();
    if (this.at("(")) {
      // a function type, or a type in parentheses
      const save = this.p;
      try {
        const params = this.params();
        this.expect("=>");
        const ret = this.type();
        return this.node("TSFunctionType", start, { params, ret });
      } catch (e) {
        if (!(e instanceof Refused)) throw e;
        this.p = save;
      }
      this.p++;
      const inner = this.type();
      this.expect(")");
      inner.parens = true;
      return inner;
    }
    if (this.at("[")) {
      this.p++;
      const elems: Node[] = [];
      while (!this.at("]")) {
        elems.push(this.type());
        if (!this.eat(",")) break;
      }
      this.expect("]");
      return this.node("TSTupleType", start, { elems });
    }
    throw new Refused(`type at ${t.value}`);
  }

  protected objectType(): Node {
    const start = this.pos;
    this.expect("{");
    const nlAfterBrace = this.toks[this.p]!.nl;
    const props = this.bracketed("}", () => {
      const s = this.pos;
      const readonly = this.at("readonly") && (this.toks[this.p + 1]!.kind === "name" || this.toks[this.p + 1]!.kind === "str" || this.at("[", 1)) ? this.eat("readonly") : false;
      if (this.at("[") && !this.at(":", 2)) {
        const key = this.computedKey();
        const optional = this.eat("?");
        this.expect(":");
        const ann = this.type();
        this.memberEnd();
        return this.node("TSPropertySignature", s, { key, ann, optional, readonly, computed: true });
      }
      if (this.at("[")) {
        this.p++;
        const ps = this.pos;
        const pname = this.ident();
        this.expect(":");
        const pann = this.type();
        if (this.at("in")) throw new Refused("mapped type");
        this.expect("]");
        this.expect(":");
        const param = this.node("Identifier", ps, { name: pname, ann: pann });
        const ann = this.type();
        this.memberEnd();
        return this.node("TSIndexSignature", s, { params: [param], ann, readonly });
      }
      const key = this.propertyKey();
      const optional = this.eat("?");
      if (this.at("(") || this.at("<")) throw new Refused("method signature");
      this.expect(":");
      const ann = this.type();
      this.memberEnd();
      return this.node("TSPropertySignature", s, { key, ann, optional, readonly });
    });
    return this.node("TSTypeLiteral", start, { props, nlAfterBrace });
  }

  /** a member of an object type ends with `;` or `,`, or before `}` */
  protected memberEnd(): void {
    if (this.eat(";") || this.eat(",")) return;
    if (!this.at("}") && !this.tok().nl) throw new Refused("member end");
  }

  /** `[name]`: a computed key that is a name */
  protected computedKey(): Node {
    this.expect("[");
    const start = this.pos;
    const key = this.node("Identifier", start, { name: this.ident() });
    this.expect("]");
    return key;
  }

  protected propertyKey(): Node {
    const start = this.pos;
    const t = this.tok();
    if (t.kind === "name") {
      this.p++;
      return this.node("Identifier", start, { name: t.value });
    }
    if (t.kind === "str") {
      this.p++;
      return this.node("StringLiteral", start, { raw: t.value });
    }
    throw new Refused("property key");
  }

}
