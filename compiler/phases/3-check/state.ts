/**
 * Fields: types present, defaults fit, one type per field across blocks, references in input/output/private
 * lists exist, private fields that shadow state, input/output fields that are not in state.
 */
import type { FieldDecl } from "../../../grammar/ast.ts";
import { d, rel } from "../../diagnostics/messages.ts";
import { suggest } from "../../diagnostics/did-you-mean.ts";
import type { BoundGraph } from "../2-bind/model.ts";
import { TypeResolver, typeKey, typeToString, union } from "../2-bind/types.ts";
import type { DslType } from "../2-bind/model.ts";
import { fieldCandidates, type CheckContext } from "./context.ts";
import { assignable, exprType } from "./typesystem.ts";

/** How a default's type is described ("a string", "an array of numbers" …) for the label. */
export function describe(t: DslType): string {
  return `\`${typeToString(widen(t))}\``;
}

/** `0` -> number, `["a"]` -> string[]: how a user thinks of a default's type */
function widen(t: DslType): DslType {
  switch (t.kind) {
    case "literal":
      return { kind: typeof t.value as "string" | "number" | "boolean" };
    case "array":
      return { kind: "array", element: widen(t.element) };
    case "union":
      return union(t.members.map(widen));
    case "object":
      return { kind: "object", members: t.members.map((m) => ({ ...m, type: widen(m.type) })) };
    default:
      return t;
  }
}

export function checkState(g: BoundGraph, ctx: CheckContext): void {
  const diags = ctx.diagnostics;
  for (const m of g.decl.members) {
    if (m.kind === "State") {
      for (const f of m.fields)
        if (!f.type && f.name.name !== "") diags.push(d.fieldNeedsType(f.name.span, { name: f.name.name }));
    } else if (m.kind === "Input" || m.kind === "Output" || m.kind === "Private") {
      const context = m.kind === "Private" ? `private schema \`${m.name.name}\`` : `\`${m.kind.toLowerCase()}\``;
      for (const f of m.fields) {
        if (f.type || f.name.name === "" || g.fields.has(f.name.name)) continue;
        diags.push(
          d.unknownField(f.name.span, {
            name: f.name.name,
            graph: g.name,
            context,
            suggestions: suggest(f.name.name, fieldCandidates(g)),
          }),
        );
      }
    }
  }

  for (const field of g.fields.values()) {
    const [defining, ...others] = field.declarations;
    if (field.origin.kind === "input" || field.origin.kind === "output") {
      diags.push(d.schemaFieldNotInState(field.span, { name: field.name, block: `\`${field.origin.kind}\`` }));
    }
    for (const site of field.declarations)
      checkDefault(site.decl, site.decl === field.decl ? field.type : undefined, g, ctx);
    for (const other of others) {
      const decl = other.decl;
      if (!decl.type || !defining) continue;
      if (other.origin.kind === "private" && field.origin.kind === "state") {
        diags.push(
          d.privateShadowsState(decl.name.span, { name: field.name, schema: other.origin.schema }, [
            rel(field.span, "state field declared here"),
          ]),
        );
      }
      if (!field.typeExpr) continue;
      const t = typeOf(decl, g, ctx);
      if (typeKey(t) !== typeKey(field.type)) {
        diags.push(
          d.fieldTypeConflict(
            decl.type.span,
            { name: field.name, first: typeToString(field.type), second: typeToString(t) },
            [rel(field.typeExpr.span, "first declared here")],
          ),
        );
      }
    }
  }
}

/** the type of a later declaration (bind resolved it already and reported problems; re-resolve quietly) */
function typeOf(decl: FieldDecl, g: BoundGraph, ctx: CheckContext) {
  const file = ctx.program.files.get(g.file);
  if (!file || !decl.type) return { kind: "unknown" } as const;
  // resolution is pure apart from diagnostics; a scratch list keeps them from being reported twice
  return resolveQuietly(decl, file, ctx);
}

function resolveQuietly(decl: FieldDecl, file: Parameters<TypeResolver["resolve"]>[1], ctx: CheckContext) {
  return new TypeResolver(ctx.program.files, []).resolve(decl.type!, file);
}

function checkDefault(
  decl: FieldDecl,
  declared: ReturnType<typeof exprType> | undefined,
  g: BoundGraph,
  ctx: CheckContext,
) {
  if (!decl.default || !decl.type) return;
  const target = declared ?? typeOf(decl, g, ctx);
  const actual = exprType(decl.default, undefined, ctx.diagnostics);
  if (!assignable(actual, target)) {
    ctx.diagnostics.push(
      d.defaultTypeMismatch(decl.default.span, {
        name: decl.name.name,
        expected: typeToString(target),
        actual: describe(actual),
      }),
    );
  }
}
