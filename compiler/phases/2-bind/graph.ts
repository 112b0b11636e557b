/**
 * Binds one graph declaration: fields and schemas, vars, limits, interrupts, function nodes and edges.
 * Subgraph nodes get a placeholder here and are completed by `completeSubgraphs` (subgraph.ts) once every
 * graph of every file exists, because their mappings need the child's fields.
 */
import type {
  Expr,
  FieldDecl,
  GraphDecl,
  Ident,
  InterruptDecl,
  NodeDecl,
  SchemaRef,
  SubgraphDecl,
  EdgeStmt,
  OptionEntry,
  StringLit,
  StateBlock,
  SchemaBlock,
  PrivateBlock,
} from "../../../grammar/ast.ts";
import { bindEdges, ref } from "./edges.ts";
import { readMeta } from "./meta.ts";
import { readLimits, readNodeOptions } from "./options.ts";
import { parseTemplate } from "./templates.ts";
import { isBuiltinReducer } from "../reducers.ts";
import {
  type BoundField,
  type BoundFile,
  type BoundGraph,
  type BoundNode,
  type BoundVar,
  type FieldOrigin,
  type FieldSite,
  type ImportRef,
  type NameRef,
  type PrivateSchema,
  type ReducerKind,
  type SubgraphNode,
  findImport,
} from "./model.ts";
import { T, type TypeResolver } from "./types.ts";
import { appendAll } from "../../../grammar/append.ts";

export interface BindContext {
  readonly files: Map<string, BoundFile>;
  readonly types: TypeResolver;
  readonly graphs: BoundGraph[];
  readonly pending: PendingSubgraph[];
  /** loader results: the file each `.graph` path literal resolved to (undefined: not found, reported) */
  readonly resolvedPaths: Map<StringLit, string | undefined>;
}

export interface PendingSubgraph {
  readonly graph: BoundGraph;
  readonly decl: SubgraphDecl;
  readonly file: BoundFile;
  /** the bound inline graph for `subgraph x = graph { }` */
  readonly inline?: BoundGraph | undefined;
}

/** The imported TS value named by `id`, if `id` names one. */
export function importValue(file: BoundFile, id: Ident): ImportRef | undefined {
  const found = findImport(file, id.name);
  const imp = found?.kind === "value" ? found : undefined;
  return imp ? { local: imp.local, exported: imp.exported, module: imp.module, span: id.span } : undefined;
}

/** Root names an expression reads (`a.b[0]` reads `a`; `len(x) > n` reads `x` and `n`). */
export function exprNames(e: Expr, out: NameRef[] = []): NameRef[] {
  switch (e.kind) {
    case "Name":
      if (e.name.name !== "") out.push(ref(e.name));
      break;
    case "Member":
      exprNames(e.object, out);
      break;
    case "Index":
      exprNames(e.object, out);
      exprNames(e.index, out);
      break;
    case "Call":
      for (const a of e.args) exprNames(a, out);
      break;
    case "Unary":
      exprNames(e.operand, out);
      break;
    case "Binary":
      exprNames(e.left, out);
      exprNames(e.right, out);
      break;
    case "Array":
      for (const i of e.items) exprNames(i, out);
      break;
    case "Object":
      for (const en of e.entries) exprNames(en.value, out);
      break;
    case "Literal":
      break;
  }
  return out;
}

function reducerOf(file: BoundFile, decl: FieldDecl): ReducerKind {
  const r = decl.reducer;
  if (!r || r.name === "") return { kind: "replace", explicit: false };
  if (isBuiltinReducer(r.name)) return { kind: "builtin", name: r.name, span: r.span };
  const fn = importValue(file, r);
  // an unknown reducer is reported by 3-check/reducers.ts; replace keeps the rest of the model coherent
  return fn ? { kind: "custom", fn } : { kind: "replace", explicit: false };
}

const named = (id: Ident) => id.name !== "";

