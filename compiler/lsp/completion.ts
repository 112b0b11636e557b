/**
 * Completion: fields in reads, writes and mappings (the child's input or output on the child side), nodes
 * in edges, goto and interrupts, reducers, option names and values, graphs after `subgraph x =`, imported
 * functions after `node … =` and in `route(…)`/`send(…)`, types, and the names a module exports inside
 * `import { … }`. The context comes from the tokens (completion-context.ts), the candidates from the
 * checked program.
 */
import { CompletionItemKind, type CompletionItem } from "vscode-languageserver";
import { parse } from "../../grammar/index.ts";
import { candidatePaths, nodeHost } from "../phases/2-bind/host.ts";
import { BUILTIN_REDUCERS, type BoundFile, type BoundGraph, type Program, type SubgraphNode } from "../phases/2-bind/model.ts";
import {
  CACHE_OPTIONS,
  FUNCTION_OPTIONS,
  LIMIT_OPTIONS,
  NODE_OPTIONS,
  OPTION_EXAMPLES,
  RETRY_OPTIONS,
  SUBGRAPH_OPTIONS,
  TIMEOUT_OPTIONS,
} from "../phases/2-bind/options.ts";
import { contextAt, type Context } from "./completion-context.ts";
import { exportedNames, resolveModule } from "./ts-source.ts";

export const TRIGGER_CHARACTERS = ["{", "(", "[", ",", " ", ">", ":", "="];

const BUILTIN_TYPES = ["string", "number", "boolean", "unknown", "null", "Record"];
const GRAPH_KEYWORDS = ["state", "input", "output", "private", "vars", "limits", "interrupt", "node", "subgraph"];

export function complete(program: Program, path: string, text: string, offset: number): CompletionItem[] {
  const file = program.files.get(path);
  const { context } = contextAt(text, offset);
  const g = graphAt(program, path, offset);
  const items = candidates(context, program, file, g, path, offset);
  const seen = new Set<string>();
  return items.filter((i) => !seen.has(i.label) && seen.add(i.label));
}

/** the innermost graph whose declaration holds the offset (inline subgraphs are inside their parents) */
function graphAt(program: Program, path: string, offset: number): BoundGraph | undefined {
  let best: BoundGraph | undefined;
  for (const g of program.graphs) {
    const s = g.decl.span;
    if (g.file === path && s.start.offset <= offset && offset <= s.end.offset && (!best || s.start.offset >= best.decl.span.start.offset)) best = g;
  }
  return best;
}

const item = (label: string, kind: CompletionItemKind, detail?: string): CompletionItem => ({ label, kind, ...(detail ? { detail } : {}) });

function fields(g: BoundGraph | undefined, only?: readonly string[]): CompletionItem[] {
  if (!g) return [];
  const names = only ?? [...g.fields.keys()];
  return names.filter((n) => g.fields.has(n)).map((n) => item(n, CompletionItemKind.Field, `field of ${g.name}`));
}

function nodes(g: BoundGraph | undefined, start: boolean, end: boolean): CompletionItem[] {
  const out = [...(g?.nodes.values() ?? [])].map((n) => item(n.name, n.kind === "subgraph" ? CompletionItemKind.Module : CompletionItemKind.Function, n.kind));
  if (start) out.push(item("START", CompletionItemKind.Constant));
  if (end) out.push(item("END", CompletionItemKind.Constant));
  return out;
}

function imported(file: BoundFile | undefined, kind: "value" | "type"): CompletionItem[] {
  return (file?.imports ?? [])
    .filter((i) => i.kind === kind)
    .map((i) => item(i.local, kind === "value" ? CompletionItemKind.Function : CompletionItemKind.Interface, `from "${i.module}"`));
}

function graphsVisible(program: Program, file: BoundFile | undefined): CompletionItem[] {
  if (!file) return [];
  const local = [...file.graphs.keys()].map((n) => item(n, CompletionItemKind.Class, "graph"));
  const fromFiles = file.imports
    .filter((i) => i.kind === "graph" && i.resolvedFile !== undefined && program.files.get(i.resolvedFile)?.graphs.has(i.exported))
    .map((i) => item(i.local, CompletionItemKind.Class, `graph from "${i.module}"`));
  return [...local, ...fromFiles];
}

function types(program: Program, file: BoundFile | undefined): CompletionItem[] {
  const out = BUILTIN_TYPES.map((t) => item(t, CompletionItemKind.Keyword));
  if (!file) return out;
  for (const t of file.types.keys()) out.push(item(t, CompletionItemKind.TypeParameter, "type"));
  for (const i of file.imports) {
    const target = i.resolvedFile === undefined ? undefined : program.files.get(i.resolvedFile);
    if (i.kind === "type" || (i.kind === "graph" && target?.types.has(i.exported))) out.push(item(i.local, CompletionItemKind.TypeParameter, `from "${i.module}"`));
  }
  return out;
}

