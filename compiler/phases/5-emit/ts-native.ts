/**
 * The TypeScript pass on native TypeScript 7 (`typescript/unstable/sync`: the `tsc` binary of the
 * `typescript` package, spoken to over a pipe): the same answers as the ts-morph world (ts-check.ts), at a
 * fraction of its cost — the binary parses lib.dom and @types/node in parallel, in Go, and nothing of
 * TypeScript's JavaScript is loaded into the process (about 0.6 s to load, 2 s to parse, cold).
 *
 * The program is a tsconfig that exists only here (`CONFIG` in the working directory, served by the
 * `readFile` callback): graphc's strict options, the user's `paths`, and the drafts as root files. The
 * drafts live in memory too: the binary asks for every file it reads, and the drafts' paths are answered
 * from memory, every other file from disk. Each build is a new snapshot listing what changed since the last
 * one (the drafts whose text changed, the user's modules whose size or mtime did), so a `--watch` rebuild
 * re-parses only those.
 */
import { statSync } from "node:fs";
import { posix } from "node:path";
import { isTypeReference, isUnionType, SymbolFlags, TypeFlags, SignatureKind, type API, type Diagnostic as TsDiagnostic, type Project, type Snapshot, type Type } from "typescript/unstable/sync";
import type { Node } from "typescript/unstable/ast";
import type { Diagnostic } from "../../../grammar/diagnostic.ts";
import type { ImportRef } from "../2-bind/model.ts";
import { appendAll } from "../../../grammar/append.ts";
import { userTsconfig } from "../../user-tsconfig.ts";
import { nativeApi, serveFiles, type NativeFiles } from "../../ts-native-api.ts";
import { absolute, chainText, fileStart, MISSING_EXPORT, missingName, namedModule, toDiagnostic, type GeneratedForCheck, type TsPass } from "./ts-check.ts";
import { STRICT_CONFIG } from "./strict-config.ts";
import { factsOf, type TypeView } from "./return-facts.ts";
import { UNKNOWN_RETURN, type ReturnFacts } from "../4-lower/index.ts";

/** The tsconfig.json only the native binary sees (never written): its name must not clash with a user's file. */
const CONFIG = ".graphc-typecheck.tsconfig.json";

export class NativeWorld implements TsPass, NativeFiles {
  private readonly config: string;
  private readonly options: Record<string, unknown>;
  /** absolute path -> text of the drafts held in memory */
  private readonly drafts = new Map<string, string>();
  /** resolution probes (`resolves`) of this build: path -> text */
  private readonly probes = new Map<string, string>();
  /** `folders()`: undefined once a draft or probe is added or removed */
  private folderSet: Set<string> | undefined;
  /** draft paths and the config whose text changed since the last snapshot */
  private readonly changed = new Set<string>();
  /** the user's modules in the program: size and mtime when last read */
  private readonly seen = new Map<string, string>();
  /**
   * an import of the current snapshot did not resolve: the next snapshot reads the disk afresh (a module
   * created since, which no change list names, must be seen as the JavaScript pass sees it)
   */
  private unresolved = false;
  /**
   * per draft: its diagnostics, kept while its text and line table stay the same and nothing it imports
   * (through the user's modules too) changed — a `--watch` rebuild re-checks only what an edit can affect;
   * every snapshot has a new checker, which would check every draft again
   */
  private readonly diagnosed = new Map<string, { key: string; diagnostics: Diagnostic[] }>();
  /** `returns` answers by the generated file's folder, module and export, with the module's file */
  private readonly syncAnswers = new Map<string, { answer: ReturnFacts; file: string }>();
  /** the drafts whose text the current snapshot changed; undefined: keep nothing (a user module, the config or the file set changed) */
  private changedDrafts: ReadonlySet<string> | undefined;
  /** per file of the current snapshot: is it, or does it import, a changed draft */
  private stale = new Map<string, boolean>();
  private snapshot: Snapshot | undefined;
  private project: Project | undefined;
  private opened = false;

  constructor(
    private readonly api: API,
    private readonly cwd: string,
  ) {
    this.config = absolute(CONFIG, cwd);
    const { paths, pathsBasePath, bundler } = userTsconfig(cwd);
    // paths are written absolute: the config's own folder is not the user's tsconfig's
    const absPaths = paths && Object.fromEntries(Object.entries(paths).map(([k, v]) => [k, v.map((p) => posix.resolve(pathsBasePath ?? cwd, p))]));
    this.options = {
      ...STRICT_CONFIG,
      ...(absPaths ? { paths: absPaths } : {}),
      ...(bundler ? { module: "esnext", moduleResolution: "bundler" } : {}),
    };
  }

