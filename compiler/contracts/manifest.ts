/**
 * Builds the manifest (manifest-types.ts) from the lowered program: per named graph its metadata, the JSON
 * Schemas of input, output and state, fields with types, reducers and defaults, nodes, the subgraphs it
 * runs, vars and interrupts. Everything whose order carries no meaning is sorted.
 */
import type { ExprIR, GraphIR, NodeIR, ProgramIR, ReducerIR, TemplatePartIR, VarIR } from "../phases/4-lower/ir.ts";
import { tsType } from "../phases/5-emit/types.ts";
import { graphSchemas, typeSchema, type JsonValue } from "../schema/json-schema.ts";
import { MANIFEST_FORMAT, type FieldEntry, type GraphEntry, type InterfaceEntry, type Manifest, type SlotEntry, type NodeEntry, type SubgraphEntry, type VarEntry } from "./manifest-types.ts";

export function buildManifest(program: ProgramIR): Manifest {
  const graphs = program.files
    .flatMap((f) => f.graphs)
    .filter((g) => !g.inline)
    .map((g) => graphEntry(g, program))
    .sort((a, b) => compare(a.file, b.file) || compare(a.name, b.name));
  const interfaces = program.files
    .flatMap((f) => f.interfaces.map((i) => interfaceEntry(i.shape, f.file, program)))
    .sort((a, b) => compare(a.file, b.file) || compare(a.name, b.name));
  return { format: MANIFEST_FORMAT, graphs, interfaces };
}

function interfaceEntry(shape: GraphIR, file: string, program: ProgramIR): InterfaceEntry {
  const { input, output } = graphSchemas(shape, program);
  const contract = new Set([...shape.input, ...shape.output]);
  return {
    name: shape.name,
    file,
    input,
    output,
    fields: Object.fromEntries(shape.fields.filter((f) => contract.has(f.name)).map((f) => [f.name, fieldEntry(f)])),
  };
}

function slotEntries(g: GraphIR): SlotEntry[] {
  return g.nodes
    .flatMap((n) => {
      if (n.kind !== "subgraph" || n.slot === undefined) return [];
      const { name, file } = n.slot.interface;
      const def = n.slot.hasDefault ? { default: { graph: n.child.name, source: n.child.file } } : {};
      return [{ node: n.name, interface: name, source: file, ...def }];
    })
    .sort((a, b) => compare(a.node, b.node));
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const sorted = (xs: readonly string[]) => [...new Set(xs)].sort(compare);
const byName = <T extends { name: string }>(xs: readonly T[]): Record<string, T> => Object.fromEntries(xs.map((x) => [x.name, x]));

function graphEntry(g: GraphIR, program: ProgramIR): GraphEntry {
  const schemas = graphSchemas(g, program);
  return {
    name: g.name,
    file: g.file,
    meta: g.meta ?? {},
    input: schemas.input,
    output: schemas.output,
    state: schemas.state,
    fields: Object.fromEntries(g.fields.map((f) => [f.name, fieldEntry(f)])),
    nodes: [...g.nodes].sort((a, b) => compare(a.name, b.name)).map(nodeEntry),
    subgraphs: g.nodes.flatMap((n) => subgraphEntry(n, program)).sort((a, b) => compare(a.node, b.node)),
    vars: Object.fromEntries(Object.entries(byName(g.vars)).map(([name, v]) => [name, varEntry(v, g, program)])),
    slots: slotEntries(g),
    implements: (g.implements ?? []).map((i) => ({ name: i.name, source: i.file })).sort((a, b) => compare(a.name, b.name)),
    interrupts: { before: sorted(g.interruptBefore), after: sorted(g.interruptAfter) },
  };
}

function fieldEntry(f: GraphIR["fields"][number]): FieldEntry {
  return {
    type: tsType(f.type),
    reducer: reducerName(f.reducer),
    ...(f.init === undefined ? {} : { default: exprJson(f.init) }),
    ephemeral: f.ephemeral,
    origin: f.origin,
  };
}

export function reducerName(r: ReducerIR): string {
  return r.kind === "custom" ? `${r.fn.module}#${r.fn.exported}` : r.kind === "builtin" ? r.name : r.kind;
}

function nodeEntry(n: NodeIR): NodeEntry {
  return {
    name: n.name,
    kind: n.kind,
    ...(n.kind === "function" ? { fn: `${n.fn.module}#${n.fn.exported}` } : {}),
    reads: sorted(n.reads),
    writes: sorted(n.writes),
  };
}

function subgraphEntry(n: NodeIR, program: ProgramIR): SubgraphEntry[] {
  const child = n.kind === "subgraph" ? n.child : n.uses;
  // a slot without a default runs no graph until bound (listed under `slots`)
  if (child === undefined || (n.kind === "subgraph" && n.slot?.hasDefault === false)) return [];
  const target = program.files.find((f) => f.file === child.file)?.graphs.find((g) => g.id === child.id);
  return [{ node: n.name, graph: child.name, source: target?.inline ? "inline" : child.file, via: n.kind === "subgraph" ? "subgraph" : "uses" }];
}

function varEntry(v: VarIR, g: GraphIR, program: ProgramIR): VarEntry {
  const d = v.default;
  return {
    type: tsType(v.type),
    schema: typeSchema(v.type, g.file, program),
    ...(d?.kind === "expr" ? { default: exprJson(d.expr) } : {}),
    ...(d?.kind === "template" ? { template: templateText(d.parts) } : {}),
    required: d === undefined,
  };
}

/** `${NAME:-fallback}` text back from its parts (a literal `${` is written `$${`, as in the source) */
function templateText(parts: readonly TemplatePartIR[]): string {
  return parts
    .map((p) => (p.kind === "text" ? p.text.replace(/\$\{/g, () => "$${") : `\${${p.name}${p.fallback === undefined ? "" : `:-${p.fallback}`}}`))
    .join("");
}

/**
 * A default as JSON. Defaults are constants (literals, arrays, objects, negative numbers); anything else is
 * kept as its IR under `$expr`, so a change to it still shows in a diff.
 */
export function exprJson(e: ExprIR): JsonValue {
  switch (e.k) {
    case "lit":
      return e.value;
    case "array":
      return e.items.map(exprJson);
    case "object":
      return Object.fromEntries(e.entries.map((x) => [x.key, exprJson(x.value)]));
    case "neg":
      if (e.arg.k === "lit" && typeof e.arg.value === "number") return -e.arg.value;
      return { $expr: e as unknown as JsonValue };
    default:
      return { $expr: e as unknown as JsonValue };
  }
}
