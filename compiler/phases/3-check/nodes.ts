/** Function nodes: implementation imported, reads/writes name real fields or schemas, goto targets exist. */
import type { Ident, SchemaRef } from "../../../grammar/ast.ts";
import { d, rel } from "../../diagnostics/messages.ts";
import { suggest } from "../../diagnostics/did-you-mean.ts";
import { findImport, type BoundFile, type BoundGraph, type BoundNode, type NameRef } from "../2-bind/model.ts";
import { fieldCandidates, nodeCandidates, type CheckContext } from "./context.ts";
import { checkDuplicates } from "./names.ts";

/** Reports an identifier that should name an imported TS value (node fn, router, send fn, transform). */
export function checkImportedFn(id: NameRef, role: string, file: BoundFile | undefined, ctx: CheckContext): void {
  if (id.name === "" || !file) return;
  const imp = findImport(file, id.name);
  if (imp?.kind === "value") return;
  if (imp) {
    ctx.diagnostics.push(
      d.importKindMismatch(
        id.span,
        { name: id.name, expected: "a TS value", actual: imp.kind === "type" ? "a type-only import" : "a graph" },
        [rel(imp.span, "imported here")],
      ),
    );
    return;
  }
  const candidates = file.imports.filter((i) => i.kind === "value").map((i) => ({ name: i.local, span: i.span }));
  ctx.diagnostics.push(d.unknownFunction(id.span, { name: id.name, role, suggestions: suggest(id.name, candidates) }));
}

function checkSchemaRef(s: SchemaRef | undefined, g: BoundGraph, what: string, ctx: CheckContext): void {
  if (!s) return;
  if (s.kind === "FieldList") {
    checkDuplicates(s.fields, what, ctx);
    for (const f of s.fields) checkField(f, g, what, ctx);
    return;
  }
  const name = s.name.name;
  if (name === "" || ["State", "Input", "Output"].includes(name) || g.privates.has(name)) return;
  const available = ["State", "Input", "Output", ...g.privates.keys()];
  ctx.diagnostics.push(
    d.unknownSchema(s.name.span, {
      name,
      graph: g.name,
      available,
      // a field name here means a field list was meant: `(topic)` for `({ topic })`
      suggestions: g.fields.has(name)
        ? [{ name: `{ ${name} }` }]
        : suggest(
            name,
            available.map((n) => ({ name: n, span: g.privates.get(n)?.span })),
          ),
    }),
  );
}

export function checkField(f: Ident, g: BoundGraph, context: string, ctx: CheckContext): void {
  if (f.name === "" || g.fields.has(f.name)) return;
  ctx.diagnostics.push(
    d.unknownField(f.span, { name: f.name, graph: g.name, context, suggestions: suggest(f.name, fieldCandidates(g)) }),
  );
}

/** goto targets (of function and subgraph nodes): nodes of the graph or END */
export function checkGoto(node: BoundNode, g: BoundGraph, ctx: CheckContext): void {
  for (const t of node.goto ?? []) {
    if (t.name === "END" || g.nodes.has(t.name)) continue;
    if (t.name === "START") ctx.diagnostics.push(d.gotoStart(t.span, {}));
    else
      ctx.diagnostics.push(
        d.gotoUnknownNode(t.span, { name: t.name, graph: g.name, suggestions: suggest(t.name, nodeCandidates(g)) }),
      );
  }
}

export function checkNodes(g: BoundGraph, ctx: CheckContext): void {
  const file = ctx.program.files.get(g.file);
  for (const m of g.decl.members) {
    if (m.kind !== "Node" || m.name.name === "") continue;
    checkSchemaRef(m.reads, g, `the reads of node \`${m.name.name}\``, ctx);
    checkSchemaRef(m.writes, g, `the writes of node \`${m.name.name}\``, ctx);
    checkImportedFn(
      { name: m.impl.name, span: m.impl.span },
      `the implementation of node \`${m.name.name}\``,
      file,
      ctx,
    );
    if (m.goto) checkDuplicates(m.goto, `the goto list of \`${m.name.name}\``, ctx);
  }
  for (const m of g.decl.members)
    if (m.kind === "Subgraph" && m.goto && m.name.name !== "")
      checkDuplicates(m.goto, `the goto list of \`${m.name.name}\``, ctx);
  for (const node of g.nodes.values()) checkGoto(node, g, ctx);
}