  /**
   * One world per working directory, kept between builds of one process (`--watch`, the language server,
   * tests); undefined when native TypeScript is not available.
   */
  static shared(cwd: string = process.cwd()): NativeWorld | undefined {
    let w = worlds.get(cwd);
    if (!w) {
      const api = nativeApi();
      if (!api) return undefined;
      worlds.set(cwd, (w = new NativeWorld(api, cwd)));
      serveFiles(w);
    }
    w.refresh();
    return w;
  }

  /** the binary's file system: the config and the drafts from memory, everything else from disk */
  readFile(path: string): string | undefined {
    if (path === this.config) return JSON.stringify({ compilerOptions: this.options, files: [...this.drafts.keys(), ...this.probes.keys()] });
    return this.drafts.get(path) ?? this.probes.get(path);
  }

  fileExists(path: string): true | undefined {
    return path === this.config || this.drafts.has(path) || this.probes.has(path) ? true : undefined;
  }

  directoryExists(path: string): true | undefined {
    return this.folders().has(path) ? true : undefined;
  }

  /** the folders of the drafts and probes and every folder above them (made again when either changes) */
  private folders(): ReadonlySet<string> {
    if (this.folderSet !== undefined) return this.folderSet;
    const folders = new Set<string>();
    for (const file of [...this.drafts.keys(), ...this.probes.keys()]) {
      for (let d = posix.dirname(file); !folders.has(d); d = posix.dirname(d)) folders.add(d);
    }
    return (this.folderSet = folders);
  }

  refresh(): void {
    // the snapshot is taken lazily, once the drafts are staged (stage, then the first query)
    this.project = undefined;
  }

  stage(files: readonly { path: string; text: string }[]): void {
    this.folderSet = undefined;
    const now = new Map(files.map((f) => [absolute(f.path, this.cwd), f.text]));
    for (const path of this.probes.keys()) this.changed.add(path).add(this.config);
    this.probes.clear();
    for (const path of this.drafts.keys()) {
      if (now.has(path)) continue;
      this.drafts.delete(path);
      this.changed.add(path);
      this.changed.add(this.config);
    }
    for (const [path, text] of now) {
      if (this.drafts.get(path) === text) continue;
      if (!this.drafts.has(path)) this.changed.add(this.config);
      this.drafts.set(path, text);
      this.changed.add(path);
    }
  }

  prepare(): void {
    // the user's modules the drafts import come into the program through the drafts' imports
  }

  /** The project of the current build: a new snapshot when anything changed since the last one. */
  private current(): Project {
    if (this.project) return this.project;
    for (const [path, stamp] of this.seen) if (fileStamp(path) !== stamp) this.changed.add(path);
    this.stale = new Map();
    this.changedDrafts = new Set();
    if (!this.opened || this.changed.size > 0 || this.unresolved) {
      const changed = [...this.changed];
      this.changed.clear();
      // a user module can declare globals, the config changes the file set: then nothing is kept
      this.changedDrafts = this.opened && !this.unresolved && changed.every((p) => this.drafts.has(p)) ? new Set(changed) : undefined;
      const previous = this.snapshot;
      const fileChanges = this.unresolved ? { invalidateAll: true as const } : { changed };
      this.unresolved = false;
      this.snapshot = this.api.updateSnapshot(this.opened ? { fileChanges } : { openProjects: [this.config] });
      this.opened = true;
      previous?.dispose();
    }
    const project = this.snapshot!.getProject(this.config);
    if (!project) throw new Error(`TypeScript did not open ${this.config}`);
    this.project = project;
    for (const path of project.program.getSourceFileNames()) {
      if (!this.drafts.has(path) && !this.probes.has(path) && !path.includes("/node_modules/") && !path.startsWith("bundled:")) this.seen.set(path, fileStamp(path));
    }
    return project;
  }

  /** the module symbol an import of `module` in `file` (a draft or a probe) resolves to; undefined: not resolved or not imported */
  private moduleOf(module: string, file: string) {
    const project = this.current();
    const sf = project.program.getSourceFile(absolute(file, this.cwd));
    const specifier = sf?.imports.find((i) => "text" in i && i.text === module);
    const symbol = specifier && project.checker.getSymbolAtLocation(specifier);
    if (specifier && !symbol) this.unresolved = true;
    return symbol;
  }

