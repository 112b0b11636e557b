/**
 * TypeScript's view of the user's modules and of the generated code, through ts-morph (in memory: nothing
 * is written to disk).
 *
 * - `isSync`: whether an imported node/router function never returns a Promise, decided from its declared
 *   or inferred type, resolving the module specifier exactly as tsc does from the generated file.
 * - `diagnose`: type-checks generated files together with the user modules they import and maps every
 *   TypeScript error in generated code back to the `.graph` span it was generated from (via the line
 *   table of the emitter), as a graphc diagnostic: a node function with the wrong signature is G3092 at
 *   the `node` line; a router/send function G3093; a subgraph transform G5090; anything else G3094.
 */
import { posix } from "node:path";
import { Project, ts, type Type } from "ts-morph";
import type { Diagnostic } from "../../../grammar/diagnostic.ts";
import type { Span } from "../../../grammar/span.ts";
import { d } from "../../diagnostics/messages.ts";
import type { ImportRef } from "../2-bind/model.ts";
import { userTsconfig } from "../../user-tsconfig.ts";
import type { FnBinding } from "./context.ts";

/** The repository's strict settings: generated code must be clean under them. */
export const STRICT_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  allowImportingTsExtensions: true,
  verbatimModuleSyntax: true,
  noEmit: true,
  skipLibCheck: true,
  types: ["node"],
};

export interface GeneratedForCheck {
  /** the generated file's path (absolute or relative to the working directory) */
  readonly path: string;
  readonly text: string;
  /** per generated line: the `.graph` span it came from */
  readonly lines: readonly (Span | undefined)[];
  /** the `.graph` file, for errors on lines that map to nothing */
  readonly source: string;
  readonly bindings: ReadonlyMap<string, FnBinding>;
}

export class TsWorld {
  private readonly options: ts.CompilerOptions;
  private readonly project: Project;
  private readonly syncCache = new Map<string, boolean>();
  /** absolute paths of the generated files held in memory */
  private readonly drafts = new Set<string>();

  /** `cwd`: the folder relative paths are relative to (default: the process's working directory) */
  constructor(private readonly cwd: string = process.cwd()) {
    // the user's `paths` and bundler resolution apply: generated code and node modules resolve as the
    // user's tsc resolves them
    const { paths, pathsBasePath, bundler } = userTsconfig(cwd);
    this.options = {
      ...STRICT_OPTIONS,
      ...(paths ? { paths, pathsBasePath } : {}),
      ...(bundler ? { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler } : {}),
    };
    this.project = new Project({ compilerOptions: this.options, skipAddingFilesFromTsConfig: true });
  }

  /**
   * One world per working directory, kept between builds of one process (`--watch`, tests): TypeScript's
   * library files are parsed once. Each build starts with `refresh()`.
   */
  static shared(cwd: string = process.cwd()): TsWorld {
    let w = worlds.get(cwd);
    if (!w) worlds.set(cwd, (w = new TsWorld(cwd)));
    w.refresh();
    return w;
  }

  /**
   * Forgets the previous build: its generated drafts leave memory (the files on disk apply again), the
   * user's modules are re-read from disk where they changed, and sync answers are recomputed.
   */
  refresh(): void {
    this.syncCache.clear();
    for (const path of this.drafts) {
      const sf = this.project.getSourceFile(path);
      if (sf) this.project.removeSourceFile(sf);
    }
    this.drafts.clear();
    for (const sf of this.project.getSourceFiles()) {
      if (!sf.isInNodeModules()) sf.refreshFromFileSystemSync();
    }
  }

  /**
   * `fn` is imported by `graphFile`, whose generated code is `outFile`: resolves the module from `outFile`
   * and looks at the export's call signatures. Unknown or unresolvable means "not sync" (always safe).
   */
  isSync(fn: ImportRef, outFile: string): boolean {
    const key = `${posix.dirname(outFile)}|${fn.module}|${fn.exported}`;
    const hit = this.syncCache.get(key);
    if (hit !== undefined) return hit;
    const result = this.computeSync(fn, outFile);
    this.syncCache.set(key, result);
    return result;
  }

  /** Whether `module` (a package or a path) resolves from `outFile`, as tsc resolves it. */
  resolves(module: string, outFile: string): boolean {
    return this.resolution(module, outFile) !== undefined;
  }

  private resolution(module: string, outFile: string): ts.ResolvedModuleFull | undefined {
    return ts.resolveModuleName(
      module,
      absolute(outFile, this.cwd),
      this.options,
      this.project.getModuleResolutionHost(),
      undefined,
      undefined,
      ts.ModuleKind.ESNext,
    ).resolvedModule;
  }

  /** The local module a specifier resolves to from `outFile` (undefined for packages and missing files). */
  private resolve(module: string, outFile: string): string | undefined {
    const resolved = this.resolution(module, outFile);
    return !resolved || resolved.isExternalLibraryImport ? undefined : resolved.resolvedFileName;
  }

