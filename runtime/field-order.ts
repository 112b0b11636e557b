/**
 * A graph's values in its field order, as LangGraph reads its channels for a stream's `values` chunk and for
 * `getState().values`. A field without an initial value joins the values object when first written, so the
 * object's own key order can differ from the declaration order; the compiler then gives the order
 * (`GraphSpec.fields`) and leaves it out where the two cannot differ.
 */
import type { GraphSpec, Values } from "./spec.ts";

export function inFieldOrder(spec: GraphSpec, values: Values): Values {
  const order = spec.fields;
  // (fromEntries defines keys, so a `__proto__` field stays a field)
  return order === undefined ? { ...values } : Object.fromEntries(order.filter((f) => Object.hasOwn(values, f)).map((f) => [f, values[f]]));
}
