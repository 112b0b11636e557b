/**
 * Injection safety: every piece of text that comes from a `.graph` file reaches the generated code through
 * one of these functions. Strings become JSON-escaped literals (plus U+2028/U+2029, which JSON leaves raw);
 * names become identifiers only when they are plain ASCII identifiers, and quoted keys otherwise. Nothing
 * from the source is ever placed in a comment or a template literal.
 */

/** A double-quoted JS string literal meaning exactly `s`. */
export function str(s: string): string {
  return JSON.stringify(s).replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Words that cannot name a binding in strict-mode module code. */
const RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for " +
    "function if import in instanceof new null return super switch this throw true try typeof var void while with " +
    "yield let static implements interface package private protected public await arguments eval undefined NaN Infinity"
  ).split(" "),
);

export function isIdentifier(name: string): boolean {
  return IDENT.test(name);
}

/** Usable as a top-level binding (const / type / import local) in generated code. */
export function isBindingName(name: string): boolean {
  return IDENT.test(name) && !RESERVED.has(name);
}

/** An object-literal or type-literal key: bare when safe, quoted otherwise. `__proto__` is always computed. */
export function key(name: string): string {
  if (name === "__proto__") return `[${str(name)}]`;
  return IDENT.test(name) ? name : str(name);
}

/**
 * A field of a record (state values, input, a mapping's output: `Values` objects): always `obj["name"]`,
 * the access that compiles under the user's `noPropertyAccessFromIndexSignature`.
 */
export function access(obj: string, name: string, optional = false): string {
  return `${obj}${optional ? "?." : ""}[${str(name)}]`;
}

/** A member of a typed value: `obj.name`, or `obj["name"]` when the name is no identifier. */
export function member(obj: string, name: string, optional = false): string {
  if (IDENT.test(name)) return `${obj}${optional ? "?." : "."}${name}`;
  return access(obj, name, optional);
}

/**
 * A fragment of a generated identifier built from a DSL name: `node_1` -> `Node1`, `fetch-order` -> `FetchOrder`.
 * Characters outside [A-Za-z0-9] become `_xHH`/`_uHHHH` so that the result is always a valid identifier part.
 */
export function pascal(name: string): string {
  let out = "";
  let upper = true;
  for (const ch of name) {
    if (ch === "_" || ch === "-" || ch === " ") {
      upper = true;
      continue;
    }
    if (/[A-Za-z0-9]/.test(ch)) {
      out += upper ? ch.toUpperCase() : ch;
    } else {
      const cp = ch.codePointAt(0)!;
      out += `_u${cp.toString(16).padStart(4, "0")}`;
    }
    upper = false;
  }
  return out;
}

/** A DSL name inside a generated comment: as is when it is a plain identifier, else quoted with `*\/` broken. */
export function inComment(name: string): string {
  return /^[A-Za-z0-9_$]+$/.test(name) ? name : str(name).replace(/\*\//g, "*\\/");
}