export function bindGraph(
  decl: GraphDecl,
  file: BoundFile,
  ctx: BindContext,
  inlineIn?: BoundGraph["inlineIn"],
): BoundGraph {
  const members = decl.members;
  const stateBlock = members.find((m): m is StateBlock => m.kind === "State");
  const inputBlock = members.find((m): m is SchemaBlock => m.kind === "Input");
  const outputBlock = members.find((m): m is SchemaBlock => m.kind === "Output");
  const privateBlocks = members.filter((m): m is PrivateBlock => m.kind === "Private");

  // every declaration site per name, in the order state, input, output, private (LangGraph's _addSchema)
  const sites = new Map<string, FieldSite[]>();
  const declare = (f: FieldDecl, origin: FieldOrigin): void => {
    if (!named(f.name)) return;
    const list = sites.get(f.name.name);
    if (list) list.push({ origin, decl: f });
    // a bare name (`input { a }`) only refers to a field; it declares one only when typed
    else if (origin.kind === "state" || f.type) sites.set(f.name.name, [{ origin, decl: f }]);
  };
  const stateFields = stateBlock?.fields ?? [];
  for (const f of stateFields) declare(f, { kind: "state" });
  // typed input/output/private declarations of new fields come after state, as LangGraph's _addSchema
  for (const f of inputBlock?.fields ?? []) declare(f, { kind: "input" });
  for (const f of outputBlock?.fields ?? []) declare(f, { kind: "output" });
  for (const p of privateBlocks) for (const f of p.fields) declare(f, { kind: "private", schema: p.name.name });
  // bare references listed before the typed declaration (e.g. `input { a }` then `private P { a: T }`) join later
  for (const block of [inputBlock, outputBlock]) {
    for (const f of block?.fields ?? []) {
      const list = named(f.name) ? sites.get(f.name.name) : undefined;
      if (list && !list.some((s) => s.decl === f))
        list.push({ origin: { kind: block === inputBlock ? "input" : "output" }, decl: f });
    }
  }
  const fields = new Map<string, BoundField>();
  for (const [name, list] of sites) {
    // the defining declaration is the first with a type; the reducer is the first one given anywhere
    const defining = list.find((s) => s.decl.type) ?? list[0]!;
    const withReducer = list.find((s) => s.decl.reducer && s.decl.reducer.name !== "");
    const f = defining.decl;
    for (const s of list) if (s !== defining && s.decl.type) ctx.types.resolve(s.decl.type, file); // report unknown types once
    fields.set(name, {
      name,
      span: f.name.span,
      decl: f,
      origin: defining.origin,
      typeExpr: f.type,
      type: f.type ? ctx.types.resolve(f.type, file) : T.unknown,
      default: list.find((s) => s.decl.default)?.decl.default,
      reducer: withReducer ? reducerOf(file, withReducer.decl) : { kind: "replace", explicit: false },
      ephemeral: list.some((s) => s.decl.ephemeral),
      declarations: [defining, ...list.filter((s) => s !== defining)],
    });
  }
  // bare references that named no field yet: a later typed declaration may define them (order-free)
  const known = (f: FieldDecl) => named(f.name) && fields.has(f.name.name);
  const unique = (names: string[]) => [...new Set(names)];

  const state = unique(stateFields.filter(known).map((f) => f.name.name));
  const privates = new Map<string, PrivateSchema>();
  for (const p of privateBlocks) {
    if (!named(p.name) || privates.has(p.name.name)) continue;
    privates.set(p.name.name, {
      name: p.name.name,
      span: p.name.span,
      fields: unique(p.fields.filter(known).map((f) => f.name.name)),
    });
  }

  const vars = new Map<string, BoundVar>();
  for (const block of members) {
    if (block.kind !== "Vars") continue;
    for (const v of block.vars) {
      if (!named(v.name) || vars.has(v.name.name)) continue;
      const dflt = v.default;
      const template =
        dflt?.kind === "Literal" && typeof dflt.value === "string" ? parseTemplate(dflt.value).parts : undefined;
      vars.set(v.name.name, {
        name: v.name.name,
        span: v.name.span,
        decl: v,
        type: v.type ? ctx.types.resolve(v.type, file) : T.unknown,
        default: dflt,
        template,
      });
    }
  }

  const limitEntries: OptionEntry[] = members.flatMap((m) => (m.kind === "Limits" ? m.entries : []));
  const metaEntries: OptionEntry[] = members.flatMap((m) => (m.kind === "Meta" ? m.entries : []));
  const interrupts = { before: [] as NameRef[], after: [] as NameRef[] };
  for (const m of members) {
    if (m.kind !== "Interrupt") continue;
    const i: InterruptDecl = m;
    appendAll(interrupts[i.when], i.nodes.filter(named).map(ref));
  }

  const graph: BoundGraph = {
    name: decl.name.name,
    id: inlineIn ? `${file.path}#${inlineIn.graph.name}.${inlineIn.node}` : `${file.path}#${decl.name.name}`,
    file: file.path,
    decl,
    inlineIn,
    fields,
    state,
    input: inputBlock ? unique(inputBlock.fields.filter(known).map((f) => f.name.name)) : [...state],
    output: outputBlock ? unique(outputBlock.fields.filter(known).map((f) => f.name.name)) : [...state],
    inputDeclared: inputBlock !== undefined,
    outputDeclared: outputBlock !== undefined,
    privates,
    vars,
    limits: { ...readLimits(limitEntries), entries: limitEntries },
    meta: { ...readMeta(metaEntries), entries: metaEntries },
    implements: [],
    interrupts,
    nodes: new Map(),
    edges: bindEdges(
      members.filter((m): m is EdgeStmt => m.kind === "Edge"),
      (id) => importValue(file, id),
    ),
  };
  ctx.graphs.push(graph);

  for (const m of members) {
    if (m.kind === "Node") {
      if (!named(m.name) || graph.nodes.has(m.name.name)) continue;
      graph.nodes.set(m.name.name, bindNode(m, graph, file));
    } else if (m.kind === "Subgraph") {
      if (!named(m.name) || graph.nodes.has(m.name.name)) continue;
      let inline: BoundGraph | undefined;
      if (m.target.kind === "InlineGraph") {
        inline = bindGraph(m.target.graph, file, ctx, { graph, node: m.name.name });
      }
      graph.nodes.set(m.name.name, placeholder(m, inline));
      ctx.pending.push({ graph, decl: m, file, inline });
    }
  }
  return graph;
}

