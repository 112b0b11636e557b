/**
 * TypeExpr (as written) -> DslType (normalised): aliases expanded, `T?` as `T | undefined`, unions flattened
 * and de-duplicated, `Record<string, T>` as `record`, imported TS types as `opaque`. Unresolvable names
 * become `unknown` after one diagnostic, so a mistake is reported once.
 */
import type { TypeExpr } from "../../../grammar/ast.ts";
import type { Diagnostic } from "../../../grammar/diagnostic.ts";
import { d, rel } from "../../diagnostics/messages.ts";
import { suggest } from "../../diagnostics/did-you-mean.ts";
import { findImport, type BoundFile, type BoundTypeAlias, type DslType } from "./model.ts";

export const T = {
  string: { kind: "string" } as DslType,
  number: { kind: "number" } as DslType,
  boolean: { kind: "boolean" } as DslType,
  null: { kind: "null" } as DslType,
  undefined: { kind: "undefined" } as DslType,
  unknown: { kind: "unknown" } as DslType,
  literal: (value: string | number | boolean): DslType => ({ kind: "literal", value }),
  array: (element: DslType): DslType => ({ kind: "array", element }),
};

const PRIMITIVES: Record<string, DslType> = {
  string: T.string,
  number: T.number,
  boolean: T.boolean,
  null: T.null,
  undefined: T.undefined,
  unknown: T.unknown,
};

/** Builds a union, flattening nested unions and dropping duplicates and members a wider member covers. */
export function union(members: readonly DslType[]): DslType {
  const flat: DslType[] = [];
  for (const m of members) {
    if (m.kind === "union") flat.push(...m.members);
    else flat.push(m);
  }
  if (flat.some((m) => m.kind === "unknown")) return T.unknown;
  const out: DslType[] = [];
  const keys = new Set<string>();
  for (const m of flat) {
    if (m.kind === "literal" && flat.some((w) => w.kind === typeof m.value)) continue;
    const k = typeKey(m);
    if (keys.has(k)) continue;
    keys.add(k);
    out.push(m);
  }
  if (out.length === 1) return out[0]!;
  return { kind: "union", members: out };
}

/** A canonical string for structural equality. */
export function typeKey(t: DslType): string {
  switch (t.kind) {
    case "literal":
      return JSON.stringify(t.value);
    case "array":
      return `${typeKey(t.element)}[]`;
    case "object":
      return `{${t.members.map((m) => `${m.name}${m.optional ? "?" : ""}:${typeKey(m.type)}`).join(",")}}`;
    case "record":
      return `Record<${typeKey(t.value)}>`;
    case "union":
      return t.members.map(typeKey).sort().join("|");
    case "opaque":
      return `${t.module}#${t.name}<${t.args.map(typeKey).join(",")}>`;
    default:
      return t.kind;
  }
}

/** The type as a user would write it (for messages). */
export function typeToString(t: DslType): string {
  switch (t.kind) {
    case "literal":
      return typeof t.value === "string" ? JSON.stringify(t.value) : String(t.value);
    case "array": {
      const inner = typeToString(t.element);
      return t.element.kind === "union" ? `(${inner})[]` : `${inner}[]`;
    }
    case "object":
      return t.members.length === 0
        ? "{}"
        : `{ ${t.members.map((m) => `${m.name}${m.optional ? "?" : ""}: ${typeToString(m.type)}`).join(", ")} }`;
    case "record":
      return `Record<string, ${typeToString(t.value)}>`;
    case "union":
      return t.members.map(typeToString).join(" | ");
    case "opaque":
      return t.args.length ? `${t.name}<${t.args.map(typeToString).join(", ")}>` : t.name;
    default:
      return t.kind;
  }
}

/** Resolves type expressions in the scope of one file, reporting unknown names once per use. */
export class TypeResolver {
  private readonly resolving: string[] = [];
  private readonly done = new Set<BoundTypeAlias>();

  constructor(
    private readonly files: Map<string, BoundFile>,
    private readonly diagnostics: Diagnostic[],
  ) {}

