/**
 * Name rules inside one graph: duplicate blocks, fields, schemas, nodes, vars; reserved names; a node named
 * like a field. (Duplicate imports, types and graphs are file-level and reported by bind.)
 */
import type { FieldDecl, Ident } from "../../../grammar/ast.ts";
import { d, rel } from "../../diagnostics/messages.ts";
import type { BoundGraph } from "../2-bind/model.ts";
import type { CheckContext } from "./context.ts";

/** Names that break plain JS objects when used as keys. */
export const UNSAFE_NAMES = ["__proto__", "constructor", "prototype"];

/**
 * The other members every plain object inherits from `Object.prototype` (written out, not read from the
 * host, so the rule does not depend on the engine): as a key of a plain object they are "present" before
 * being set (`"toString" in o`) and read as functions.
 */
export const PROTOTYPE_NAMES = [
  "toString", "toLocaleString", "valueOf", "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable",
  "__defineGetter__", "__defineSetter__", "__lookupGetter__", "__lookupSetter__",
];

export function checkReserved(id: Ident, what: string, ctx: CheckContext): boolean {
  if (UNSAFE_NAMES.includes(id.name) || id.name === "START" || id.name === "END") {
    ctx.diagnostics.push(d.reservedName(id.span, { name: id.name, what }));
    return true;
  }
  if (PROTOTYPE_NAMES.includes(id.name)) {
    ctx.diagnostics.push(d.objectPrototypeName(id.span, { name: id.name, what }));
    return true;
  }
  return false;
}

/** Reports the second and later declarations of one name in a list. */
export function checkDuplicates(ids: readonly Ident[], block: string, ctx: CheckContext): void {
  const seen = new Map<string, Ident>();
  for (const id of ids) if (id.name !== "") declare(id, seen, block, ctx);
}

/** Records `id` in `seen`, or reports it (G2004) when its name was declared before. */
function declare(id: Ident, seen: Map<string, Ident>, block: string, ctx: CheckContext): void {
  const first = seen.get(id.name);
  if (first) ctx.diagnostics.push(d.duplicateField(id.span, { name: id.name, block }, [rel(first.span, "first declared here")]));
  else seen.set(id.name, id);
}

export function checkNames(g: BoundGraph, ctx: CheckContext): void {
  const members = g.decl.members;
  const once = new Map<string, Ident>();
  for (const m of members) {
    if (m.kind === "State" || m.kind === "Input" || m.kind === "Output") {
      const word = m.kind.toLowerCase();
      const first = once.get(word);
      const at: Ident = { kind: "Ident", name: word, span: m.span };
      if (first)
        ctx.diagnostics.push(d.duplicateSchema(m.span, { name: word }, [rel(first.span, "first declared here")]));
      else once.set(word, at);
    }
  }

  const fieldsOf = (list: readonly FieldDecl[]) => list.map((f) => f.name);
  for (const m of members) {
    switch (m.kind) {
      case "State":
      case "Input":
      case "Output":
        checkDuplicates(fieldsOf(m.fields), `\`${m.kind.toLowerCase()}\``, ctx);
        for (const f of m.fields) checkReserved(f.name, "field", ctx);
        break;
      case "Private":
        checkDuplicates(fieldsOf(m.fields), `private schema \`${m.name.name}\``, ctx);
        for (const f of m.fields) checkReserved(f.name, "field", ctx);
        break;
      case "Vars":
        checkDuplicates(fieldsOf(m.vars), "`vars`", ctx);
        for (const v of m.vars) checkReserved(v.name, "variable", ctx);
        break;
    }
  }
  // vars may be split over several blocks; duplicates across blocks
  checkDuplicatesAcross(
    members.flatMap((m) => (m.kind === "Vars" ? [m.vars.map((v) => v.name)] : [])),
    "`vars`",
    ctx,
  );

  // private schemas: unique, and not named like the graph's own schemas
  const schemas = new Map<string, Ident>();
  for (const m of members) {
    if (m.kind !== "Private" || m.name.name === "") continue;
    const first = schemas.get(m.name.name);
    if (first || ["State", "Input", "Output"].includes(m.name.name)) {
      ctx.diagnostics.push(
        d.duplicateSchema(m.name.span, { name: m.name.name }, first ? [rel(first.span, "first declared here")] : []),
      );
    } else schemas.set(m.name.name, m.name);
  }

  // nodes and subgraph nodes share one namespace
  const nodes = new Map<string, Ident>();
  for (const m of members) {
    if (m.kind !== "Node" && m.kind !== "Subgraph") continue;
    const id = m.name;
    if (id.name === "") continue;
    if (checkReserved(id, "node", ctx)) continue;
    const first = nodes.get(id.name);
    if (first) {
      ctx.diagnostics.push(
        d.duplicateNode(id.span, { name: id.name, graph: g.name }, [rel(first.span, "first declared here")]),
      );
      continue;
    }
    nodes.set(id.name, id);
    const field = g.fields.get(id.name);
    if (field)
      ctx.diagnostics.push(d.nodeNameIsField(id.span, { name: id.name }, [rel(field.span, "field declared here")]));
  }
}

function checkDuplicatesAcross(lists: Ident[][], block: string, ctx: CheckContext): void {
  if (lists.length < 2) return;
  const seen = new Map<string, Ident>();
  for (const list of lists) {
    const local = new Set<string>();
    for (const id of list) {
      if (id.name === "" || local.has(id.name)) continue; // same-block duplicates are reported per block
      local.add(id.name);
      declare(id, seen, block, ctx);
    }
  }
}
