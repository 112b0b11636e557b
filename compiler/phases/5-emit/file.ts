/**
 * One `.graph` file -> the unformatted text of its `x.graph.ts`: header, imports (runtime names actually
 * used, the user's TS imports with relative paths re-based on the output file, specs of child graphs from
 * other files), type aliases, then per graph its types, spec and compiled graph.
 */
import { posix } from "node:path";
import type { FormatCache } from "./format-cache.ts";
import type { Diagnostic } from "../../../grammar/diagnostic.ts";
import type { Span } from "../../../grammar/span.ts";
import { d } from "../../diagnostics/messages.ts";
import type { FileIR, GraphIR, GraphRefIR, ProgramIR } from "../4-lower/ir.ts";
import { MARK_PREFIX, type ChildNames, type EmitContext, type FnBinding } from "./context.ts";
import { isBindingName, isIdentifier, str } from "./escape.ts";
import { appendAll } from "../../../grammar/append.ts";
import { InterfaceNames } from "./bind.ts";
import { emitGraphTypes } from "./graph-types.ts";
import { BLANK } from "./format.ts";
import { graphNames, Scope, type GraphNames } from "./names.ts";
import { withImportExt, type ImportExt } from "./import-ext.ts";
import { INSTALL_MODULE, INSTALLS, LEAN_RUNTIME_MODULE, POLICY_INSTALL, RUNTIME_MODULE } from "./runtime-api.ts";
import { leanEligible, usesPolicies, type RuntimeMode } from "../4-lower/lean.ts";
import { emitGraphSpec } from "./spec.ts";
import { tsType } from "./types.ts";

export interface EmitOptions {
  readonly version: string;
  /** where the generated code of a `.graph` file goes (default: beside it, `x.graph.ts`) */
  readonly outPath?: (graphFile: string) => string;
  /** the extension of relative imports (import-ext.ts); default: the user's as written, `.ts` for generated files */
  readonly importExt?: ImportExt | undefined;
  /**
   * A file whose graphs are all lean-eligible imports `@graphc/runtime/core`; "full" (the default) installs
   * streaming and Command input from `@graphc/runtime/install` too (all "@graphc/runtime" would install for
   * graphs without node policies), "lean" installs nothing
   */
  readonly runtime?: RuntimeMode | undefined;
  /** prettier's output from earlier processes (format-cache.ts; `graphc build`) */
  readonly formatCache?: FormatCache | undefined;
}

export interface EmittedText {
  /** the generated file's path */
  readonly path: string;
  /** unformatted TypeScript with marker lines (see format.ts) */
  readonly text: string;
  /** marker index -> `.graph` span */
  readonly spans: Span[];
  /** generated `const fn: <type> = <userFn>` bindings, keyed by `<type> = <userFn>` */
  readonly bindings: Map<string, FnBinding>;
  readonly diagnostics: Diagnostic[];
  /** the module the runtime's names are imported from (the TypeScript pass checks that it resolves) */
  readonly runtime: string;
}

export const defaultOutPath = (graphFile: string): string => `${graphFile}.ts`;