  /**
   * A draft that does not import `module` (an empty `.graph` file's) asks a probe beside it: a module of
   * one `import` (`.mts`, so resolved as an ES import whatever the package's type), a root of the next
   * snapshot until the next build's `stage`.
   */
  resolves(module: string, outFile: string): boolean {
    const draft = absolute(outFile, this.cwd);
    if (this.imports(draft, module)) return this.moduleOf(module, draft) !== undefined;
    const probe = posix.join(posix.dirname(draft), `.graphc-resolve-${this.probes.size}.mts`);
    this.probes.set(probe, `import ${JSON.stringify(module)};\n`);
    this.folderSet = undefined;
    this.changed.add(probe).add(this.config);
    this.project = undefined;
    return this.moduleOf(module, probe) !== undefined;
  }

  private imports(draft: string, module: string): boolean {
    return this.current().program.getSourceFile(draft)?.imports.some((i) => "text" in i && i.text === module) ?? false;
  }

  /**
   * Kept between snapshots like a draft's diagnostics: while the function's module is not, and imports no,
   * draft the snapshot changed, and no user module or the file set changed (`diagnose`).
   */
  returns(fn: ImportRef, outFile: string): ReturnFacts {
    this.current();
    const key = `${posix.dirname(absolute(outFile, this.cwd))}\u0000${fn.module}\u0000${fn.exported}`;
    const kept = this.syncAnswers.get(key);
    if (kept !== undefined && this.changedDrafts !== undefined && !this.dependsOnChange(kept.file)) return kept.answer;
    const mod = this.moduleOf(fn.module, outFile);
    const file = mod?.declarations[0]?.path;
    const answer = mod === undefined ? UNKNOWN_RETURN : this.computeFacts(mod, fn);
    if (file === undefined) this.syncAnswers.delete(key);
    else this.syncAnswers.set(key, { answer, file });
    return answer;
  }

