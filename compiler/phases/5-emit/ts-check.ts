/**
 * TypeScript's view of the user's modules and of the generated code, through ts-morph (in memory: nothing
 * is written to disk). The fallback of the native pass (ts-native.ts, the same answers), used when the
 * native binary cannot start; the helpers that map errors to graphc diagnostics serve both.
 *
 * - `returns`: whether an imported node/router function never returns a Promise (`sync`) and never a
 *   Command (`noCommand`, return-facts.ts), decided from its declared or inferred type, resolving the module
 *   specifier exactly as tsc does from the generated file.
 * - `diagnose`: type-checks generated files together with the user modules they import and maps every
 *   TypeScript error in generated code back to the `.graph` span it was generated from (via the line
 *   table of the emitter), as a graphc diagnostic: a node function with the wrong signature is G3092 at
 *   the `node` line; a router/send function G3093; a subgraph transform G5090; anything else G3094.
 */
import { posix } from "node:path";
import type { Project, SourceFile, ts as TS, Type } from "ts-morph";
import { ts, tsMorph } from "../../ts-api.ts";
import type { Diagnostic } from "../../../grammar/diagnostic.ts";
import type { Span } from "../../../grammar/span.ts";
import { d } from "../../diagnostics/messages.ts";
import type { ImportRef } from "../2-bind/model.ts";
import { userTsconfig } from "../../user-tsconfig.ts";
import { appendAll } from "../../../grammar/append.ts";
import type { FnBinding } from "./context.ts";
import { STRICT_CONFIG } from "./strict-config.ts";
import { factsOf, type TypeView } from "./return-facts.ts";
import { UNKNOWN_RETURN, type ReturnFacts } from "../4-lower/index.ts";

/** The repository's strict settings (strict-config.ts): generated code must be clean under them. */
const strictOptions = (): TS.CompilerOptions => ts.convertCompilerOptionsFromJson(STRICT_CONFIG, "/").options;

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

/** What a build asks of its TypeScript pass (typecheck.ts), on ts-morph (TsWorld) or native TypeScript (NativeWorld). */
export interface TsPass {
  /** starts a build: what changed on disk since the last one is read again */
  refresh(): void;
  /** the drafts of this build, in memory */
  stage(files: readonly { path: string; text: string }[]): void;
  /** the modules the drafts import, before the first query */
  prepare(imports: readonly { module: string; outFile: string }[]): void;
  resolves(module: string, outFile: string): boolean;
  returns(fn: ImportRef, outFile: string): ReturnFacts;
  diagnose(files: readonly GeneratedForCheck[]): Diagnostic[];
}

export class TsWorld implements TsPass {
  private readonly options: TS.CompilerOptions;
  private readonly project: Project;
  /** return facts by `dir|module|export`, with the user module they were read from */
  private readonly syncCache = new Map<string, { answer: ReturnFacts; file: SourceFile | undefined }>();
  /** absolute paths of the generated files held in memory */
  private readonly drafts = new Set<string>();
  /** drafts of the current build whose text differs from the previous build's */
  private readonly changed = new Set<string>();
  /** per draft: its diagnostics, valid while the draft's text and line table and everything it imports stay the same */
  private readonly diagnosed = new Map<string, { key: string; diagnostics: Diagnostic[] }>();
  /** per source file, this build: does it import (transitively) a changed draft? */
  private stale = new Map<SourceFile, boolean>();