  /**
   * Adds every module the generated files will import before the first type query: each file added
   * later would make TypeScript rebuild its program and checker.
   */
  prepare(imports: readonly { module: string; outFile: string }[]): void {
    for (const i of imports) {
      const path = this.resolve(i.module, i.outFile);
      if (path && !this.project.getSourceFile(path)) this.project.addSourceFileAtPathIfExists(path);
    }
  }

  private computeSync(fn: ImportRef, outFile: string): boolean {
    const path = this.resolve(fn.module, outFile);
    if (path === undefined) return false;
    const file = this.project.getSourceFile(path) ?? this.project.addSourceFileAtPathIfExists(path);
    if (!file) return false;
    const decls = file.getExportedDeclarations().get(fn.exported);
    const decl = decls?.[0];
    if (!decl || decls.length !== 1) return false;
    const signatures = decl.getType().getCallSignatures();
    return signatures.length > 0 && signatures.every((s) => isPlainValue(s.getReturnType()));
  }

  /**
   * Puts generated files into the in-memory project (replacing earlier versions). The user's modules often
   * import their types from the generated file, so sync detection runs after a first, unformatted emit is
   * staged: otherwise a fresh build would see those types as errors.
   */
  stage(files: readonly { path: string; text: string }[]): void {
    for (const f of files) this.put(f.path, f.text);
  }

  /** the generated file in memory; unchanged text keeps the program (and its checker) as it is */
  private put(path: string, text: string) {
    const abs = absolute(path, this.cwd);
    this.drafts.add(abs);
    const existing = this.project.getSourceFile(abs);
    if (existing && existing.getFullText() === text) return existing;
    return this.project.createSourceFile(abs, text, { overwrite: true });
  }

  /** Type-checks the generated files (with everything they import) and maps errors back to `.graph` spans. */
  diagnose(files: readonly GeneratedForCheck[]): Diagnostic[] {
    const added = files.map((f) => ({ f, sf: this.put(f.path, f.text) }));
    const out: Diagnostic[] = [];
    for (const { f, sf } of added) {
      for (const diag of this.project.getProgram().getSemanticDiagnostics(sf).concat(this.project.getProgram().getSyntacticDiagnostics(sf))) {
        const line = diag.getLineNumber();
        const span = (line !== undefined ? f.lines[line - 1] : undefined) ?? fileStart(f.source);
        const text = line !== undefined ? (f.text.split("\n")[line - 1] ?? "") : "";
        out.push(toDiagnostic(span, text, flatten(diag.getMessageText()), diag.getCode(), f.bindings));
      }
    }
    return out;
  }
}

const worlds = new Map<string, TsWorld>();

/** Not a Promise or thenable, not any/unknown (then we cannot tell). */
function isPlainValue(t: Type): boolean {
  if (t.isAny() || t.isUnknown()) return false;
  if (t.isUnion()) return t.getUnionTypes().every(isPlainValue);
  return t.getProperty("then") === undefined;
}

function absolute(p: string, cwd: string): string {
  return posix.isAbsolute(p) ? p : posix.join(cwd.replace(/\\/g, "/"), p);
}

function fileStart(file: string): Span {
  const p = { offset: 0, line: 1, column: 1 };
  return { file, start: p, end: p };
}

function flatten(m: string | { getMessageText(): string; getNext(): unknown }): string {
  if (typeof m === "string") return m;
  const parts: string[] = [];
  const walk = (c: { getMessageText(): string; getNext(): unknown }) => {
    parts.push(c.getMessageText());
    const next = c.getNext() as { getMessageText(): string; getNext(): unknown }[] | undefined;
    for (const n of next ?? []) walk(n);
  };
  walk(m);
  // the first levels say what does not fit and why; deeper ones repeat it member by member
  return parts.slice(0, 3).join(" ");
}

/** The generated line tells which user function failed its type (see spec-nodes.ts: `const fn: T = f;`). */
function toDiagnostic(span: Span, line: string, detail: string, code: number, bindings: ReadonlyMap<string, FnBinding>): Diagnostic {
  const m = /const fn: (.*) = ([\w$]+);/.exec(line);
  const b = m ? bindings.get(`${m[1]} = ${m[2]}`) : undefined;
  if (b) {
    switch (b.role) {
      case "node":
        return d.nodeFnMismatch(span, { node: b.node, fn: b.fn, detail });
      case "router":
      case "send":
        return d.branchFnMismatch(span, { fn: b.fn, role: b.role === "send" ? "send function" : "router", detail });
      case "in":
      case "out":
        return d.subgraphTransformMismatch(span, { fn: b.fn, direction: b.role, detail });
    }
  }
  return d.tsErrorInGenerated(span, { detail, code });
}
