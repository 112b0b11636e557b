/**
 * Interfaces and `implements` (docs/contracts.md). An interface's own fields get the graph field rules
 * (types present, defaults fit, reducers fit, bare names refer to declared fields); a graph that implements
 * it is checked structurally, as TypeScript checks `implements`: every interface input field is an input of
 * the graph whose type accepts the interface's (callers pass those values), every interface output field
 * is an output whose type fits the interface's (callers expect those), both with the same reducer, and the
 * graph requires no input the interface does not declare.
 */
import { posix } from "node:path";
import { appendAll } from "../../../grammar/append.ts";
import { d, rel } from "../../diagnostics/messages.ts";
import { suggest } from "../../diagnostics/did-you-mean.ts";
import type { BoundField, BoundGraph, DslType, ReducerKind } from "../2-bind/model.ts";
import { typeToString } from "../2-bind/types.ts";
import type { CheckContext } from "./context.ts";
import { checkReducers } from "./reducers.ts";
import { checkState } from "./state.ts";
import { assignable } from "./typesystem.ts";

/** The field rules over every interface of the program (once each). */
export function checkInterfaceShapes(ctx: CheckContext): void {
  for (const file of ctx.program.files.values()) {
    for (const iface of file.interfaces.values()) {
      const own: CheckContext = { program: ctx.program, diagnostics: [] };
      checkState(iface.shape, own);
      checkReducers(iface.shape, own);
      // typed `input { x: T }` without `state` is how an interface is normally written: no G3005 there
      appendAll(ctx.diagnostics, own.diagnostics.filter((x) => x.code !== "G3005"));
    }
  }
}

export function checkImplements(g: BoundGraph, ctx: CheckContext): void {
  for (const ref of g.implements) {
    const iface = ref.target;
    if (iface === undefined) {
      const file = ctx.program.files.get(g.file);
      const candidates = file ? [...file.interfaces.values()].map((i) => ({ name: i.name, span: i.decl.name.span })) : [];
      ctx.diagnostics.push(d.unknownInterface(ref.span, { name: ref.name, graph: g.name, suggestions: suggest(ref.name, candidates) }));
      continue;
    }
    const at = (f: BoundField) => [rel(f.span, `declared in \`${iface.name}\` here`)];
    const args = { graph: g.name, iface: iface.name };
    for (const side of ["input", "output"] as const) {
      for (const name of iface.shape[side]) {
        const want = iface.shape.fields.get(name);
        if (!want) continue;
        const have = g[side].includes(name) ? g.fields.get(name) : undefined;
        if (!have) {
          ctx.diagnostics.push(d.interfaceFieldMissing(ref.span, { ...args, side, field: name }, at(want)));
          continue;
        }
        const fits = side === "input" ? assignable(want.type, have.type) : assignable(have.type, want.type);
        if (!fits)
          ctx.diagnostics.push(
            d.interfaceFieldType(have.typeExpr?.span ?? have.span, { ...args, side, field: name, graphType: typeToString(have.type), ifaceType: typeToString(want.type) }, at(want)),
          );
        const [mine, theirs] = [reducerKey(have.reducer, g.file), reducerKey(want.reducer, iface.file)];
        if (mine.key !== theirs.key)
          ctx.diagnostics.push(d.interfaceReducerMismatch(have.span, { ...args, field: name, graphReducer: mine.text, ifaceReducer: theirs.text }, at(want)));
      }
    }
    for (const name of g.input) {
      const f = g.fields.get(name);
      if (!f || iface.shape.input.includes(name) || !requiredInput(g, f)) continue;
      ctx.diagnostics.push(d.interfaceExtraRequiredInput(f.span, { ...args, field: name }, [rel(ref.span, `implements \`${iface.name}\` here`)]));
    }
  }
}

/** A reducer as compared across files: a built-in by name, an imported function by resolved module and export. */
function reducerKey(r: ReducerKind, file: string): { key: string; text: string } {
  if (r.kind === "replace") return { key: "replace", text: "replace" };
  if (r.kind === "builtin") return { key: r.name, text: r.name };
  const module = r.fn.module.startsWith(".") ? posix.join(posix.dirname(file), r.fn.module) : r.fn.module;
  return { key: `${module}#${r.fn.exported}`, text: r.fn.local };
}

/** Required at `invoke` (the rule of the generated input type): a declared input without a default whose type excludes `undefined`. */
function requiredInput(g: BoundGraph, f: BoundField): boolean {
  return g.inputDeclared && f.default === undefined && !admitsUndefined(f.type) && !(f.reducer.kind === "builtin" && f.reducer.name !== "replace");
}

function admitsUndefined(t: DslType): boolean {
  if (t.kind === "undefined" || t.kind === "unknown") return true;
  return t.kind === "union" && t.members.some(admitsUndefined);
}