  /** `cwd`: the folder relative paths are relative to (default: the process's working directory) */
  constructor(private readonly cwd: string = process.cwd()) {
    // the user's `paths` and bundler resolution apply: generated code and node modules resolve as the
    // user's tsc resolves them
    const { paths, pathsBasePath, bundler } = userTsconfig(cwd);
    this.options = {
      ...strictOptions(),
      ...(paths ? { paths, pathsBasePath } : {}),
      ...(bundler ? { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler } : {}),
    };
    this.project = new (tsMorph().Project)({ compilerOptions: this.options, skipAddingFilesFromTsConfig: true });
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
   * Starts a build: the user's modules are re-read from disk where they changed. What the previous build
   * learnt is kept where it still holds (a `--watch` rebuild after a one-line edit re-checks only what the
   * edit can affect): when a user module changed, nothing is kept; otherwise a draft's diagnostics are
   * kept while it and the drafts it imports are unchanged (`diagnose`), and a sync answer while its module
   * imports no changed draft (`isSync`). The previous drafts stay in memory until `stage` replaces them.
   */
  refresh(): void {
    this.changed.clear();
    this.stale = new Map();
    let userChanged = false;
    for (const sf of this.project.getSourceFiles()) {
      if (sf.isInNodeModules() || this.drafts.has(sf.getFilePath())) continue;
      if (sf.refreshFromFileSystemSync() !== tsMorph().FileSystemRefreshResult.NoChange) userChanged = true;
    }
    if (userChanged) this.forget();
  }

  private forget(): void {
    this.syncCache.clear();
    this.diagnosed.clear();
  }

  /** whether `sf` is, or imports (transitively), a draft whose text changed in this build */
  private dependsOnChange(sf: SourceFile): boolean {
    const known = this.stale.get(sf);
    if (known !== undefined) return known;
    this.stale.set(sf, false); // import cycles: an open file does not make itself stale
    const stale = this.changed.has(sf.getFilePath()) || sf.getReferencedSourceFiles().some((r) => !r.isInNodeModules() && this.dependsOnChange(r));
    this.stale.set(sf, stale);
    return stale;
  }

  /**
   * `fn` is imported by `graphFile`, whose generated code is `outFile`: resolves the module from `outFile`
   * and looks at the export's call signatures. Unknown or unresolvable means "not sync, may return a Command"
   * (always safe).
   */
  returns(fn: ImportRef, outFile: string): ReturnFacts {
    const key = `${posix.dirname(outFile)}|${fn.module}|${fn.exported}`;
    const hit = this.syncCache.get(key);
    if (hit !== undefined && (hit.file === undefined || !this.dependsOnChange(hit.file))) return hit.answer;
    const path = this.resolve(fn.module, outFile);
    const file = path === undefined ? undefined : (this.project.getSourceFile(path) ?? this.project.addSourceFileAtPathIfExists(path));
    const answer = file === undefined ? UNKNOWN_RETURN : this.computeFacts(fn, file);
    this.syncCache.set(key, { answer, file });
    return answer;
  }

  /** Whether `module` (a package or a path) resolves from `outFile`, as tsc resolves it. */
  resolves(module: string, outFile: string): boolean {
    return this.resolution(module, outFile) !== undefined;
  }

  private resolution(module: string, outFile: string): TS.ResolvedModuleFull | undefined {
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
      // a module new to the program can change what earlier answers depended on
      if (path && !this.project.getSourceFile(path) && this.project.addSourceFileAtPathIfExists(path)) this.forget();
    }
  }

  private computeFacts(fn: ImportRef, file: SourceFile): ReturnFacts {
    const decls = file.getExportedDeclarations().get(fn.exported);
    const decl = decls?.[0];
    if (!decl || decls.length !== 1) return UNKNOWN_RETURN;
    const returned = decl.getType().getCallSignatures().map((s) => s.getReturnType());
    if (returned.length === 0) return UNKNOWN_RETURN;
    return factsOf(returned, MORPH_VIEW, isPlainValue);
  }

  /**
   * Puts generated files into the in-memory project (replacing earlier versions). The user's modules often
   * import their types from the generated file, so sync detection runs after a first, unformatted emit is
   * staged: otherwise a fresh build would see those types as errors.
   */
  stage(files: readonly { path: string; text: string }[]): void {
    const now = new Set(files.map((f) => absolute(f.path, this.cwd)));
    // drafts of the previous build that this one does not emit leave memory: the files on disk apply again
    for (const path of this.drafts) {
      if (now.has(path)) continue;
      const sf = this.project.getSourceFile(path);
      if (sf) this.project.removeSourceFile(sf);
      this.drafts.delete(path);
      this.diagnosed.delete(path);
      this.forget();
    }
    for (const f of files) this.put(f.path, f.text);
  }

  /** the generated file in memory; unchanged text keeps the program (and its checker) as it is */
  private put(path: string, text: string) {
    const abs = absolute(path, this.cwd);
    const existing = this.project.getSourceFile(abs);
    if (existing && this.drafts.has(abs) && existing.getFullText() === text) return existing;
    this.drafts.add(abs);
    this.changed.add(abs);
    this.stale = new Map();
    return this.project.createSourceFile(abs, text, { overwrite: true });
  }

  /** Type-checks the generated files (with everything they import) and maps errors back to `.graph` spans. */
  diagnose(files: readonly GeneratedForCheck[]): Diagnostic[] {
    const added = files.map((f) => ({ f, sf: this.put(f.path, f.text) }));
    const out: Diagnostic[] = [];
    for (const { f, sf } of added) {
      // the same text and line table, nothing it imports changed: the same diagnostics
      const key = `${f.text}\u0000${f.source}\u0000${f.lines.map((s) => (s ? `${s.file}:${s.start.offset}:${s.end.offset}` : "")).join(",")}`;
      const path = sf.getFilePath();
      const kept = this.diagnosed.get(path);
      if (kept !== undefined && kept.key === key && !this.dependsOnChange(sf)) {
        appendAll(out, kept.diagnostics);
        continue;
      }
      const mine: Diagnostic[] = [];
      for (const diag of this.project.getProgram().getSemanticDiagnostics(sf).concat(this.project.getProgram().getSyntacticDiagnostics(sf))) {
        const line = diag.getLineNumber();
        const span = (line !== undefined ? f.lines[line - 1] : undefined) ?? fileStart(f.source);
        const text = line !== undefined ? (f.text.split("\n")[line - 1] ?? "") : "";
        mine.push(toDiagnostic(span, text, flatten(diag.getMessageText()), diag.getCode(), f.bindings));
      }
      appendAll(mine, this.missingNames(sf, f));
      this.diagnosed.set(path, { key, diagnostics: mine });
      appendAll(out, mine);
    }
    return out;
  }

