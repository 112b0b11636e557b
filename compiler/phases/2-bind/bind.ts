/**
 * bind(entryFiles, host, parse): loads the entry files and every `.graph` file they reach (imports and
 * `subgraph … from "file"`, recursively), parses them, and builds the Program model (model.ts).
 *
 * Diagnostics reported here: syntax errors (from the parser), files not found (with every path tried),
 * paths outside the project root (never read: project-root.ts), unknown graph exports, ambiguous
 * `from "file"` targets, duplicate imports/types/graphs, and type names that do not resolve. Everything
 * else is the checker's (phases/3-check).
 */
import type { GraphDecl, GraphFile, Ident, StringLit, SubgraphDecl } from "../../../grammar/ast.ts";
import type { Diagnostic } from "../../../grammar/diagnostic.ts";
import type { Span } from "../../../grammar/span.ts";
import { d, rel } from "../../diagnostics/messages.ts";
import { suggest } from "../../diagnostics/did-you-mean.ts";
import { completeSubgraphs, completeUses } from "./subgraph.ts";
import { bindGraph, type BindContext } from "./graph.ts";
import { bindInterface, resolveImplements } from "./interfaces.ts";
import { candidatePaths, normalisePath, type CompilerHost, type ParseFn } from "./host.ts";
import { describeRoot, projectRoot, type ProjectRoot } from "./project-root.ts";
import type { BoundFile, BoundImport, BoundTypeAlias, Program } from "./model.ts";
import { TypeResolver } from "./types.ts";
import { appendAll } from "../../../grammar/append.ts";

export interface BindResult {
  program: Program;
  diagnostics: Diagnostic[];
}

/** A zero-width span at the start of a file (for problems with no better location). */
export function fileStart(file: string): Span {
  const p = { offset: 0, line: 1, column: 1 };
  return { file, start: p, end: p };
}

/** Every `subgraph … from "x"` path literal in a file, inline graphs included. */
function fileTargets(ast: GraphFile): SubgraphDecl[] {
  const out: SubgraphDecl[] = [];
  const walk = (g: GraphDecl) => {
    for (const m of g.members) {
      if (m.kind !== "Subgraph") continue;
      if (m.target.kind === "FileRef") out.push(m);
      else if (m.target.kind === "InlineGraph") walk(m.target.graph);
    }
  };
  for (const item of ast.items) if (item.kind === "Graph") walk(item);
  return out;
}

export function bind(
  entryFiles: readonly string[],
  host: CompilerHost,
  parse: ParseFn,
  root: ProjectRoot = projectRoot(entryFiles, host),
): BindResult {
  const diagnostics: Diagnostic[] = [];
  const entries = entryFiles.map(normalisePath);
  const outside = (span: Span, path: string, entry = false) =>
    diagnostics.push(d.pathOutsideProject(span, { path, root: describeRoot(root), explicit: root.explicit, entry }));
  const loaded = new Map<string, { text: string; ast: GraphFile }>();
  const resolvedPaths = new Map<StringLit, string | undefined>();

  const load = (path: string, text: string) => {
    const { ast, diagnostics: syntax } = parse(text, path);
    appendAll(diagnostics, syntax);
    loaded.set(path, { text, ast });
    return ast;
  };
  /**
   * Finds (and loads) the file a path literal refers to. Candidates outside the project root are never
   * read; when the first one (the path's plain meaning) is outside and nothing inside matches, that is the
   * error, whether or not the file exists (so the answer tells nothing about files outside).
   */
  const follow = (lit: StringLit, from: string, queue: string[]) => {
    if (resolvedPaths.has(lit)) return;
    const candidates = candidatePaths(lit.value, from, entries);
    const tried = candidates.filter((c) => loaded.has(c) || root.contains(c));
    const found = tried.find((c) => loaded.has(c) || host.readFile(c) !== undefined);
    resolvedPaths.set(lit, found);
    if (found !== undefined) {
      if (!loaded.has(found)) queue.push(found);
    } else if (tried[0] !== candidates[0]) outside(lit.span, lit.value);
    else diagnostics.push(d.fileNotFound(lit.span, { path: lit.value, tried }));
  };

  const queue: string[] = [];
  for (const entry of entries) {
    if (loaded.has(entry)) continue;
    if (!root.contains(entry)) {
      outside(fileStart(entry), entry, true);
      continue;
    }
    const text = host.readFile(entry);
    if (text === undefined) {
      diagnostics.push(d.fileNotFound(fileStart(entry), { path: entry, tried: [entry] }));
      continue;
    }
    load(entry, text);
    queue.push(entry);
  }
  // breadth-first: entry files, then what they reference, in source order
  for (let i = 0; i < queue.length; i++) {
    const path = queue[i]!;
    let file = loaded.get(path);
    if (!file) {
      const text = host.readFile(path) ?? "";
      load(path, text);
      file = loaded.get(path)!;
    }
    for (const item of file.ast.items) {
      if (item.kind === "Import" && item.isGraph) follow(item.from, path, queue);
    }
    for (const s of fileTargets(file.ast)) if (s.target.kind === "FileRef") follow(s.target.path, path, queue);
  }

  const files = new Map<string, BoundFile>();
  for (const [path, { text, ast }] of loaded)
    files.set(path, bindFileScope(path, text, ast, resolvedPaths, diagnostics));
  checkGraphImports(files, diagnostics);

  const ctx: BindContext = {
    files,
    types: new TypeResolver(files, diagnostics),
    graphs: [],
    pending: [],
    resolvedPaths,
  };
  for (const file of files.values()) {
    for (const alias of file.types.values()) ctx.types.alias(alias, file);
    for (const item of file.ast.items) {
      if (item.kind === "Graph" && file.graphs.get(item.name.name) === undefined && item.name.name !== "") {
        // first declaration of this name: bind it (duplicates were reported by bindFileScope)
        file.graphs.set(item.name.name, bindGraph(item, file, ctx));
      } else if (item.kind === "Interface" && item.name.name !== "" && !file.interfaces.has(item.name.name) && !reserved.has(item)) {
        file.interfaces.set(item.name.name, bindInterface(item, file, ctx));
      }
    }
  }
  resolveImplements(ctx);
  completeSubgraphs(ctx);
  completeUses(ctx);
  checkFileTargets(ctx, diagnostics);

  return { program: { entryFiles: entries, files, graphs: ctx.graphs }, diagnostics };
}

