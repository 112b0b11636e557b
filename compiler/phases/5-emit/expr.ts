/**
 * IR expressions as TypeScript. Fields are read from `state` (a variable typed as the graph's state), so
 * TypeScript checks paths into imported types; `x[-1]` becomes `x.at(-1)`, `len(x)` `x.length`,
 * `==` `===` (`== null` stays loose: absent or null), `x in [a, b]` a chain of `===` tests.
 */
import type { ExprIR } from "../4-lower/ir.ts";
import { access, key, member, str } from "./escape.ts";

export function tsExpr(e: ExprIR, state: string): string {
  const go = (x: ExprIR) => tsExpr(x, state);
  switch (e.k) {
    case "lit":
      if (typeof e.value === "string") return str(e.value);
      if (typeof e.value === "number") return e.value < 0 || Object.is(e.value, -0) ? `(${e.value})` : String(e.value);
      return String(e.value);
    case "array":
      return `[${e.items.map(go).join(", ")}]`;
    case "object":
      return `{ ${e.entries.map((en) => `${key(en.key)}: ${go(en.value)}`).join(", ")} }`;
    case "field":
      return access(state, e.name);
    case "member":
      // after an index the value may be missing (`noUncheckedIndexedAccess`): optional chaining
      return member(go(e.object), e.name, e.object.k === "index");
    case "index": {
      const obj = go(e.object);
      const i = e.index;
      if (i.k === "lit" && typeof i.value === "number" && i.value >= 0) return `${obj}[${i.value}]`;
      if (i.k === "lit" && typeof i.value === "string") return `${obj}[${str(i.value)}]`;
      return `${obj}.at(${go(i)})`;
    }
    case "len":
      return `${go(e.arg)}.length`;
    case "not":
      return `!(${go(e.arg)})`;
    case "neg":
      return `-(${go(e.arg)})`;
    case "binary": {
      // `x == null` means "absent or null": an unwritten field is `undefined`, so the test is loose
      const nullTest = (x: ExprIR) => x.k === "lit" && x.value === null;
      const strict = !nullTest(e.left) && !nullTest(e.right);
      const op = e.op === "==" ? (strict ? "===" : "==") : e.op === "!=" ? (strict ? "!==" : "!=") : e.op;
      return `(${go(e.left)} ${op} ${go(e.right)})`;
    }
    case "in": {
      const v = go(e.value);
      if (e.list.k === "array") {
        if (e.list.items.length === 0) return "false";
        return `(${e.list.items.map((i) => `${v} === ${go(i)}`).join(" || ")})`;
      }
      return `(${go(e.list)} as readonly unknown[]).includes(${v})`;
    }
  }
}

/** A default value: a fresh literal on every evaluation (no field references). */
export function tsLiteral(e: ExprIR): string {
  return tsExpr(e, "undefined as never");
}