  /** G3098 in the user's modules `draft` imports (see `missingName`) */
  private missingNames(draft: SourceFile, f: GeneratedForCheck): Diagnostic[] {
    const out: Diagnostic[] = [];
    for (const decl of draft.getImportDeclarations()) {
      const user = decl.getModuleSpecifierSourceFile();
      if (user === undefined || user.isInNodeModules() || this.drafts.has(user.getFilePath())) continue;
      const span = f.lines[decl.getStartLineNumber() - 1] ?? fileStart(f.source);
      for (const diag of this.project.getProgram().getSemanticDiagnostics(user)) {
        const named = MISSING_EXPORT.has(diag.getCode()) ? namedModule(flatten(diag.getMessageText())) : undefined;
        const from = named === undefined ? undefined : user.getImportDeclaration((i) => i.getModuleSpecifierValue() === named)?.getModuleSpecifierSourceFile();
        if (from === undefined || !this.drafts.has(from.getFilePath())) continue;
        const at = user.getLineAndColumnAtPos(diag.getStart() ?? 0);
        out.push(missingName(span, { file: user.getFilePath(), ...at }, flatten(diag.getMessageText()), diag.getCode(), this.cwd));
      }
    }
    return out;
  }
}

const worlds = new Map<string, TsWorld>();

/** TypeScript's errors for an imported name its module does not export (2724: with "did you mean"; 2459/2460: declared but not exported; 2614: a default export) */
export const MISSING_EXPORT: ReadonlySet<number> = new Set([2305, 2459, 2460, 2614, 2724]);

/** the module specifier such a message names (`Module '"./x.graph.ts"' has no exported member …`) */
export function namedModule(message: string): string | undefined {
  return /'"([^"]+)"'/.exec(message)?.[1];
}

/**
 * G3098: a user module imports from a draft a name the draft does not export. TypeScript gives the name
 * its error type, which fits every check of the draft, so the functions typed with it would pass unchecked.
 * `span`: the `.graph` import of the module (its line in the draft).
 */
export function missingName(
  span: Span,
  where: { file: string; line: number; column: number },
  detail: string,
  code: number,
  cwd: string,
): Diagnostic {
  const module = posix.relative(cwd.replace(/\\/g, "/"), where.file);
  return d.generatedNameMissing(span, { module, at: `${module}:${where.line}:${where.column}`, detail, code });
}

/** the flags of a primitive type, read on first use: reading `ts` loads TypeScript (ts-api.ts) */
let primitiveFlags: number | undefined;
const primitive = (t: Type): boolean =>
  (t.getFlags() &
    (primitiveFlags ??=
      ts.TypeFlags.StringLike | ts.TypeFlags.NumberLike | ts.TypeFlags.BigIntLike | ts.TypeFlags.BooleanLike | ts.TypeFlags.EnumLike |
      ts.TypeFlags.ESSymbolLike | ts.TypeFlags.VoidLike | ts.TypeFlags.Null)) !==
  0;

/** return-facts.ts's view of a ts-morph type */
const MORPH_VIEW: TypeView<Type> = {
  opaque: (t) => (t.getFlags() & (ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.Never)) !== 0,
  members: (t) => (t.isUnion() ? t.getUnionTypes() : undefined),
  primitive,
  propertyNames: (t) => t.getProperties().map((p) => p.getName()),
  indexed: (t) => t.getStringIndexType() !== undefined || t.getNumberIndexType() !== undefined,
  promised: (t) => {
    const args = t.getSymbol()?.getName() === "Promise" ? t.getTypeArguments() : [];
    return args.length === 1 ? args[0] : undefined;
  },
};

/** Not a Promise or thenable, not any/unknown (then we cannot tell). */
function isPlainValue(t: Type): boolean {
  if (t.isAny() || t.isUnknown()) return false;
  if (t.isUnion()) return t.getUnionTypes().every(isPlainValue);
  return t.getProperty("then") === undefined;
}

export function absolute(p: string, cwd: string): string {
  return posix.isAbsolute(p) ? p : posix.join(cwd.replace(/\\/g, "/"), p);
}

export function fileStart(file: string): Span {
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
  return chainText(parts);
}

/**
 * A TypeScript message chain (depth first) as one line: the first levels say what does not fit and why,
 * the middle ones repeat it member by member, and the deepest names the field or node that does not fit
 * (`Property 'item' is missing in type '{ itme: string; }'`), so it is kept after an ellipsis.
 */
export function chainText(parts: readonly string[]): string {
  return parts.length <= 4 ? parts.join(" ") : `${parts.slice(0, 3).join(" ")} … ${parts[parts.length - 1]}`;
}

/** The generated line tells which user function failed its type (see spec-nodes.ts: `const fn: T = f;`). */
export function toDiagnostic(span: Span, line: string, detail: string, code: number, bindings: ReadonlyMap<string, FnBinding>): Diagnostic {
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
