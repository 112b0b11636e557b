/**
 * What a subgraph node's generated call can leave out. Its child's input check, when what the check would
 * test is already proven for the projection the node hands over: the call passes it as checked
 * (`runSubgraphNow`'s third argument) and the child takes it as it is — one `input` call (a key loop, a type
 * test per field, a copy) less per child run. Its mapping back, when the child's output is the update as it is.
 */
import type { FieldIR, GraphIR, SubgraphNodeIR } from "../4-lower/ir.ts";
import { admitsUndefined } from "./types.ts";

/**
 * Reducers whose every result passes the field's own run-time test when each update passed its update test:
 * the value itself (`replace`), a list of tested items (`append`, `union`), a sum of numbers. `merge` may
 * leave out members an object type requires, `messages` converts what it is given, a custom reducer
 * returns what it likes: their fields keep the child's check.
 */
const CLOSED = new Set(["append", "union", "sum"]);

function holdsItsType(f: FieldIR): boolean {
  const r = f.reducer;
  return r.kind === "replace" || (r.kind === "builtin" && CLOSED.has(r.name));
}

/**
 * True when every item is a field of the parent whose run-time test is the child field's (the parent tested
 * each value written there: its input, node updates and Command updates; a run without a checkpointer holds
 * no other values) or the child's test accepts anything, and every input field the child requires comes
 * from a parent field that always holds a value. A slot may be bound to another graph: never checked.
 */
export function childInputChecked(parent: GraphIR, node: SubgraphNodeIR, child: GraphIR | undefined): boolean {
  if (child === undefined || node.slot !== undefined || node.in.kind !== "fields") return false;
  const parentFields = new Map(parent.fields.map((f) => [f.name, f]));
  const childFields = new Map(child.fields.map((f) => [f.name, f]));
  const inputs = new Set(child.input);
  const supplied = new Map<string, FieldIR>();
  for (const item of node.in.items) {
    if (item.expr.k !== "field") return false;
    const from = parentFields.get(item.expr.name);
    const to = childFields.get(item.child);
    if (from === undefined || to === undefined || !inputs.has(item.child)) return false;
    if (to.check.k !== "any" && !(holdsItsType(from) && JSON.stringify(from.check) === JSON.stringify(to.check))) return false;
    supplied.set(item.child, from);
  }
  if (!child.inputDeclared) return true;
  // the child's required input fields (spec-data.ts emitInput): each must come from a field that is always set
  return child.input.every((name) => {
    const f = childFields.get(name)!;
    return f.init !== undefined || admitsUndefined(f.type) || supplied.get(name)?.alwaysSet === true;
  });
}

/**
 * True when the node maps back every output field of the child to the parent field of the same name, in the
 * child's output order: the child's output object (made for this call) is then the update itself, key for key
 * and in the same order (what an `updates` chunk shows), so no mapping function copies it.
 */
export function outputAsIs(node: SubgraphNodeIR, child: GraphIR): boolean {
  if (node.slot !== undefined || node.out.kind !== "fields") return false;
  const items = node.out.items;
  return items.length === child.output.length && items.every((i, k) => i.parent === i.child && i.child === child.output[k]);
}
