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
  const names = (xs: readonly string[]) => `[${xs.map(str).join(", ")}]`;
  const owned = ownedFields(g);
  const body = [
    `name: ${str(g.name)},`,
    `compilerVersion: ${str(cx.version)},`,
    emitInit(g, cx),
    input,
    emitOutput(g, n, cx),
    apply.prop,
    emitClearEphemeral(g, cx),
    checkUpdate,
    nodes,
    `start: {\n${edges(g, g.start, n, "START", cx)}\n},`,
    `joins: [${g.joins.map((j) => cx.traced(j.span, `{ sources: ${names(j.sources)}, target: ${str(j.target)} },`)).join("\n")}],`,
    `interruptBefore: ${names(g.interruptBefore)},`,
    `interruptAfter: ${names(g.interruptAfter)},`,
    g.recursionLimit !== undefined ? `recursionLimit: ${g.recursionLimit},` : "",
    owned.length > 0 ? `owned: ${names(owned)},` : "",
    emitVars(g, cx),
  ].filter((x) => x !== "");
  const stateful = statefulSpecs(g, n, cx);
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
          // routers is constructed without router code (lean.ts compileFunction)
          (spec) => `${compileFunction(g) === "LeanGraph" ? "new " : ""}${rt(compileFunction(g))}<${n.input}, ${n.output}, ${n.state}, ${n.nodeName}, ${n.update}>(${spec})`,
          `${rt("GraphSpec")}<${n.state}, ${n.output}, ${n.update}>`,
        ),
      ].join("\n"),
    ),
  ].join("\n");
}