  private computeFacts(mod: NonNullable<ReturnType<NativeWorld["moduleOf"]>>, fn: ImportRef): ReturnFacts {
    const { checker } = this.current();
    let symbol = checker.getMemberInModuleExports(mod, fn.exported);
    if (symbol && symbol.flags & SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
    if (!symbol || checker.isUnknownSymbol(symbol) || symbol.declarations.length !== 1) return UNKNOWN_RETURN;
    const type = checker.getTypeOfSymbol(symbol);
    if (!type) return UNKNOWN_RETURN;
    const returned = checker.getSignaturesOfType(type, SignatureKind.Call).map((s) => checker.getReturnTypeOfSignature(s));
    if (returned.length === 0 || returned.some((t) => t === undefined)) return UNKNOWN_RETURN;
    const plain = (t: Type | undefined): boolean => {
      if (!t || t.flags & (TypeFlags.Any | TypeFlags.Unknown)) return false;
      if (isUnionType(t)) return t.getTypes().every(plain);
      return checker.getPropertyOfType(t, "then") === undefined;
    };
    // return-facts.ts's view of a native type
    const view: TypeView<Type> = {
      opaque: (t) => (t.flags & (TypeFlags.Any | TypeFlags.Unknown | TypeFlags.Never)) !== 0,
      members: (t) => (isUnionType(t) ? t.getTypes() : undefined),
      primitive: (t) => (t.flags & TypeFlags.Primitive) !== 0,
      propertyNames: (t) => checker.getPropertiesOfType(t).map((p) => p.name),
      indexed: (t) => checker.getIndexInfosOfType(t).length > 0,
      promised: (t) => {
        const args = t.getSymbol()?.name === "Promise" && isTypeReference(t) ? checker.getTypeArguments(t) : [];
        return args.length === 1 ? args[0] : undefined;
      },
    };
    return factsOf(returned as Type[], view, plain);
  }

  diagnose(files: readonly GeneratedForCheck[]): Diagnostic[] {
    const { program } = this.current();
    const out: Diagnostic[] = [];
    for (const f of files) {
      const path = absolute(f.path, this.cwd);
      const key = `${f.text}\u0000${f.source}\u0000${f.lines.map((s) => (s ? `${s.file}:${s.start.offset}:${s.end.offset}` : "")).join(",")}`;
      const kept = this.diagnosed.get(path);
      if (kept !== undefined && kept.key === key && this.changedDrafts !== undefined && !this.dependsOnChange(path)) {
        appendAll(out, kept.diagnostics);
        continue;
      }
      nativeChecks.files++;
      const lineStarts = lineStartsOf(f.text);
      const lines = f.text.split("\n");
      const mine: Diagnostic[] = [];
      for (const diag of program.getSemanticDiagnostics(path).concat(program.getSyntacticDiagnostics(path))) {
        if (UNRESOLVED.has(diag.code)) this.unresolved = true;
        const line = diag.fileName === undefined ? undefined : lineOf(lineStarts, diag.pos);
        const span = (line !== undefined ? f.lines[line - 1] : undefined) ?? fileStart(f.source);
        const text = line !== undefined ? (lines[line - 1] ?? "") : "";
        mine.push(toDiagnostic(span, text, flatten(diag), diag.code, f.bindings));
      }
      appendAll(mine, this.missingNames(path, f, lineStarts));
      this.diagnosed.set(path, { key, diagnostics: mine });
      appendAll(out, mine);
    }
    return out;
  }

  /** G3098 in the user's modules the draft at `path` imports (ts-check.ts `missingName`) */
  private missingNames(path: string, f: GeneratedForCheck, lineStarts: readonly number[]): Diagnostic[] {
    const { program, checker } = this.current();
    const out: Diagnostic[] = [];
    const target = (specifier: Node) => checker.getSymbolAtLocation(specifier)?.declarations[0]?.path;
    for (const specifier of program.getSourceFile(path)?.imports ?? []) {
      const user = target(specifier);
      if (user === undefined || !this.seen.has(user)) continue;
      const span = f.lines[lineOf(lineStarts, specifier.pos) - 1] ?? fileStart(f.source);
      const sf = program.getSourceFile(user);
      for (const diag of program.getSemanticDiagnostics(user)) {
        const named = MISSING_EXPORT.has(diag.code) ? namedModule(diag.text) : undefined;
        const from = named === undefined ? undefined : sf?.imports.find((i) => "text" in i && i.text === named);
        if (from === undefined || !this.drafts.has(target(from) ?? "")) continue;
        const starts = lineStartsOf(sf!.text);
        const line = lineOf(starts, diag.pos);
        out.push(missingName(span, { file: user, line, column: diag.pos - starts[line - 1]! + 1 }, flatten(diag), diag.code, this.cwd));
      }
    }
    return out;
  }

  /**
   * Is `path`, or a file it imports (transitively, outside node_modules), a draft whose text the current
   * snapshot changed? An import TypeScript does not resolve to a file counts as a change (cannot tell).
   */
  private dependsOnChange(path: string): boolean {
    const known = this.stale.get(path);
    if (known !== undefined) return known;
    this.stale.set(path, false); // import cycles: an open file does not make itself stale
    const { program, checker } = this.current();
    const sf = program.getSourceFile(path);
    let stale = sf === undefined || this.changedDrafts?.has(path) !== false;
    for (const specifier of sf?.imports ?? []) {
      if (stale) break;
      const target = checker.getSymbolAtLocation(specifier)?.declarations[0]?.path;
      if (target !== undefined && (target.includes("/node_modules/") || target.startsWith("bundled:"))) continue;
      stale = target === undefined || this.dependsOnChange(target);
    }
    this.stale.set(path, stale);
    return stale;
  }
}

const worlds = new Map<string, NativeWorld>();

/** generated files TypeScript checked (not kept from an earlier build); read by tests of the rebuild path */
export const nativeChecks = { files: 0 };

/** TypeScript's "cannot find module" errors (2307; 2792: "…set the 'moduleResolution' option") */
const UNRESOLVED = new Set([2307, 2792]);

/** size and mtime: a user module whose stamp changed is re-read by the next snapshot */
function fileStamp(path: string): string {
  try {
    const s = statSync(path);
    return `${s.size}:${s.mtimeMs}`;
  } catch {
    return "missing";
  }
}

function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}

/** 1-based line of `pos` */
function lineOf(starts: readonly number[], pos: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/** the message and its chain, depth first, as ts-check.ts `chainText` puts it */
function flatten(d: TsDiagnostic): string {
  const parts: string[] = [];
  const walk = (c: TsDiagnostic) => {
    parts.push(c.text);
    for (const n of c.messageChain ?? []) walk(n);
  };
  walk(d);
  return chainText(parts);
}