/** Field names a schema reference stands for (`State`, `Input`, `Output`, a private schema, `{ a, b }`). */
export function schemaFields(graph: BoundGraph, s: SchemaRef | undefined): { refs: NameRef[]; schema?: NameRef } {
  if (!s) return { refs: [] };
  if (s.kind === "FieldList") return { refs: s.fields.filter(named).map(ref) };
  const name = s.name.name;
  const at = (n: string): NameRef => ({ name: n, span: s.name.span });
  let names: string[] = [];
  if (name === "State") names = graph.state;
  else if (name === "Input") names = graph.input;
  else if (name === "Output") names = graph.output;
  else names = graph.privates.get(name)?.fields ?? [];
  return { refs: names.map(at), schema: ref(s.name) };
}

function bindNode(decl: NodeDecl, graph: BoundGraph, file: BoundFile): BoundNode {
  const reads = schemaFields(graph, decl.reads);
  const writes = schemaFields(graph, decl.writes);
  return {
    kind: "node",
    name: decl.name.name,
    span: decl.name.span,
    decl,
    reads: reads.refs,
    writes: writes.refs,
    readsSchema: reads.schema,
    writesSchema: writes.schema,
    goto: decl.goto?.filter(named).map(ref),
    impl: importValue(file, decl.impl),
    implName: ref(decl.impl),
    options: readNodeOptions(decl.options, new Set(reads.refs.map((r) => r.name)), "node"),
    optionEntries: decl.options,
  };
}

/** Stand-in until completeSubgraphs() resolves the target and the mappings. */
function placeholder(decl: SubgraphDecl, inline: BoundGraph | undefined): SubgraphNode {
  return {
    kind: "subgraph",
    name: decl.name.name,
    span: decl.name.span,
    decl,
    reads: [],
    writes: [],
    target: inline,
    targetKind: decl.target.kind === "GraphRef" ? "ref" : decl.target.kind === "InlineGraph" ? "inline" : "file",
    in: { kind: "shared", items: [] },
    out: { kind: "shared", items: [] },
    options: {},
    optionEntries: decl.options,
  };
}
