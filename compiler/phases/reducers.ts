/**
 * The reducer registry: everything the compiler knows about a built-in reducer, in one entry per reducer.
 * Every phase reads it instead of switching on the reducer's name — binding (which names are built in),
 * checking (does the field's type fit, G3002; does a subgraph mapping count a value twice), lowering (the
 * empty value a field starts from) and emission (the update type, the run-time test of a write, the
 * runtime function that merges a write and the fold variant `apply` calls).
 *
 * Adding a built-in reducer is one entry here plus its function in runtime/reducers.ts (exported by the
 * runtime's entry and listed in 5-emit/runtime-api.ts); test/compiler/reducer-registry.test.ts runs every
 * entry through the checker, the emitter and the runtime.
 */
import type { DslType, ReducerKind } from "./2-bind/model.ts";
import type { ExprIR } from "./4-lower/ir.ts";
import { isArray, isNumeric, isObjectLike } from "./3-check/typesystem.ts";
import type { RuntimeValue } from "./5-emit/runtime-api.ts";

/**
 * What a node may write into a field with this reducer, as the update type, the run-time test of a write and
 * the DSL type a subgraph mapping may bring back:
 * - `value`: a value of the field's type (replace);
 * - `item-or-list`: one element or an array of elements (list reducers);
 * - `number`: a number to add;
 * - `partial`: a partial value of the field's object type.
 */
export type UpdateShape = "value" | "item-or-list" | "number" | "partial";

export interface ReducerDef {
  /** the field type the reducer needs (G3002 when it does not fit); undefined: any type */
  readonly fits?: {
    readonly test: (t: DslType) => boolean;
    /** completes "`<reducer>` needs …" */
    readonly needs: string;
    readonly hint: string;
  };
  /** the value a field starts from when it declares no default; undefined: unset until first written */
  readonly empty?: ExprIR;
  readonly update: UpdateShape;
  /**
   * Writes are not tested at run time: the reducer accepts more than the update type says (`messages`
   * takes strings, `[role, content]` tuples and LangChain instances).
   */
  readonly trustedWrites?: true;
  /**
   * The runtime function that merges one write into the current value, typed by the field (generated code
   * passes it to the fold without a cast); undefined for replace, which has no merge.
   */
  readonly op?: RuntimeValue;
  /** the runtime fold of several writes into a field that always holds a value (`foldSet` otherwise) */
  readonly foldSet?: RuntimeValue;
  /**
   * Folding the field's own value back in changes it (a subgraph that received the field and returns it
   * whole through this reducer counts the old value twice, G5xxx's warning).
   */
  readonly accumulates: boolean;
}

const LIST_HINT = "use `sum` for numbers, `merge` for objects, or make the field an array";
const emptyList: ExprIR = { k: "array", items: [] };

export const REDUCERS = {
  append: {
    fits: { test: isArray, needs: "an array field (`T[]`)", hint: LIST_HINT },
    empty: emptyList,
    update: "item-or-list",
    op: "append",
    foldSet: "foldAppend",
    accumulates: true,
  },
  messages: {
    fits: { test: isArray, needs: "an array of messages (`Message[]`)", hint: LIST_HINT },
    empty: emptyList,
    update: "item-or-list",
    trustedWrites: true,
    op: "addMessages",
    accumulates: false,
  },
  sum: {
    fits: { test: isNumeric, needs: "a `number` field", hint: "use `append` for lists, or make the field a number" },
    empty: { k: "lit", value: 0 },
    update: "number",
    op: "sum",
    accumulates: true,
  },
  merge: {
    fits: { test: isObjectLike, needs: "an object or `Record<string, T>` field", hint: "use `merge` only on object or Record fields" },
    empty: { k: "object", entries: [] },
    update: "partial",
    op: "merge",
    accumulates: false,
  },
  union: {
    fits: { test: isArray, needs: "an array field (`T[]`)", hint: LIST_HINT },
    empty: emptyList,
    update: "item-or-list",
    op: "union",
    accumulates: false,
  },
  /** `reduce replace`: the default (LangGraph's LastValue), written out */
  replace: { update: "value", accumulates: false },
} as const satisfies Record<string, ReducerDef>;

export type BuiltinReducerName = keyof typeof REDUCERS;

export const BUILTIN_REDUCER_NAMES = Object.keys(REDUCERS) as BuiltinReducerName[];

export function isBuiltinReducer(name: string): name is BuiltinReducerName {
  return Object.hasOwn(REDUCERS, name);
}

export function reducerDef(name: BuiltinReducerName): ReducerDef {
  return REDUCERS[name];
}

/** Whether a field with this reducer holds a value from the start (the reducer's empty value) without a default. */
export function startsSet(r: ReducerKind): boolean {
  return r.kind === "builtin" && reducerDef(r.name).empty !== undefined;
}