export function emitFileText(file: FileIR, program: ProgramIR, options: EmitOptions): EmittedText {
  const outPath = options.outPath ?? defaultOutPath;
  const path = outPath(file.file);
  const diagnostics: Diagnostic[] = [];
  const spans: Span[] = [];
  const bindings = new Map<string, FnBinding>();
  const scope = new Scope();
  const byId = new Map<string, GraphIR>();
  for (const f of program.files) for (const g of f.graphs) byId.set(g.id, g);

  // the user's own names come first: generated names and runtime imports work around them
  for (const imp of file.imports) if (imp.kind !== "graph") for (const nm of imp.names) scope.reserve(nm.local);
  for (const t of file.types) scope.reserve(t.name);
  for (const g of file.graphs) {
    if (g.inlineNode !== undefined) continue;
    if (scope.has(g.name) || !isBindingName(g.name) || GENERATED_GLOBALS.has(g.name))
      diagnostics.push(d.emitGraphNameUnusable(g.span, { name: g.name }));
    scope.reserve(g.name);
  }

  // user values whose names generated functions use for their own parameters and variables are imported
  // under an alias (`import { input as input_2 }`), so a parameter can never shadow them
  const aliases = new Map<string, string>();
  for (const imp of file.imports) {
    if (imp.kind !== "value") continue;
    for (const nm of imp.names) if (isGeneratedLocal(nm.local)) aliases.set(nm.local, scope.fresh(nm.local));
  }

  const local = new Map<string, GraphNames>();
  const childImports = new Map<string, { module: string; names: { exported: string; local: string }[] }>();
  const foreign = new Map<string, ChildNames>();
  const relModule = (target: string) => {
    const rel = posix.relative(posix.dirname(path), target);
    return withImportExt(rel.startsWith(".") ? rel : `./${rel}`, options.importExt);
  };

  const interfaces = new InterfaceNames(scope, file.file, (f) => relModule(outPath(f)));
  interfaces.declareLocal(file);
  const cx: EmitContext = {
    scope,
    interfaces,
    version: options.version,
    traced(span, text) {
      spans.push(span);
      return `\n${MARK_PREFIX}${spans.length - 1}\n${text}\n${MARK_PREFIX}end\n`;
    },
    binding: (key, role) => void bindings.set(key, role),
    graph: (id) => byId.get(id),
    fn: (name) => aliases.get(name) ?? name,
    child(ref: GraphRefIR): ChildNames {
      const mine = local.get(ref.id);
      if (mine) return { spec: mine.spec, input: mine.input, output: mine.output };
      let names = foreign.get(ref.id);
      if (!names) {
        const module = relModule(outPath(ref.file));
        const entry = childImports.get(module) ?? { module, names: [] };
        childImports.set(module, entry);
        const add = (exported: string) => {
          const l = scope.fresh(exported);
          entry.names.push({ exported, local: l });
          return l;
        };
        names = { spec: add(`${ref.name}Spec`), input: add(`${ref.name}Input`), output: add(`${ref.name}Output`) };
        foreign.set(ref.id, names);
      }
      return names;
    },
  };

  for (const g of file.graphs) {
    local.set(g.id, graphNames(scope, g.name, g.inlineNode));
  }
  for (const imp of file.imports) {
    for (const nm of imp.names) {
      if (imp.kind !== "graph" && !isBindingName(nm.local)) diagnostics.push(d.emitNameUnusable(imp.span, { name: nm.local }));
    }
  }
  for (const t of file.types)
    if (!isBindingName(t.name) || GENERATED_GLOBALS.has(t.name)) diagnostics.push(d.emitNameUnusable(t.span, { name: t.name }));

  const body: string[] = [BLANK];
  for (const t of file.types) body.push(cx.traced(t.span, `export type ${t.name} = ${tsType(t.type)};`));
  appendAll(body, interfaces.declarations(file, cx.traced));
  for (const g of file.graphs) {
    const names = local.get(g.id)!;
    body.push(`\n${BLANK}\n// ---------------------------------------------------------------- graph ${names.graph}\n${BLANK}\n`);
    body.push(emitGraphTypes(g, names, cx));
    body.push(emitGraphSpec(g, names, cx));
  }

  const head: string[] = [
    `// Code generated by graphc ${options.version} from ${headerName(file.file)}. DO NOT EDIT.`,
    BLANK,
  ];
  const rtImports = scope.runtimeImports();
  // a file whose graphs are all lean-eligible has no node policies, so it imports "@graphc/runtime/core";
  // by default it installs what "@graphc/runtime" would but those (installs, below)
  const lean = file.graphs.length > 0 && file.graphs.every(leanEligible);
  const runtime = lean ? LEAN_RUNTIME_MODULE : RUNTIME_MODULE;
  if (rtImports.length > 0) {
    const names = rtImports.map((r) => `${r.type ? "type " : ""}${r.name === r.local ? r.name : `${r.name} as ${r.local}`}`);
    head.push(`import { ${names.join(", ")} } from ${str(runtime)};`);
  }
  // node policies are installed by the module whose graphs have them, not by "@graphc/runtime" (a program
  // without them does not bundle the policy part); a lean-eligible graph has none
  const installNames: readonly string[] =
    lean && options.runtime !== "lean" ? INSTALLS : file.graphs.some(usesPolicies) ? [POLICY_INSTALL] : [];
  const installs = installNames.map((name) => ({ name, local: scope.fresh(name) }));
  if (installs.length > 0) {
    const names = installs.map((i) => (i.name === i.local ? i.name : `${i.name} as ${i.local}`));
    head.push(`import { ${names.join(", ")} } from ${str(INSTALL_MODULE)};`);
  }
  for (const imp of file.imports) {
    if (imp.kind === "graph") {
      // types declared in another .graph file come from its generated module
      const types = imp.names.filter((nm) => nm.type);
      if (types.length === 0 || imp.resolvedFile === undefined) continue;
      const names = types.map((nm) => (nm.exported === nm.local ? nm.exported : `${nm.exported} as ${nm.local}`));
      head.push(cx.traced(imp.span, `import type { ${names.join(", ")} } from ${str(relModule(outPath(imp.resolvedFile)))};`));
      continue;
    }
    const spec = importSpecifier(imp.module, file.file, path, options.importExt);
    const names = imp.names.map((nm) => {
      const exported = isIdentifier(nm.exported) ? nm.exported : str(nm.exported);
      const as = (imp.kind === "value" ? aliases.get(nm.local) : undefined) ?? nm.local;
      return nm.exported === as ? exported : `${exported} as ${as}`;
    });
    head.push(cx.traced(imp.span, `import ${imp.kind === "type" ? "type " : ""}{ ${names.join(", ")} } from ${str(spec)};`));
  }
  for (const ci of childImports.values()) {
    const [spec, ...types] = ci.names;
    const fmt = (n: { exported: string; local: string }) => (n.exported === n.local ? n.exported : `${n.exported} as ${n.local}`);
    head.push(`import { ${fmt(spec!)}, ${types.map((t) => `type ${fmt(t)}`).join(", ")} } from ${str(ci.module)};`);
  }
  appendAll(head, interfaces.importLines());
  if (installs.length > 0) {
    head.push(
      BLANK,
      lean
        ? "// stream() on the graphs' own small loops (a Command brings what runs it; a saver or a tracer the full loop)"
        : "// the nodes' retry, timeout, cache and on_error policies",
    );
    for (const i of installs) head.push(`${i.local}();`);
  }
  return { path, text: `${head.join("\n")}\n${body.join("\n")}\n`, spans, bindings, diagnostics, runtime };
}

