/**
 * TypeScript text for IR types, update types per reducer, and the inline run-time tests of input checks.
 */
import type { CheckIR, FieldIR, TypeIR } from "../4-lower/ir.ts";
import { reducerDef, type UpdateShape } from "../reducers.ts";
import { access, key, str } from "./escape.ts";

/** What a node may write into the field, by its reducer (the registry's shape; a custom reducer's own type). */
export function updateShape(f: FieldIR): UpdateShape | "custom" {
  const r = f.reducer;
  return r.kind === "custom" ? "custom" : r.kind === "builtin" ? reducerDef(r.name).update : "value";
}

/** The type as TypeScript source. */
export function tsType(t: TypeIR): string {
  switch (t.k) {
    case "prim":
      return t.name;
    case "lit":
      return typeof t.value === "string" ? str(t.value) : String(t.value);
    case "array": {
      const el = tsType(t.element);
      return t.element.k === "union" ? `(${el})[]` : `${el}[]`;
    }
    case "union":
      return t.members.map(tsType).join(" | ");
    case "object":
      return objectType(t.members.map((m) => ({ name: m.name, optional: m.optional, type: tsType(m.type) })));
    case "record":
      return `Record<string, ${tsType(t.value)}>`;
    case "ref":
      return t.args.length === 0 ? t.name : `${t.name}<${t.args.map(tsType).join(", ")}>`;
  }
}

/** `{ a: T; b?: U }` */
export function objectType(members: readonly { name: string; optional: boolean; type: string }[]): string {
  if (members.length === 0) return "{}";
  return `{ ${members.map((m) => `${key(m.name)}${m.optional ? "?" : ""}: ${m.type};`).join(" ")} }`;
}

/** Whether `undefined` is a value of the type as written (then the field may be omitted from an input). */
export function admitsUndefined(t: TypeIR): boolean {
  if (t.k === "prim") return t.name === "undefined" || t.name === "unknown";
  if (t.k === "union") return t.members.some(admitsUndefined);
  return false;
}

/**
 * What a node may write into a field: the field type for replace; one element or an array for the list
 * reducers; a number for `sum`; a partial object for `merge`; the reducer's second parameter for a custom one.
 * Reducer fields also accept an `Overwrite` (replaces the value without the reducer).
 */
export function updateType(f: FieldIR, stateType: string, overwriteType: () => string, fn: (local: string) => string): string {
  const field = `${stateType}[${str(f.name)}]`;
  const el = f.type.k === "array" ? tsType(f.type.element) : `${field}[number]`;
  const wrapEl = f.type.k === "array" && f.type.element.k === "union" ? `(${el})` : el;
  const r = f.reducer;
  if (r.kind === "replace") return tsType(f.type);
  const overwrite = overwriteType();
  if (r.kind === "custom") return `Parameters<typeof ${fn(r.fn.local)}>[1] | ${overwrite}<${field}>`;
  switch (reducerDef(r.name).update) {
    case "value":
      return `${field} | ${overwrite}<${field}>`;
    case "item-or-list":
      return `${wrapEl} | readonly ${wrapEl}[] | ${overwrite}<${field}>`;
    case "number":
      return `number | ${overwrite}<${field}>`;
    case "partial":
      return `Partial<${field}> | ${overwrite}<${field}>`;
  }
}

