/**
 * From `.graph` files to running graphs, with no build step: graphc compiles them into `<data>/compiled/`
 * (mirroring their absolute paths), and tsx's loader API imports the generated `.graph.ts` files, which
 * import the user's node modules (TypeScript) where they are — so a node module's `import.meta.url`, its
 * relative imports and its own packages resolve as in the user's project.
 *
 * A compilation is reused while no `.graph` file changed (manifest.json in the same folder).
 *
 * The generated code's `@graphc/runtime` imports (the package and its subpaths: a lean graph's code imports
 * `@graphc/runtime/core` and `/install`) are pointed at the runtime this server itself loaded: the server
 * builds Commands, reads typed errors and hands the graphs its saver, so both must be one copy (the
 * generated files live in the data folder, from where the package would not even resolve). One copy also
 * needs one module loader: tsx is registered for the whole process rather than used through `tsImport`,
 * whose namespace loads every module it reaches again, the runtime included — a lean graph's runtime then
 * never saw the checkpointing that the server's saver installs in its own copy, and each run failed.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { CompiledGraph } from "@graphc/runtime";
import type { JsonSchema } from "./validate.ts";

/** one assistant: a graph defined in one of the served files */
export interface ServedGraph {
  /** the graph's name; also its assistant id */
  readonly id: string;
  readonly file: string;
  readonly graph: CompiledGraph;
  readonly schemas: GraphSchemas;
}

export interface GraphSchemas {
  readonly input: JsonSchema;
  readonly output: JsonSchema;
  readonly state: JsonSchema;
}

/** Why the files could not be served: graphc's rendered diagnostics, or a module that failed to load. */
export class GraphLoadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GraphLoadError";
  }
}

const RUNTIME_IMPORT = /(from\s+)"(@graphc\/runtime(?:\/[\w-]+)?)"/g;

/** what a compilation's manifest must say to be reused: 2 since subpath imports are rewritten too */
const LAYOUT = 2;

/**
 * What a compilation left in `<data>/compiled/manifest.json`: enough to load the graphs again without
 * graphc when no `.graph` file changed (a restart then skips the compiler, most of the start-up time).
 */
interface Manifest {
  /** how the compiled files were written (`LAYOUT`): another layout compiles again */
  layout: number;
  /** the served files, absolute */
  entries: string[];
  /** the runtime the generated code imports (a different install must recompile) */
  runtime: string;
  /** every `.graph` file the program read, with the sha256 of its text */
  sources: Record<string, string>;
  graphs: { id: string; file: string; module: string; schemas: GraphSchemas }[];
}

const hash = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

function cached(path: string, entries: readonly string[], runtime: string): Manifest | undefined {
  if (!existsSync(path)) return undefined;
  try {
    const m = JSON.parse(readFileSync(path, "utf8")) as Manifest;
    const same = m.layout === LAYOUT && m.runtime === runtime && JSON.stringify(m.entries) === JSON.stringify(entries);
    return same && Object.entries(m.sources).every(([f, h]) => existsSync(f) && hash(f) === h) ? m : undefined;
  } catch {
    return undefined;
  }
}

async function compileAll(entries: readonly string[], outDir: string, runtime: string): Promise<Manifest> {
  const graphc = await importCompiler();
  const result = await graphc.compile(entries, { outDir, rootDir: "/", typecheck: false });
  if (!result.ir || graphc.hasErrors(result.diagnostics as never[])) {
    const text = graphc.renderPretty(result.diagnostics as never[], { color: false, readFile: (f) => readFileSync(f, "utf8") });
    throw new GraphLoadError(`the .graph files do not compile:\n${text}`);
  }
  // ES modules wherever the data folder is: outside the project no package.json above it says so, and tsx
  // would load the generated files as CommonJS (ERR_REQUIRE_CYCLE_MODULE on the first import)
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, "package.json"), '{ "type": "module" }\n');
  for (const f of result.files) {
    mkdirSync(dirname(f.path), { recursive: true });
    writeFileSync(f.path, f.text.replace(RUNTIME_IMPORT, (_, from: string, module: string) => from + JSON.stringify(import.meta.resolve(module))));
  }
  const manifest: Manifest = { layout: LAYOUT, entries: [...entries], runtime, sources: {}, graphs: [] };
  for (const f of result.ir.files) manifest.sources[resolve(f.file)] = hash(f.file);
  for (const file of entries) {
    const index = result.ir.files.findIndex((f) => resolve(f.file) === file);
    const fileIR = result.ir.files[index];
    // emitted files come in the IR's file order
    const emitted = result.files[index];
    if (!fileIR || !emitted) throw new GraphLoadError(`${file}: graphc produced no code for it`);
    for (const g of fileIR.graphs) {
      if (g.inline) continue;
      if (manifest.graphs.some((s) => s.id === g.name)) throw new GraphLoadError(`two served graphs are named ${g.name}: graph ids must be unique`);
      manifest.graphs.push({ id: g.name, file, module: emitted.path, schemas: graphc.graphSchemas(g as never, result.ir as never) });
    }
  }
  if (manifest.graphs.length === 0) throw new GraphLoadError("the files define no graph to serve");
  return manifest;
}

export async function loadGraphs(files: readonly string[], dataDir: string): Promise<ServedGraph[]> {
  const entries = files.map((f) => resolve(f));
  const outDir = join(resolve(dataDir), "compiled");
  const runtime = import.meta.resolve("@graphc/runtime");
  const manifestPath = join(outDir, "manifest.json");
  let manifest = cached(manifestPath, entries, runtime);
  if (!manifest) {
    manifest = await compileAll(entries, outDir, runtime);
    writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  }
  await registerTsx();
  const served: ServedGraph[] = [];
  for (const g of manifest.graphs) {
    const module = (await import(pathToFileURL(g.module).href)) as Record<string, unknown>;
    const graph = module[g.id] as CompiledGraph | undefined;
    if (!graph) throw new GraphLoadError(`${g.file}: the generated module has no export ${g.id}`);
    served.push({ id: g.id, file: g.file, graph, schemas: g.schemas });
  }
  return served;
}

let tsxRegistered: Promise<unknown> | undefined;

/** tsx's loader for the rest of the process (once): the generated `.graph.ts` files and the user's TypeScript */
function registerTsx(): Promise<unknown> {
  return (tsxRegistered ??= import("tsx/esm/api").then(({ register }) => register()));
}

/**
 * The part of graphc's API used here, typed locally: `graphc` is an optional peer of this package (it
 * compiles; a process that only runs already-loaded graphs does not need it), and building this package
 * must not need graphc's declarations.
 */
interface Graphc {
  compile(
    files: readonly string[],
    options: { outDir: string; rootDir: string; typecheck: boolean },
  ): Promise<{ files: { path: string; text: string }[]; ir: ProgramLike | undefined; diagnostics: readonly unknown[] }>;
  hasErrors(diagnostics: readonly never[]): boolean;
  renderPretty(diagnostics: readonly never[], options: { color: boolean; readFile: (file: string) => string | undefined }): string;
  graphSchemas(graph: never, program: never): GraphSchemas;
}

interface ProgramLike {
  files: { file: string; graphs: { name: string; inline: boolean }[] }[];
}

const COMPILER = "graphc";

async function importCompiler(): Promise<Graphc> {
  try {
    return (await import(COMPILER)) as Graphc;
  } catch (e) {
    throw new GraphLoadError(`serving .graph files needs the graphc compiler: npm i -D graphc (${(e as Error).message})`);
  }
}
