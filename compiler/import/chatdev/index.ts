/**
 * `graphc import chatdev workflow.yaml`: a ChatDev 2.0 workflow (and every file subgraph it includes) as
 * `.graph` files, a typed node module per file and a support module (docs/contracts.md, "ChatDev import").
 *
 * File subgraphs resolve as ChatDev's loader does, but the including file's folder first (ChatDev tries
 * `yaml_instance/` first, so a same-named file there shadows the one beside the parent): the parent's
 * folder, then `<root>/yaml_instance/`, then `<root>/`, where root is the folder above the entry's
 * `yaml_instance/` (or the entry's folder). Every path stays inside the project; an include cycle is an error
 * naming the chain (ChatDev recurses until the file system gives up); a file included twice is converted once.
 */
import { format } from "../../format/index.ts";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { pascalName, snakeName, uniqueNames } from "./names.ts";
import { graphFileText } from "./graph-text.ts";
import { nodesModuleText } from "./nodes-text.ts";
import { ImportProblems, type ImportProblem } from "./problems.ts";
import { SUPPORT_FILE, SUPPORT_TEXT } from "./support-text.ts";
import { plan } from "./topology.ts";
import type { Unit } from "./unit.ts";
import { VarTable } from "./vars.ts";
import { readWorkflow, type Workflow } from "./workflow.ts";

export interface ImportFs {
  /** the file's text, or undefined when there is no such file */
  read(path: string): string | undefined;
}

export interface ImportOptions {
  /** the folder the generated files go to */
  readonly outDir: string;
  /** the project root: no workflow outside it is read (default: the entry's folder) */
  readonly root?: string | undefined;
  /** the ChatDev repository root for `yaml_instance/` lookups (default: found from the entry's path) */
  readonly chatdevRoot?: string | undefined;
}

export interface ImportedFile {
  readonly path: string;
  readonly text: string;
  /** written only when absent (the user's to edit) */
  readonly keepExisting?: boolean;
}

export interface ImportResult {
  readonly files: readonly ImportedFile[];
  readonly problems: readonly ImportProblem[];
}

export function importChatDev(entry: string, fs: ImportFs, options: ImportOptions): ImportResult {
  const problems = new ImportProblems();
  const file = resolve(entry);
  const root = resolve(options.root ?? dirname(file));
  const chatdevRoot = options.chatdevRoot ?? inferChatdevRoot(file);
  const converter = new Converter(fs, problems, resolve(options.outDir), root, chatdevRoot);
  converter.convertFile(file, [], vars0());
  if (problems.hasErrors) return { files: [], problems: problems.list };
  return { files: [...converter.files, { path: join(resolve(options.outDir), SUPPORT_FILE), text: SUPPORT_TEXT, keepExisting: true }], problems: problems.list };
}

const vars0 = (): ReadonlyMap<string, string | number | boolean> => new Map();

function inferChatdevRoot(file: string): string {
  const parts = file.split(sep);
  const i = parts.lastIndexOf("yaml_instance");
  return i > 0 ? parts.slice(0, i).join(sep) || sep : dirname(file);
}

class Converter {
  readonly files: ImportedFile[] = [];
  /** resolved YAML path → the graph name of its top unit */
  private readonly done = new Map<string, Unit>();
  private readonly graphNames = new Set<string>();

  constructor(
    private readonly fs: ImportFs,
    private readonly problems: ImportProblems,
    private readonly outDir: string,
    private readonly root: string,
    private readonly chatdevRoot: string,
  ) {}

