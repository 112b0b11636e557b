/**
 * JSON Schema (2020-12) of a graph's input, output and state, from the IR's field types: what the server
 * validates run input against and publishes per assistant, and what `graphc manifest` lists.
 *
 * The mapping follows what the generated code enforces, so a value the schema accepts is one `invoke`
 * accepts: the top-level objects are closed (`invoke` rejects an unknown input key), required inputs are the
 * fields of a declared `input` block without a default whose type does not admit `undefined`; nested object
 * types stay open (TypeScript's structural types allow extra properties). Types imported from TypeScript are
 * opaque here, as in the run-time checks: they accept any value and carry their TypeScript text in
 * `x-typescript` (resolving them would take the TypeScript pass; their callers check them statically).
 * Local aliases, and aliases imported from other `.graph` files, become `$defs` entries shared by reference.
 */
import type { FieldIR, FileIR, GraphIR, ProgramIR, TypeAliasIR, TypeIR } from "../phases/4-lower/ir.ts";
import { admitsUndefined, tsType } from "../phases/5-emit/types.ts";

/** A JSON Schema document or subschema (plain JSON). */
export type JsonSchema = { readonly [key: string]: JsonValue };
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };

export interface GraphSchemas {
  /** what `invoke` (and a run's `input`) accepts */
  readonly input: JsonSchema;
  /** what `invoke` returns */
  readonly output: JsonSchema;
  /** every channel: state, input/output-only and private fields */
  readonly state: JsonSchema;
}

const DIALECT = "https://json-schema.org/draft/2020-12/schema";

/** The three schemas of `graph` (a graph of `program`), each self-contained (its own `$defs`). */
export function graphSchemas(graph: GraphIR, program: ProgramIR): GraphSchemas {
  const byName = new Map(graph.fields.map((f) => [f.name, f]));
  const pick = (names: readonly string[]) => names.map((n) => byName.get(n)!);
  const required = graph.inputDeclared
    ? pick(graph.input).filter((f) => f.init === undefined && !admitsUndefined(f.type)).map((f) => f.name)
    : [];
  return {
    input: document(`${graph.name} input`, pick(graph.input), required, graph, program),
    output: document(`${graph.name} output`, pick(graph.output), [], graph, program),
    state: document(`${graph.name} state`, graph.fields, [], graph, program),
  };
}

/** The schema of one type as written in `file` (aliases resolved through `program`), with its `$defs`. */
export function typeSchema(type: TypeIR, file: string, program: ProgramIR): JsonSchema {
  const defs = new Defs(program);
  const body = defs.schema(type, fileOf(program, file));
  return { $schema: DIALECT, ...body, ...defs.section() };
}

function document(
  title: string,
  fields: readonly FieldIR[],
  required: readonly string[],
  graph: GraphIR,
  program: ProgramIR,
): JsonSchema {
  const defs = new Defs(program);
  const file = fileOf(program, graph.file);
  const properties: Record<string, JsonSchema> = {};
  for (const f of fields) properties[f.name] = defs.schema(withoutUndefined(f.type), file);
  return {
    $schema: DIALECT,
    title,
    type: "object",
    properties,
    ...(required.length > 0 ? { required: [...required] } : {}),
    additionalProperties: false,
    ...defs.section(),
  };
}

/** A property may be absent; `undefined` is how TypeScript spells that, and it has no JSON counterpart. */
function withoutUndefined(t: TypeIR): TypeIR {
  if (t.k !== "union") return t;
  const members = t.members.filter((m) => !(m.k === "prim" && m.name === "undefined"));
  return members.length === 1 ? members[0]! : { k: "union", members };
}

function fileOf(program: ProgramIR, file: string): FileIR | undefined {
  return program.files.find((f) => f.file === file);
}

/** Collects the `$defs` one document needs, naming each alias once (a clash across files gets a suffix). */
class Defs {
  private readonly entries = new Map<string, JsonSchema>();
  /** `file#alias` → def name */
  private readonly names = new Map<string, string>();

  constructor(private readonly program: ProgramIR) {}

  section(): JsonSchema {
    if (this.entries.size === 0) return {};
    const sorted = [...this.entries.keys()].sort();
    return { $defs: Object.fromEntries(sorted.map((k) => [k, this.entries.get(k)!])) };
  }

  schema(t: TypeIR, file: FileIR | undefined): JsonSchema {
    switch (t.k) {
      case "prim":
        return t.name === "unknown" || t.name === "undefined" ? {} : { type: t.name };
      case "lit":
        return { const: t.value };
      case "array":
        return { type: "array", items: this.schema(t.element, file) };
      case "record":
        return { type: "object", additionalProperties: this.schema(t.value, file) };
      case "object":
        return this.object(t.members, file);
      case "union":
        return this.union(t.members, file);
      case "ref":
        return this.ref(t, file);
    }
  }

  private object(members: readonly { name: string; optional: boolean; type: TypeIR }[], file: FileIR | undefined): JsonSchema {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const m of members) {
      properties[m.name] = this.schema(withoutUndefined(m.type), file);
      if (!m.optional && !admitsUndefined(m.type)) required.push(m.name);
    }
    return { type: "object", properties, ...(required.length > 0 ? { required } : {}) };
  }

  private union(members: readonly TypeIR[], file: FileIR | undefined): JsonSchema {
    const kept = members.filter((m) => !(m.k === "prim" && m.name === "undefined"));
    if (kept.length > 0 && kept.every((m) => m.k === "lit")) {
      return { enum: kept.map((m) => (m as { value: string | number | boolean }).value) };
    }
    const schemas = kept.map((m) => this.schema(m, file));
    if (schemas.some((s) => Object.keys(s).length === 0)) return {};
    return schemas.length === 1 ? schemas[0]! : { anyOf: schemas };
  }

  private ref(t: TypeIR & { k: "ref" }, file: FileIR | undefined): JsonSchema {
    const found = t.args.length > 0 ? undefined : this.alias(t.name, file);
    if (found === undefined) return { "x-typescript": tsType(t) };
    const key = `${found.file.file}#${found.alias.name}`;
    let name = this.names.get(key);
    if (name === undefined) {
      name = this.freeName(found.alias.name);
      this.names.set(key, name);
      // reserved before its body (which may name other aliases) so the name is taken (aliases never recurse: G3012)
      this.entries.set(name, {});
      this.entries.set(name, this.schema(found.alias.type, found.file));
    }
    return { $ref: `#/$defs/${name}` };
  }

  private freeName(base: string): string {
    let name = base;
    for (let i = 2; this.entries.has(name); i++) name = `${base}_${i}`;
    return name;
  }

  /** A local alias of `file`, or one it imports from another `.graph` file (followed through re-imports). */
  private alias(name: string, file: FileIR | undefined, seen = new Set<string>()): { file: FileIR; alias: TypeAliasIR } | undefined {
    if (file === undefined || seen.has(`${file.file}#${name}`)) return undefined;
    seen.add(`${file.file}#${name}`);
    const local = file.types.find((a) => a.name === name);
    if (local !== undefined) return { file, alias: local };
    for (const imp of file.imports) {
      if (imp.kind !== "graph" || imp.resolvedFile === undefined) continue;
      const entry = imp.names.find((n) => n.local === name && n.type === true);
      if (entry !== undefined) return this.alias(entry.exported, fileOf(this.program, imp.resolvedFile), seen);
    }
    return undefined;
  }
}
