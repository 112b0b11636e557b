/**
 * graphc is an optional peer dependency: the plugin loads it (and the TypeScript it carries, through
 * ts-morph) on the first `.graph` file, so a project that never imports one pays nothing, and a project
 * without graphc gets one clear error instead of a module-not-found deep inside the bundler.
 *
 * The types below are the part of graphc's public API the plugin uses, written out so that the plugin's
 * own declarations never name the optional package (test/unplugin/toolchain.test.ts checks graphc's real
 * exports against them).
 */
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

export interface GraphcPosition {
  line: number;
  column: number;
  offset: number;
}

export interface GraphcSpan {
  file: string;
  start: GraphcPosition;
  end: GraphcPosition;
}

export interface GraphcDiagnostic {
  code: string;
  severity: "error" | "warning";
  message: string;
  span: GraphcSpan;
  label?: string;
  related: { span: GraphcSpan; message: string }[];
  hint?: string;
}

export interface GraphcEmittedFile {
  /** the `.graph` file */
  readonly source: string;
  /** the generated `x.graph.ts` */
  readonly path: string;
  readonly text: string;
  /** version-3 source map to the `.graph` file, its text in `sourcesContent` */
  readonly map: { readonly sourcesContent?: readonly string[] | undefined };
  /** per generated line: the `.graph` span it came from */
  readonly lines: readonly (GraphcSpan | undefined)[];
}

/** how graphc reads `.graph` files (its `CompilerHost`) */
export interface GraphcHost {
  readFile(path: string): string | undefined;
  realPath?(path: string): string | undefined;
}

export interface GraphcCompileOptions {
  readonly host?: GraphcHost | undefined;
  readonly typecheck?: boolean | undefined;
  readonly root?: string | undefined;
  readonly cwd?: string | undefined;
  readonly runtime?: "full" | "lean" | undefined;
}

export interface GraphcCompileResult {
  readonly files: readonly GraphcEmittedFile[];
  readonly diagnostics: readonly GraphcDiagnostic[];
}

/** graphc's `compile` and `renderPretty` (compiler/index.ts) */
export interface GraphcApi {
  compile(entryFiles: readonly string[], options?: GraphcCompileOptions): Promise<GraphcCompileResult>;
  renderPretty(diags: readonly GraphcDiagnostic[], options?: { readFile?: (file: string) => string | undefined }): string;
}

/** The part of the TypeScript API used to strip types from generated code (transpile.ts). */
export interface TypeScriptApi {
  transpileModule(
    input: string,
    options: { compilerOptions: Record<string, unknown>; fileName: string },
  ): { outputText: string; sourceMapText?: string | undefined };
  ScriptTarget: { ES2022: number };
  ModuleKind: { ESNext: number };
}

export interface Toolchain {
  readonly graphc: GraphcApi;
  readonly ts: TypeScriptApi;
}

export class GraphcMissingError extends Error {
  constructor(cause: unknown) {
    super(
      "@graphc/unplugin compiles .graph files with graphc, which is not installed in this project: " +
        "add it as a devDependency (`npm install -D graphc`).",
      { cause },
    );
    this.name = "GraphcMissingError";
  }
}

/** `importGraphc` and `importTsMorph` are seams for the tests; the defaults are the real imports. */
// module names in variables: TypeScript does not resolve them (the plugin builds without graphc), and a
// bundler bundling the plugin leaves them to Node
const GRAPHC = "graphc";
const TS_MORPH = "ts-morph";

export async function loadToolchain(
  importGraphc: () => Promise<unknown> = () => import(GRAPHC),
  importTsMorph: () => Promise<unknown> = importTsMorphBesideGraphc,
): Promise<Toolchain> {
  let graphc: GraphcApi;
  try {
    graphc = (await importGraphc()) as GraphcApi;
  } catch (e) {
    if (isModuleNotFound(e)) throw new GraphcMissingError(e);
    throw e;
  }
  const { ts } = (await importTsMorph()) as { ts: TypeScriptApi };
  return { graphc, ts };
}

function isModuleNotFound(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND";
}

/**
 * ts-morph is graphc's dependency, not the plugin's: resolve it from graphc's folder (a strict installer
 * such as pnpm hides it from everyone else), falling back to plain resolution (this repository).
 */
async function importTsMorphBesideGraphc(): Promise<unknown> {
  const own = createRequire(import.meta.url);
  try {
    const graphcPkg = own.resolve(`${GRAPHC}/package.json`);
    return await import(pathToFileURL(createRequire(graphcPkg).resolve(TS_MORPH)).href);
  } catch {
    return import(TS_MORPH);
  }
}
