/** Reducers: known, fitting the field's type, and one reducer per field across schema blocks. */
import { d, rel } from "../../diagnostics/messages.ts";
import { suggest } from "../../diagnostics/did-you-mean.ts";
import { BUILTIN_REDUCERS, findImport, type BoundGraph, type DslType } from "../2-bind/model.ts";
import { typeToString } from "../2-bind/types.ts";
import type { CheckContext } from "./context.ts";
import { isArray, isNumeric, isObjectLike, nonNullable } from "./typesystem.ts";

/** What each built-in reducer needs from the field type (undefined: anything). */
const NEEDS: Record<string, { test: (t: DslType) => boolean; needs: string } | undefined> = {
  sum: { test: isNumeric, needs: "a `number` field" },
  append: { test: isArray, needs: "an array field (`T[]`)" },
  union: { test: isArray, needs: "an array field (`T[]`)" },
  messages: { test: isArray, needs: "an array of messages (`Message[]`)" },
  merge: { test: isObjectLike, needs: "an object or `Record<string, T>` field" },
  replace: undefined,
};

export function checkReducers(g: BoundGraph, ctx: CheckContext): void {
  const file = ctx.program.files.get(g.file);
  for (const field of g.fields.values()) {
    let first: { name: string; span: import("../../../grammar/span.ts").Span } | undefined;
    for (const site of field.declarations) {
      const r = site.decl.reducer;
      if (!r || r.name === "") continue;
      const builtin = (BUILTIN_REDUCERS as readonly string[]).includes(r.name);
      if (!builtin) {
        const imp = file ? findImport(file, r.name) : undefined;
        if (!imp) {
          const candidates = [
            ...BUILTIN_REDUCERS.map((n) => ({ name: n })),
            ...(file?.imports.filter((i) => i.kind === "value").map((i) => ({ name: i.local, span: i.span })) ?? []),
          ];
          ctx.diagnostics.push(d.unknownReducer(r.span, { name: r.name, suggestions: suggest(r.name, candidates) }));
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
    const need = NEEDS[r.name];
    const t = nonNullable(field.type);
    if (need && !need.test(t)) {
      ctx.diagnostics.push(
        d.reducerTypeMismatch(
          r.span,
          { name: field.name, reducer: r.name, type: typeToString(field.type), needs: need.needs },
          [rel(field.typeExpr?.span ?? field.span, "field type declared here")],
        ),
      );
    }
  }
}
