/**
 * The server's view of the files: documents open in the editor override the disk (an overlay
 * CompilerHost), and the program checked is every open `.graph` document plus the `.graph` files beside
 * it (a sibling may import the file being edited, so its diagnostics change too).
 *
 * `model()` answers features (hover, completion…) from a check of the current texts — cheap (parse, bind,
 * check), cached per edit generation. `diagnose()` runs the whole pipeline, the TypeScript pass included,
 * through `compileChecked` with `emit: false`: no prettier and no source maps per keystroke, and the
 * TypeScript pass reuses one ts-morph project per project root (TsWorld.shared): library files and user
 * modules are parsed once, only the generated drafts are replaced.
 */
import { readdirSync } from "node:fs";
import { posix } from "node:path";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { check, type CheckResult } from "../check.ts";
import { compileChecked } from "../compile.ts";
import type { Diagnostic } from "../../grammar/diagnostic.ts";
import { nodeHost, type CompilerHost } from "../phases/2-bind/host.ts";
import { projectRoot } from "../phases/2-bind/project-root.ts";
import { uriToPath } from "./paths.ts";

export interface WorkspaceOptions {
  /** run the TypeScript pass for diagnostics (default true) */
  readonly typecheck: boolean;
}

export interface Analysis {
  readonly generation: number;
  readonly checked: CheckResult;
  readonly entries: readonly string[];
}

export class Workspace {
  private readonly open = new Map<string, TextDocument>();
  private readonly disk = nodeHost();
  private readonly siblings = new Map<string, string[]>();
  private generation = 0;
  private cached: Analysis | undefined;
  private single: Analysis | undefined;

  constructor(readonly options: WorkspaceOptions) {}

  /** reads open documents first, then the disk */
  readonly host: CompilerHost = {
    readFile: (path) => this.open.get(path)?.getText() ?? this.disk.readFile(path),
    realPath: (path) => this.disk.realPath!(path) ?? (this.open.has(path) ? path : undefined),
  };

  /** an opened or edited document (a new generation: cached answers are stale) */
  update(doc: TextDocument): void {
    const path = uriToPath(doc.uri);
    if (path === undefined) return;
    if (!this.open.has(path)) this.siblings.delete(posix.dirname(path));
    this.open.set(path, doc);
    this.generation++;
  }

  close(uri: string): void {
    const path = uriToPath(uri);
    if (path !== undefined && this.open.delete(path)) this.generation++;
  }

  /** files changed on disk (a saved TypeScript module, a new `.graph` file) */
  changedOnDisk(): void {
    this.siblings.clear();
    this.generation++;
  }

  get current(): number {
    return this.generation;
  }

  /** the document's text: the editor's when open, else the disk's */
  text(path: string): string | undefined {
    return this.host.readFile(path);
  }

  isOpen(path: string): boolean {
    return this.open.has(path);
  }

  entries(): string[] {
    const out = new Set<string>();
    for (const path of [...this.open.keys()].sort()) {
      out.add(path);
      for (const s of this.siblingsOf(posix.dirname(path))) out.add(s);
    }
    return [...out];
  }

  private siblingsOf(dir: string): string[] {
    let list = this.siblings.get(dir);
    if (!list) {
      try {
        list = readdirSync(dir).filter((f) => f.endsWith(".graph")).sort().map((f) => posix.join(dir, f));
      } catch {
        list = [];
      }
      this.siblings.set(dir, list);
    }
    return list;
  }

  /** parse, bind and check of the current texts (cached until the next edit) */
  model(): Analysis {
    if (this.cached?.generation !== this.generation) {
      const entries = this.entries();
      this.cached = { generation: this.generation, entries, checked: check(entries, this.host) };
    }
    return this.cached;
  }

  /**
   * The check that holds `path`: the workspace's, or — for a file neither open nor beside an open one (a
   * preview asked for by URI) — a check of that file alone, cached like the workspace's.
   */
  modelFor(path: string): Analysis {
    const model = this.model();
    if (model.checked.program?.files.has(path)) return model;
    if (this.single?.generation !== this.generation || this.single.entries[0] !== path)
      this.single = { generation: this.generation, entries: [path], checked: check([path], this.host) };
    return this.single;
  }

  /**
   * Every diagnostic of the current texts, the TypeScript pass included when enabled. Open files may belong
   * to different projects (a monorepo, a sample beside the app): each project's files are compiled with
   * their own root as the TypeScript pass's folder, so its tsconfig and node modules are the ones that apply.
   */
  async diagnose(): Promise<{ analysis: Analysis; diagnostics: Diagnostic[] }> {
    const analysis = this.model();
    if (analysis.entries.length === 0) return { analysis, diagnostics: [] };
    const byRoot = new Map<string, string[]>();
    for (const e of analysis.entries) {
      const root = projectRoot([e], this.host).dirs[0] ?? "";
      byRoot.set(root, [...(byRoot.get(root) ?? []), e]);
    }
    const options = { host: this.host, emit: false, typecheck: this.options.typecheck };
    if (byRoot.size === 1) {
      const result = await compileChecked(analysis.checked, analysis.entries, { ...options, cwd: [...byRoot.keys()][0] });
      return { analysis, diagnostics: result.diagnostics };
    }
    const seen = new Set<string>();
    const diagnostics: Diagnostic[] = [];
    for (const [root, entries] of byRoot) {
      const result = await compileChecked(check(entries, this.host), entries, { ...options, cwd: root });
      for (const d of result.diagnostics) {
        const key = JSON.stringify([d.code, d.span, d.message]);
        if (!seen.has(key)) diagnostics.push(d);
        seen.add(key);
      }
    }
    return { analysis, diagnostics };
  }
}