/** A boolean TS expression testing `x` (an expression of type unknown, evaluated possibly several times). */
export function checkExpr(c: CheckIR, x: string, depth = 0): string {
  switch (c.k) {
    case "any":
      return "true";
    case "typeof":
      return `typeof ${x} === ${str(c.type)}`;
    case "null":
      return `${x} === null`;
    case "lit":
      return `${x} === ${typeof c.value === "string" ? str(c.value) : String(c.value)}`;
    case "array": {
      const el = `e${depth}`;
      const inner = checkExpr(c.element, el, depth + 1);
      return inner === "true" ? `Array.isArray(${x})` : `Array.isArray(${x}) && ${x}.every((${el}: unknown) => ${inner})`;
    }
    case "record": {
      const el = `e${depth}`;
      const obj = `typeof ${x} === "object" && ${x} !== null && !Array.isArray(${x})`;
      const inner = checkExpr(c.value, el, depth + 1);
      return inner === "true" ? obj : `${obj} && Object.values(${x}).every((${el}: unknown) => ${inner})`;
    }
    case "object": {
      const parts = [`typeof ${x} === "object"`, `${x} !== null`, `!Array.isArray(${x})`];
      const o = `(${x} as Record<string, unknown>)`;
      for (const m of c.members) {
        const test = checkExpr(m.check, access(o, m.name), depth + 1);
        if (test === "true") continue;
        const admits = m.check.k === "typeof" && m.check.type === "undefined";
        parts.push(m.optional && !admits && !test.includes('"undefined"') ? `(${access(o, m.name)} === undefined || ${test})` : `(${test})`);
      }
      return parts.join(" && ");
    }
    case "union": {
      const members = c.members.map((m) => checkExpr(m, x, depth));
      return members.map((m) => `(${m})`).join(" || ");
    }
  }
}

/**
 * The run-time test of one update value `x` of field `f`: what `updateType` allows, at `typeof` /
 * `Array.isArray` level (the field's input test for replace; one element or an array of them for
 * `append`/`union`; a number for `sum`; a partial value for `merge`), as `scalar` (a test of `x`) and/or
 * `element` (when `x` may be an array: the test of each element `x[i]`, "true" when any array passes).
 * `field` tests `y`, the value of an `Overwrite` (which every field unwraps, a replace field too, as
 * LangGraph does), against the field's type; `objects`: the scalar test can accept a non-array object,
 * so also an Overwrite. Undefined when the value is trusted: custom reducers and `messages` (their own
 * input types), and types whose test is opaque. `want` names the expected type in the error.
 */
export interface UpdateValueCheck {
  readonly scalar: string | undefined;
  readonly element: string | undefined;
  readonly field: string;
  readonly want: string;
  readonly objects: boolean;
}

export function updateValueCheck(f: FieldIR, x: string, y: string): UpdateValueCheck | undefined {
  const own = ownUpdateCheck(f, x);
  if (own === undefined) return undefined;
  const el = f.check.k === "array" ? f.check.element : f.check;
  const shape = updateShape(f);
  const objects = own.scalar !== undefined && (shape === "partial" || acceptsObject(shape === "value" ? f.check : el));
  return { ...own, field: checkExpr(f.check, y), objects };
}

function acceptsObject(c: CheckIR): boolean {
  return c.k === "object" || c.k === "record" || c.k === "any" || (c.k === "union" && c.members.some(acceptsObject));
}

function ownUpdateCheck(f: FieldIR, x: string): { scalar: string | undefined; element: string | undefined; want: string } | undefined {
  const obj = `typeof ${x} === "object" && ${x} !== null && !Array.isArray(${x})`;
  const each = `${x}[i]`;
  if (f.reducer.kind === "builtin" && reducerDef(f.reducer.name).trustedWrites) return undefined;
  switch (updateShape(f)) {
    case "value": {
      const want = tsType(f.type);
      if (f.check.k === "array") return { scalar: undefined, element: checkExpr(f.check.element, each), want };
      const test = checkExpr(f.check, x);
      return test === "true" ? undefined : { scalar: test, element: undefined, want };
    }
    case "number":
      return { scalar: `typeof ${x} === "number"`, element: undefined, want: "number" };
    case "partial": {
      // a partial value: a Record's values are tested, an object's members as if all were optional
      const c = f.check;
      const partial: CheckIR =
        c.k === "object" ? { k: "object", members: c.members.map((m) => ({ ...m, optional: true })) } : c;
      const test = c.k === "record" || c.k === "object" ? checkExpr(partial, x) : obj;
      return { scalar: test, element: undefined, want: `Partial<${tsType(f.type)}>` };
    }
    case "item-or-list": {
      if (f.check.k !== "array" || f.type.k !== "array") return undefined;
      const one = checkExpr(f.check.element, x);
      if (one === "true") return undefined;
      const el = tsType(f.type.element);
      const wrapped = f.type.element.k === "union" ? `(${el})` : el;
      return { scalar: one, element: checkExpr(f.check.element, each), want: `${el} | ${wrapped}[]` };
    }
    case "custom":
      return undefined;
  }
}