  /** Converts one YAML file (once); returns its top unit. `inherited`: the including graph's vars (the file's own win). */
  convertFile(file: string, chain: readonly string[], inherited: ReadonlyMap<string, string | number | boolean>): Unit | undefined {
    const known = this.done.get(file);
    if (known !== undefined) return known;
    const text = this.fs.read(file);
    if (text === undefined) {
      this.problems.error(file, 1, "", "no such workflow file");
      return undefined;
    }
    const w = readWorkflow(file, text, this.problems);
    if (w === null) return undefined;
    const merged: Workflow = { ...w, vars: new Map([...inherited, ...w.vars]) };
    const base = snakeName(basename(file).replace(/\.ya?ml$/i, ""));
    const units: Unit[] = [];
    const top = this.unit(merged, [...chain, file], units, dirname(file));
    if (top === undefined) return undefined;
    this.done.set(file, top);
    const graphFile = join(this.outDir, `${base}.graph`);
    const nodesModule = `./${base}.nodes.ts`;
    const source = relative(this.outDir, file).split(sep).join("/");
    // the node module first: writing it records which vars the nodes read, which the graph then declares
    const nodesText = nodesModuleText(units, `./${base}.graph.ts`, `./${SUPPORT_FILE}`, this.problems);
    const formatted = format(graphFileText({ units, nodesModule, source }), graphFile);
    for (const d of formatted.diagnostics) this.problems.error(file, 1, "", `internal error: the translation is not valid .graph (${d.code} ${d.message}); please report it`);
    this.files.push({ path: graphFile, text: formatted.text });
    this.files.push({ path: join(this.outDir, `${base}.nodes.ts`), text: nodesText });
    return top;
  }

  /** A graph and (first, into `units`) the inline graphs it contains. */
  private unit(w: Workflow, chain: readonly string[], units: Unit[], dir: string): Unit | undefined {
    this.report(w);
    const name = this.freeGraphName(pascalName(w.id));
    const names = uniqueNames(w.nodes.map((n) => n.id), snakeName, ["task"]);
    const vars = new VarTable(w, this.problems);
    const children = new Map<string, { unit: Unit; file?: string }>();
    for (const n of w.nodes) {
      if (n.subgraph === undefined) continue;
      if (n.subgraph.kind === "config") {
        const child = this.unit({ ...n.subgraph.graph, vars: w.vars }, chain, units, dir);
        if (child) children.set(n.id, { unit: child });
        continue;
      }
      const path = this.locate(n.subgraph.path, dir, w, n.line, n.path);
      if (path === undefined) continue;
      if (chain.includes(path)) {
        const cycle = [...chain.slice(chain.indexOf(path)), path].map((p) => relative(this.root, p)).join(" -> ");
        this.problems.error(w.file, n.line, `${n.path}.config.config.path`, `subgraph \`${n.id}\` includes itself: ${cycle}`);
        continue;
      }
      const child = this.convertFile(path, chain, w.vars);
      if (child) children.set(n.id, { unit: child, file: `./${snakeName(basename(path).replace(/\.ya?ml$/i, ""))}.graph` });
    }
    const u: Unit = { w, name, plan: plan(w, this.problems), names, vars, children };
    units.push(u);
    return u;
  }

  private freeGraphName(base: string): string {
    let name = base;
    for (let i = 2; this.graphNames.has(name); i++) name = `${base}${i}`;
    this.graphNames.add(name);
    return name;
  }

  private locate(path: string, dir: string, w: Workflow, line: number, at: string): string | undefined {
    const candidates = isAbsolute(path)
      ? [path]
      : [resolve(dir, path), resolve(this.chatdevRoot, "yaml_instance", path), resolve(this.chatdevRoot, path)];
    const tried: string[] = [];
    for (const c of [...new Set(candidates)]) {
      // never read outside the project, whatever the path says
      if (!inside(this.root, c)) tried.push(`${c} (outside the project ${this.root}: not read)`);
      else if (this.fs.read(c) !== undefined) return c;
      else tried.push(c);
    }
    this.problems.error(w.file, line, `${at}.config.config.path`, `subgraph YAML not found; tried: ${tried.join(", ")}`);
    return undefined;
  }

  private report(w: Workflow): void {
    for (const u of w.unsupported) this.problems.warning(w.file, u.line, u.path, `${u.what} has no counterpart in graphc and is left out`);
    for (const e of w.edges) {
      for (const k of e.unsupported) this.problems.warning(w.file, e.line, `${e.path}.${k}`, `edge \`${e.from}\` -> \`${e.to}\`: \`${k}\` has no counterpart and is left out`);
    }
    for (const n of w.nodes) {
      if (n.contextWindow > 0) this.problems.warning(w.file, n.line, `${n.path}.context_window`, `\`${n.id}\`: context_window ${n.contextWindow} is read as -1 (the node sees all its earlier messages)`);
    }
  }
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

export { renderProblem } from "./problems.ts";
