/**
 * TypeExpr (as written) -> DslType (normalised): aliases expanded, `T?` as `T | undefined`, unions flattened
 * and de-duplicated, `Record<string, T>` as `record`, imported TS types as `opaque`. Unresolvable names
 * become `unknown` after one diagnostic, so a mistake is reported once.
 */
import type { TypeExpr } from "../../../grammar/ast.ts";
import type { Diagnostic } from "../../../grammar/diagnostic.ts";
import { d, MESSAGES, rel } from "../../diagnostics/messages.ts";
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
    if (m.kind === "union") for (const x of m.members) flat.push(x);
    else flat.push(m);
  }
  // the kinds present, once: a literal is covered by its primitive (linear, not a scan per literal)
  const kinds = new Set<string>(flat.map((m) => m.kind));
  if (kinds.has("unknown")) return T.unknown;
  const out: DslType[] = [];
  const keys = new Set<string>();
  for (const m of flat) {
    if (m.kind === "literal" && kinds.has(typeof m.value)) continue;
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

/**
 * Deepest a type may nest once its aliases are expanded; each alias a reference goes through counts as a
 * level too, so 300 chained aliases `type T1 = T2`… exceed it as well as `type T1 = T2[]`…. The parser
 * bounds one written type (MAX_TREE_DEPTH); aliases can stack written types without end, and every pass
 * over a resolved type (keys, messages, emitted TS) recurses. 256, like the parser's limit: far beyond
 * real types, far below the stack.
 */
export const MAX_TYPE_DEPTH = 256;

const TYPE_TOO_DEEP = MESSAGES.typeTooDeep.code;

/** Resolves type expressions in the scope of one file, reporting unknown names once per use. */
export class TypeResolver {
  private readonly resolving: string[] = [];
  private readonly onPath = new Set<string>();
  private readonly done = new Set<BoundTypeAlias>();
  /** levels below each resolved alias (its body's nesting plus the aliases it goes through) */
  private readonly aliasDepth = new Map<BoundTypeAlias, number>();
  /** nesting level of the resolve() in progress, and the deepest level reached below the current alias */
  private level = 0;
  private peak = 0;

  constructor(
    private readonly files: Map<string, BoundFile>,
    private readonly diagnostics: Diagnostic[],
  ) {}

  resolve(expr: TypeExpr, file: BoundFile): DslType {
    if (this.level >= MAX_TYPE_DEPTH) return this.tooDeep(expr);
    this.level++;
    this.peak = Math.max(this.peak, this.level);
    try {
      return this.resolveAt(expr, file);
    } finally {
      this.level--;
    }
  }

  private tooDeep(expr: TypeExpr): DslType {
    this.diagnostics.push(d.typeTooDeep(expr.span, { max: MAX_TYPE_DEPTH }));
    return T.unknown;
  }

  private resolveAt(expr: TypeExpr, file: BoundFile): DslType {
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
  alias(alias: BoundTypeAlias, file: BoundFile, use?: TypeExpr): DslType {
    if (this.done.has(alias)) {
      // expanded before: its depth below this use decides, as if it were expanded again here
      const below = this.aliasDepth.get(alias) ?? 0;
      if (use && this.level + below > MAX_TYPE_DEPTH) return this.tooDeep(use);
      this.peak = Math.max(this.peak, this.level + below);
      return alias.type;
    }
    const key = `${file.path}#${alias.name}`;
    if (this.onPath.has(key)) {
      const at = this.resolving.indexOf(key);
      const cycle = [...this.resolving.slice(at), key].map((k) => k.slice(k.indexOf("#") + 1));
      this.diagnostics.push(d.recursiveType(alias.decl.name.span, { cycle }));
      return T.unknown;
    }
    this.resolving.push(key);
    this.onPath.add(key);
    const outerPeak = this.peak;
    const start = this.level;
    this.peak = start;
    const before = this.diagnostics.length;
    const t = this.resolve(alias.decl.type, file);
    const below = this.peak - start;
    this.peak = Math.max(outerPeak, this.peak);
    this.resolving.pop();
    this.onPath.delete(key);
    // a cycle reported deeper down already left `unknown` in place; keep the first result
    if (!this.done.has(alias)) {
      alias.type = t;
      this.done.add(alias);
      // an alias whose expansion was cut is `unknown` (depth 0): its other uses are not reported again
      const cut = this.diagnostics.slice(before).some((x) => x.code === TYPE_TOO_DEEP);
      this.aliasDepth.set(alias, cut ? 0 : below);
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
    if (local) return noArgs(this.alias(local, file, expr));
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
        if (alias) return noArgs(this.alias(alias, target, expr));
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