/** The source file's name for the header line, quoted when it holds characters that could end a comment line. */
function headerName(file: string): string {
  const base = posix.basename(file);
  return /^[^\u0000-\u001f\u007f-\u009f\u2028\u2029]*$/.test(base) ? base : str(base);
}

/** A relative module specifier written next to the `.graph` file, re-based on the generated file's folder. */
export function rebase(spec: string, graphFile: string, outFile: string): string {
  if (!spec.startsWith("./") && !spec.startsWith("../")) return spec;
  const fromGraph = posix.dirname(graphFile);
  const fromOut = posix.dirname(outFile);
  if (fromGraph === fromOut) return spec;
  const rel = posix.relative(fromOut, posix.join(fromGraph, spec));
  return rel.startsWith(".") ? rel : `./${rel}`;
}

/** How generated file `outFile` imports `spec`, which `graphFile` imports: rebased, with `--import-ext`'s extension. */
export function importSpecifier(spec: string, graphFile: string, outFile: string, ext: ImportExt | undefined): string {
  return withImportExt(rebase(spec, graphFile, outFile), ext);
}

/** Parameter and variable names of generated functions (spec-data.ts, spec-nodes.ts, types.ts). */
const GENERATED_LOCALS = new Set([
  "v", "u", "k", "x", "o", "i", "raw", "out", "input", "ctx", "fresh", "state", "fn", "key", "to",
  "written", "inherited", "env", "updates", "_overrides", "y", "slots", "bound",
]);

/**
 * Globals generated code refers to (values and the built-in types it writes). A user import of one of these
 * names is aliased like a generated local, so `import { Array } from "./nodes.ts"` cannot change what
 * `Array.isArray` means in the generated module; a graph or `type` alias of that name is a diagnostic.
 */
export const GENERATED_GLOBALS = new Set([
  "Array", "JSON", "Object", "Promise", "Number", "String", "Boolean", "Error", "Symbol", "Math", "globalThis",
  "Record", "Pick", "Partial", "Parameters", "Readonly",
]);

function isGeneratedLocal(name: string): boolean {
  return GENERATED_LOCALS.has(name) || GENERATED_GLOBALS.has(name) || /^w_|^w\d+$|^e\d+$/.test(name);
}