/** the subgraph node whose declaration holds the offset */
function subgraphAt(g: BoundGraph | undefined, offset: number): SubgraphNode | undefined {
  for (const n of g?.nodes.values() ?? [])
    if (n.kind === "subgraph" && n.decl.span.start.offset <= offset && offset <= n.decl.span.end.offset) return n;
  return undefined;
}

const OPTION_NAMES = {
  node: [...NODE_OPTIONS, ...FUNCTION_OPTIONS],
  subgraph: [...NODE_OPTIONS, ...SUBGRAPH_OPTIONS, "in", "out"],
  retry: RETRY_OPTIONS,
  timeout: TIMEOUT_OPTIONS,
  cache: CACHE_OPTIONS,
  limits: LIMIT_OPTIONS,
} as const;

function candidates(c: Context, program: Program, file: BoundFile | undefined, g: BoundGraph | undefined, path: string, offset: number): CompletionItem[] {
  switch (c.kind) {
    case "reducer":
      return [...BUILTIN_REDUCERS.map((r) => item(r, CompletionItemKind.EnumMember, "built-in reducer")), ...imported(file, "value")];
    case "fields":
      return fields(g);
    case "condition":
      return [...fields(g), ...[...(g?.vars.keys() ?? [])].map((v) => item(v, CompletionItemKind.Variable, "var")), item("_", CompletionItemKind.Keyword)];
    case "mapping": {
      if (c.side === "parent") return fields(g);
      const child = subgraphAt(g, offset)?.target;
      return fields(child, c.direction === "in" ? child?.input : child?.output);
    }
    case "nodes":
      return nodes(g, c.start, c.end);
    case "impl":
    case "fn":
      return imported(file, "value");
    case "graphTarget":
      return [...graphsVisible(program, file), item("graph", CompletionItemKind.Keyword, "an inline graph")];
    case "type":
      return types(program, file);
    case "optionNames":
      return OPTION_NAMES[c.block].map((o) => {
        const example = OPTION_EXAMPLES[c.block === "node" || c.block === "subgraph" ? o : c.block === "limits" ? `limits.${o}` : `${c.block}.${o}`];
        return { ...item(o, CompletionItemKind.Property, example), ...(example ? { documentation: `e.g. \`${example}\`` } : {}) };
      });
    case "optionValue":
      return optionValues(c.option, program, file, g);
    case "importNames":
      return importNames(c.module, program, path);
    case "none":
      return g ? [...nodes(g, true, false), ...GRAPH_KEYWORDS.map((k) => item(k, CompletionItemKind.Keyword))] : ["import", "type", "graph"].map((k) => item(k, CompletionItemKind.Keyword));
  }
}

function optionValues(option: string, program: Program, file: BoundFile | undefined, g: BoundGraph | undefined): CompletionItem[] {
  if (option === "on_error") return nodes(g, false, false);
  if (option === "uses") return graphsVisible(program, file);
  if (option === "retry.jitter") return ["true", "false"].map((v) => item(v, CompletionItemKind.Value));
  // every other option takes a number or a duration: its documented example value
  const example = OPTION_EXAMPLES[option] ?? OPTION_EXAMPLES[`limits.${option}`];
  const value = example?.slice(example.indexOf(":") + 1).trim();
  return value ? [item(value, CompletionItemKind.Value, example)] : [];
}

/** `import { | } from "m"`: the graphs and types of a `.graph` module, the exports of a TypeScript one */
function importNames(module: string | undefined, program: Program, path: string): CompletionItem[] {
  if (module === undefined) return [];
  if (module.endsWith(".graph")) {
    for (const candidate of candidatePaths(module, path, program.entryFiles)) {
      const bound = program.files.get(candidate);
      const text = bound?.text ?? nodeHost().readFile(candidate);
      if (text === undefined) continue;
      const ast = bound?.ast ?? parse(text, candidate).ast;
      return ast.items.flatMap((i) =>
        i.kind === "Graph" ? [item(i.name.name, CompletionItemKind.Class, "graph")] : i.kind === "TypeAlias" ? [item(i.name.name, CompletionItemKind.TypeParameter, "type")] : [],
      );
    }
    return [];
  }
  const resolved = resolveModule(module, path);
  return resolved ? exportedNames(resolved).map((n) => item(n, CompletionItemKind.Function, `from "${module}"`)) : [];
}
