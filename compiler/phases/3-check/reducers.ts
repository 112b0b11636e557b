/** Reducers: known, fitting the field's type, and one reducer per field across schema blocks. */
import { d, rel } from "../../diagnostics/messages.ts";
import { suggest } from "../../diagnostics/did-you-mean.ts";
import { findImport, type BoundGraph } from "../2-bind/model.ts";
import { typeToString } from "../2-bind/types.ts";
import { BUILTIN_REDUCER_NAMES, isBuiltinReducer, reducerDef } from "../reducers.ts";
import type { CheckContext } from "./context.ts";
import { nonNullable } from "./typesystem.ts";

export function checkReducers(g: BoundGraph, ctx: CheckContext): void {
  const file = ctx.program.files.get(g.file);
  for (const field of g.fields.values()) {
    let first: { name: string; span: import("../../../grammar/span.ts").Span } | undefined;
    for (const site of field.declarations) {
      const r = site.decl.reducer;
      if (!r || r.name === "") continue;
      if (!isBuiltinReducer(r.name)) {
        const imp = file ? findImport(file, r.name) : undefined;
        if (!imp) {
          const candidates = [
            ...BUILTIN_REDUCER_NAMES.map((n) => ({ name: n })),
            ...(file?.imports.filter((i) => i.kind === "value").map((i) => ({ name: i.local, span: i.span })) ?? []),
          ];
          ctx.diagnostics.push(
            d.unknownReducer(r.span, { name: r.name, suggestions: suggest(r.name, candidates), builtins: BUILTIN_REDUCER_NAMES.join(", ") }),
          );
          continue;
        }
        if (imp.kind !== "value") {
          ctx.diagnostics.push(
            d.importKindMismatch(
              r.span,
              {
                name: r.name,
                expected: "a TS function",
                actual: imp.kind === "type" ? "a type-only import" : "a graph",
              },
              [rel(imp.span, "imported here")],
            ),
          );
          continue;
        }
      }
      if (first && first.name !== r.name) {
        ctx.diagnostics.push(
          d.reducerConflict(r.span, { name: field.name, first: first.name, second: r.name }, [
            rel(first.span, "first reducer here"),
          ]),
        );
      }
      first ??= { name: r.name, span: r.span };
    }

    const r = field.reducer;
    if (r.kind !== "builtin") continue;
    const need = reducerDef(r.name).fits;
    const t = nonNullable(field.type);
    if (need && !need.test(t)) {
      ctx.diagnostics.push(
        d.reducerTypeMismatch(
          r.span,
          { name: field.name, reducer: r.name, type: typeToString(field.type), needs: need.needs, hint: need.hint },
          [rel(field.typeExpr?.span ?? field.span, "field type declared here")],
        ),
      );
    }
  }
}
