/**
 * The compiled `.graph` modules, compiled on demand and cached per file. One compile of an entry file
 * yields every graph file it loads, so the nested graphs the bundler asks for next are cache hits. An
 * entry is reused while every file its compile read (the `.graph` files and the node modules they
 * import) still has the content it had: edits are noticed by every bundler alike, watch events or not,
 * and a graph whose dependencies did not change is never recompiled (Vite re-evaluates only the graphs an
 * edit touches).
 */
import { realpathSync } from "node:fs";
import { resolve, sep } from "node:path";
import { readText, shownPath, writeIfChanged } from "./files.ts";
import { rewriteImports } from "./imports.ts";
import type { ResolvedOptions } from "./options.ts";
import { toJavaScript, type JsModule } from "./transpile.ts";
import { loadToolchain, type GraphcDiagnostic, type GraphcEmittedFile, type GraphcHost, type Toolchain } from "./toolchain.ts";

export interface CompiledGraph {
  readonly js: JsModule;
  /** absolute paths: the files whose change makes this module stale (watched by the bundler) */
  readonly deps: readonly string[];
  /** warnings located in this graph's file */
  readonly warnings: readonly GraphcDiagnostic[];
}

export type LoadOutcome =
  | { readonly ok: true; readonly graph: CompiledGraph }
  | { readonly ok: false; readonly errors: readonly GraphcDiagnostic[]; readonly deps: readonly string[] };

interface Entry {
  readonly graph: CompiledGraph;
  /** content of every dependency when it was compiled (undefined: it did not exist) */
  readonly snapshot: ReadonlyMap<string, string | undefined>;
}

export class GraphModules {
  private toolchain: Promise<Toolchain> | undefined;
  private readonly cache = new Map<string, Entry>();

  constructor(
    private readonly options: ResolvedOptions,
    private readonly loadTools: () => Promise<Toolchain> = () => loadToolchain(),
  ) {}

  /** graphc and TypeScript, loaded once (and again after a failure, so installing graphc is picked up) */
  tools(): Promise<Toolchain> {
    this.toolchain ??= this.loadTools().catch((e: unknown) => {
      this.toolchain = undefined;
      throw e;
    });
    return this.toolchain;
  }

  async load(file: string): Promise<LoadOutcome> {
    const hit = this.cache.get(file);
    if (hit && isFresh(hit.snapshot)) return { ok: true, graph: hit.graph };
    const { graphc, ts } = await this.tools();
    const { cwd, root, typecheck, runtime } = this.options;
    // paths relative to the project folder, as `graphc build` run there shows them (hints name files too)
    const abs = (p: string) => resolve(cwd, p);
    const result = await graphc.compile([shownPath(cwd, file)], { cwd, root, typecheck, runtime, host: projectHost(cwd) });
    const errors = result.diagnostics.filter((x) => x.severity === "error");
    if (errors.length === 0 && !result.files.some((f) => abs(f.source) === file)) {
      throw new Error(`graphc compiled ${file} without errors but emitted no module for it (a graphc bug)`);
    }
    if (errors.length > 0) {
      // watch what the errors point at, and what the last good compile read (a node module may be the fix)
      const deps = new Set([file, ...errors.map((x) => abs(x.span.file)), ...(hit?.graph.deps ?? [])]);
      return { ok: false, errors, deps: [...deps] };
    }
    const rewritten = result.files.map((f) => ({ file: f, imports: rewriteImports(f.text, abs(f.path)) }));
    const imported = new Map(rewritten.map((r) => [abs(r.file.source), r.imports.files]));
    // the `.graph` texts graphc compiled (an edit during the compile then makes the entry stale, as it should)
    const compiled = new Map(result.files.map((f) => [abs(f.source), f.map.sourcesContent?.[0]]));
    for (const { file: f, imports } of rewritten) {
      const source = abs(f.source);
      // a nested graph whose own dependencies did not change keeps its module (same code, same object)
      const kept = this.cache.get(source);
      if (source !== file && kept && isFresh(kept.snapshot)) continue;
      const deps = dependencies(source, imported);
      const snapshot = new Map(deps.map((p) => [p, compiled.has(p) ? compiled.get(p) : readText(p)]));
      const warnings = result.diagnostics.filter((x) => x.severity === "warning" && x.span.file === f.source);
      const js = toJavaScript(ts, f, imports.text, snapshot.get(source) ?? "");
      this.cache.set(source, { graph: { js, deps, warnings }, snapshot });
      if (this.options.writeGenerated) writeGenerated(abs(f.path), f);
    }
    return { ok: true, graph: this.cache.get(file)!.graph };
  }
}

/**
 * What one graph's generated code depends on: its file, the node modules it imports, and the `.graph`
 * files it imports, transitively (their fields shape its types and mappings), but not their node modules.
 * So an edit recompiles the graphs it can change and no other (research.graph's module survives an edit of
 * the app.graph that uses it).
 */
function dependencies(source: string, imported: ReadonlyMap<string, readonly string[]>): string[] {
  const out = new Set([source, ...(imported.get(source) ?? [])]);
  const todo = [...out].filter((f) => f !== source && f.endsWith(".graph"));
  for (let g = todo.pop(); g !== undefined; g = todo.pop()) {
    for (const f of imported.get(g) ?? []) {
      if (!f.endsWith(".graph") || out.has(f)) continue;
      out.add(f);
      todo.push(f);
    }
  }
  return [...out];
}

function isFresh(snapshot: ReadonlyMap<string, string | undefined>): boolean {
  for (const [path, text] of snapshot) if (readText(path) !== text) return false;
  return true;
}

/** `x.graph.ts` and its map, as `graphc build` writes them; unchanged files are left alone (no watcher noise) */
function writeGenerated(path: string, f: GraphcEmittedFile): void {
  writeIfChanged(path, f.text);
  writeIfChanged(`${path}.map`, `${JSON.stringify(f.map)}\n`);
}

/** graphc's file reader with relative paths taken from `cwd` (nodeHost takes them from the process's) */
function projectHost(cwd: string): GraphcHost {
  return {
    readFile: (path) => readText(resolve(cwd, path)),
    realPath: (path) => {
      try {
        return realpathSync(resolve(cwd, path)).split(sep).join("/");
      } catch {
        return undefined;
      }
    },
  };
}
