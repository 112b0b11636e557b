/**
 * One graph's GraphSpec literal and its compiled graph: `export const GSpec: GraphSpec = {…}` and
 * `export const G = compileGraph<…>(GSpec)`.
 */
import type { GraphIR } from "../4-lower/ir.ts";
import { compileFunction, ownedFields } from "../4-lower/lean.ts";
import type { EmitContext } from "./context.ts";
import { emitCompiled } from "./bind.ts";
import { str } from "./escape.ts";
import { BLANK } from "./format.ts";
import type { GraphNames } from "./names.ts";
import { emitApply, emitClearEphemeral, emitInit, emitInput, emitOutput, emitVars } from "./spec-data.ts";
import { UpdateChecks } from "./spec-checks.ts";
import { edges, emitNodes, statefulSpecs } from "./spec-nodes.ts";

export function emitGraphSpec(g: GraphIR, n: GraphNames, cx: EmitContext): string {
  const rt = cx.scope.rt.bind(cx.scope);
  const input = emitInput(g, cx);
  const checks = new UpdateChecks(g, n, cx);
  const { nodes, decls: nodeDecls, checkUpdate: shared } = emitNodes(g, n, cx, checks);
  const checkUpdate = shared ?? checks.checkUpdate();
  const apply = emitApply(g, n, cx);
  // the field tests first: the node checks and checkUpdate call them
  const decls = [...checks.decls, ...nodeDecls, ...(apply.decl !== undefined ? [apply.decl] : [])];
  const ownSpec = `${rt("GraphSpec")}<${n.state}, ${n.output}, ${n.update}>`;
  // A member whose code spans lines is a top-level const of its own, typed by the spec's member type (no
  // cast, the same contextual typing as in the literal): prettier, in a rebuild, formats only the top-level
  // statements an edit changed (format.ts `formatRaw`), so an edit of a var's default reformats `vars`,
  // not the whole spec. Lines outside a field's markers keep mapping to the graph, as in the literal.
  let specType: string | undefined;
  const member = (name: string, value: string, optional = false): string => {
    if (!value.includes("\n")) return `${name}: ${value},`;
    if (specType === undefined) {
      specType = cx.scope.fresh(`${n.spec}Type`);
      decls.push(`/** The type of \`${n.graph}\`'s spec, whose members are declared one by one below. */\ntype ${specType} = ${ownSpec};`);
    }
    const local = cx.scope.fresh(`${n.spec}${name[0]!.toUpperCase()}${name.slice(1)}`);
    const type = `${specType}[${str(name)}]`;
    decls.push(cx.traced(g.span, `const ${local}: ${optional ? `NonNullable<${type}>` : type} = ${value};`));
    return `${name}: ${local},`;
  };
  const names = (xs: readonly string[]) => `[${xs.map(str).join(", ")}]`;
  const owned = ownedFields(g);
  const clearEphemeral = emitClearEphemeral(g, cx);
  const body = [
    `name: ${str(g.name)},`,
    `compilerVersion: ${str(cx.version)},`,
    member("init", emitInit(g, cx)),
    member("input", input),
    member("output", emitOutput(g, n)),
    // absent when every field is an output field: then any write counts (runtime/superstep.ts writesOutput),
    // without a set lookup in each run's first step
    g.output.length === g.fields.length ? "" : `outputFields: ${names(g.output)},`,
    // the declaration order, where the values' own key order can differ from it (runtime/field-order.ts)
    orderMayDiffer(g) ? `fields: ${names(g.fields.map((f) => f.name))},` : "",
    member("apply", apply.apply),
    apply.applyOne !== undefined ? `applyOne: ${apply.applyOne},` : "",
    clearEphemeral !== "" ? member("clearEphemeral", clearEphemeral, true) : "",
    checkUpdate ? member("checkUpdate", checkUpdate, true) : "",
    nodes,
    `start: {\n${edges(g, g.start, n, "START", cx)}\n},`,
    `joins: [${g.joins.map((j) => cx.traced(j.span, `{ sources: ${names(j.sources)}, target: ${str(j.target)} },`)).join("\n")}],`,
    `interruptBefore: ${names(g.interruptBefore)},`,
    `interruptAfter: ${names(g.interruptAfter)},`,
    g.recursionLimit !== undefined ? `recursionLimit: ${g.recursionLimit},` : "",
    owned.length > 0 ? `owned: ${names(owned)},` : "",
    member("vars", emitVars(g, cx)),
  ].filter((x) => x !== "");
  const stateful = statefulSpecs(g, n, cx);
  const make = compileFunction(g);
  return [
    BLANK,
    ...(stateful.length > 0 ? [...stateful, BLANK] : []),
    ...decls.flatMap((d) => [d, BLANK]),
    cx.traced(
      g.span,
      [
        `/** Graph \`${n.graph}\` as the runtime runs it: every field-dependent step is specialised code. */`,
        emitCompiled(
          g,
          n,
          cx,
          cx.interfaces,
          body.join("\n"),
          // a lean-eligible graph runs on the lean loop (runtime/lean/), in either runtime mode; one without
          // routers is constructed without router code, and a static one runs on the static loop
          // (runtime/static/; lean.ts compileFunction)
          (spec) => `${make === "LeanGraph" || make === "StaticGraph" ? "new " : ""}${rt(make)}<${n.input}, ${n.output}, ${n.state}, ${n.nodeName}, ${n.update}>(${spec})`,
          ownSpec,
        ),
      ].join("\n"),
    ),
  ].join("\n");
}

/**
 * Whether a graph's values object can hold its fields in another order than their declaration: `init` sets
 * the fields with an initial value in order, and any other field joins the object when first written (an
 * ephemeral one again after each step clears it). Only one such field, declared last, keeps the order.
 */
function orderMayDiffer(g: GraphIR): boolean {
  const late = g.fields.filter((f) => f.init === undefined || f.ephemeral);
  return late.length > 1 || (late.length === 1 && late[0] !== g.fields[g.fields.length - 1]);
}