  resolve(expr: TypeExpr, file: BoundFile): DslType {
    switch (expr.kind) {
      case "LiteralType":
        return T.literal(expr.value);
      case "ArrayType":
        return T.array(this.resolve(expr.element, file));
      case "UnionType":
        return union(expr.members.map((m) => this.resolve(m, file)));
      case "OptionalType":
        return union([this.resolve(expr.inner, file), T.undefined]);
      case "ObjectType":
        return {
          kind: "object",
          members: expr.members.map((m) => ({
            name: m.name.name,
            optional: m.optional,
            type: m.optional ? union([this.resolve(m.type, file), T.undefined]) : this.resolve(m.type, file),
          })),
        };
      case "NamedType":
        return this.named(expr, file);
    }
  }

  /** Resolves an alias declared in `file` (memoised; detects cycles). */
  alias(alias: BoundTypeAlias, file: BoundFile): DslType {
    if (this.done.has(alias)) return alias.type;
    const key = `${file.path}#${alias.name}`;
    const at = this.resolving.indexOf(key);
    if (at >= 0) {
      const cycle = [...this.resolving.slice(at), key].map((k) => k.slice(k.indexOf("#") + 1));
      this.diagnostics.push(d.recursiveType(alias.decl.name.span, { cycle }));
      return T.unknown;
    }
    this.resolving.push(key);
    const t = this.resolve(alias.decl.type, file);
    this.resolving.pop();
    // a cycle reported deeper down already left `unknown` in place; keep the first result
    if (!this.done.has(alias)) {
      alias.type = t;
      this.done.add(alias);
    }
    return alias.type;
  }

  private named(expr: Extract<TypeExpr, { kind: "NamedType" }>, file: BoundFile): DslType {
    const name = expr.name.name;
    if (name === "") return T.unknown; // parser recovery already reported it
    const noArgs = (t: DslType): DslType => {
      if (expr.args.length === 0) return t;
      this.diagnostics.push(d.badTypeArguments(expr.span, { name, expected: `\`${name}\` without type arguments` }));
      return T.unknown;
    };
    const prim = PRIMITIVES[name];
    if (prim) return noArgs(prim);
    if (name === "Record") {
      const [k, v, ...rest] = expr.args;
      const key = k ? this.resolve(k, file) : undefined;
      if (!k || !v || rest.length > 0 || (key && key.kind !== "string" && key.kind !== "unknown")) {
        this.diagnostics.push(d.badTypeArguments(expr.span, { name, expected: "`Record<string, T>`" }));
        return T.unknown;
      }
      return { kind: "record", value: this.resolve(v, file) };
    }
    const local = file.types.get(name);
    if (local) return noArgs(this.alias(local, file));
    const imp = findImport(file, name);
    if (imp) {
      if (imp.kind === "type") {
        return {
          kind: "opaque",
          name: imp.local,
          module: imp.module,
          args: expr.args.map((a) => this.resolve(a, file)),
        };
      }
      if (imp.kind === "graph") {
        const target = imp.resolvedFile ? this.files.get(imp.resolvedFile) : undefined;
        if (!target) return T.unknown; // file not found: reported by the loader
        const alias = target.types.get(imp.exported);
        if (alias) return noArgs(this.alias(alias, target));
        if (target.graphs.has(imp.exported)) {
          this.diagnostics.push(
            d.importKindMismatch(expr.name.span, { name, expected: "a type", actual: "a graph" }, [
              rel(imp.span, "imported here"),
            ]),
          );
        }
        return T.unknown; // unknown export: reported at the import
      }
      this.diagnostics.push(
        d.importKindMismatch(expr.name.span, { name, expected: "a type", actual: "a TS value import" }, [
          rel(imp.span, "imported here"),
        ]),
      );
      return T.unknown;
    }
    const candidates = [
      ...Object.keys(PRIMITIVES).map((n) => ({ name: n })),
      ...[...file.types.values()].map((a) => ({ name: a.name, span: a.decl.name.span })),
      ...file.imports.filter((i) => i.kind !== "value").map((i) => ({ name: i.local, span: i.span })),
    ];
    this.diagnostics.push(d.unknownType(expr.name.span, { name, suggestions: suggest(name, candidates) }));
    return T.unknown;
  }
}