/** interface declarations whose name was already taken in their file (reported; never bound) */
const reserved = new WeakSet<object>();

/** Imports, type aliases and the (still empty) graph table of one file; reports duplicate top-level names. */
function bindFileScope(
  path: string,
  text: string,
  ast: GraphFile,
  resolvedPaths: Map<StringLit, string | undefined>,
  diagnostics: Diagnostic[],
): BoundFile {
  const imports: BoundImport[] = [];
  const byLocal = new Map<string, BoundImport>();
  const types = new Map<string, BoundTypeAlias>();
  const graphNames = new Map<string, Span>();
  for (const item of ast.items) {
    if (item.kind !== "Import") continue;
    for (const n of item.names) {
      const local = n.alias ?? n.name;
      if (local.name === "") continue;
      const first = byLocal.get(local.name);
      if (first) {
        diagnostics.push(d.duplicateImport(local.span, { name: local.name }, [rel(first.span, "first imported here")]));
        continue;
      }
      const bound: BoundImport = {
        kind: item.isGraph ? "graph" : item.typeOnly ? "type" : "value",
        local: local.name,
        exported: n.name.name,
        module: item.from.value,
        span: local.span,
        decl: item,
        resolvedFile: item.isGraph ? resolvedPaths.get(item.from) : undefined,
      };
      imports.push(bound);
      byLocal.set(bound.local, bound);
    }
  }
  const importSpan = (name: string) => byLocal.get(name)?.span;
  for (const item of ast.items) {
    if (item.kind === "TypeAlias") {
      const name = item.name.name;
      if (name === "") continue;
      const prev = types.get(name)?.decl.name.span ?? importSpan(name);
      if (prev) {
        diagnostics.push(d.duplicateType(item.name.span, { name }, [rel(prev, "first declared here")]));
        continue;
      }
      types.set(name, { name, decl: item, type: { kind: "unknown" } });
    } else if (item.kind === "Graph" || item.kind === "Interface") {
      // graphs and interfaces share one namespace (both are exported and imported by name)
      const name = item.name.name;
      if (name === "") continue;
      const prev = graphNames.get(name) ?? types.get(name)?.decl.name.span ?? importSpan(name);
      if (prev) {
        if (item.kind === "Graph") diagnostics.push(d.duplicateGraph(item.name.span, { name }, [rel(prev, "first declared here")]));
        else {
          diagnostics.push(d.duplicateInterface(item.name.span, { name }, [rel(prev, "first declared here")]));
          reserved.add(item);
        }
        continue;
      }
      graphNames.set(name, item.name.span);
    }
  }
  // graphs are bound later; until then `graphs` only reserves the names (bind() fills it in order)
  return { path, text, ast, imports, types, graphs: new Map(), interfaces: new Map() };
}

/** `import { G } from "x.graph"`: G must be a graph or type of x.graph. */
function checkGraphImports(files: Map<string, BoundFile>, diagnostics: Diagnostic[]): void {
  for (const file of files.values()) {
    for (const imp of file.imports) {
      if (imp.kind !== "graph" || imp.resolvedFile === undefined) continue;
      const target = files.get(imp.resolvedFile);
      if (!target) continue;
      const graphs = target.ast.items.flatMap((i): Ident[] => (i.kind === "Graph" || i.kind === "Interface" ? [i.name] : []));
      if (graphs.some((g) => g.name === imp.exported) || target.types.has(imp.exported)) continue;
      const nameSpan = imp.decl.names.find((n) => (n.alias ?? n.name).name === imp.local)?.name.span ?? imp.span;
      diagnostics.push(
        d.graphNotExported(nameSpan, {
          name: imp.exported,
          file: imp.module,
          available: graphs.map((g) => g.name),
          suggestions: suggest(
            imp.exported,
            graphs.map((g) => ({ name: g.name, span: g.span })),
          ),
        }),
      );
    }
  }
}

/** `subgraph x from "f.graph" [as G]`: G must exist; without `as`, the file must hold exactly one graph. */
function checkFileTargets(ctx: BindContext, diagnostics: Diagnostic[]): void {
  for (const p of ctx.pending) {
    const t = p.decl.target;
    if (t.kind !== "FileRef") continue;
    const path = ctx.resolvedPaths.get(t.path);
    const file = path === undefined ? undefined : ctx.files.get(path);
    if (!file) continue;
    const available = [...file.graphs.keys()];
    if (t.graph) {
      if (t.graph.name !== "" && !file.graphs.has(t.graph.name)) {
        diagnostics.push(
          d.graphNotExported(t.graph.span, {
            name: t.graph.name,
            file: t.path.value,
            available,
            suggestions: suggest(
              t.graph.name,
              [...file.graphs.values()].map((g) => ({ name: g.name, span: g.decl.name.span })),
            ),
          }),
        );
      }
    } else if (available.length !== 1) {
      diagnostics.push(d.graphFileNoGraph(t.path.span, { file: t.path.value, available }));
    }
  }
}
