/**
 * The test app of the build-plugin tests (test/fixtures/unplugin: a graph with a subgraph from another
 * `.graph` file and node functions in a TS module), copied into a fresh folder inside the repository so
 * `@graphc/runtime` resolves to its sources (tsconfig `paths`, SOURCE_ENTRIES), and how to run a bundle.
 */
import { execFile } from "node:child_process";
import { cpSync, readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { ts } from "ts-morph";
import { createUnplugin } from "unplugin";
import { SOURCE_ENTRIES } from "../source-entries.ts";
import { tempDir, type TempDir } from "../temp-dir.ts";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const FIXTURE = join(ROOT, "test", "fixtures", "unplugin");

/** what `node <bundle>` prints: App's output for topic "graphs" */
export const EXPECTED = { notes: ["found graphs", "checked"], article: "FOUND GRAPHS, CHECKED" };

export function copyApp(name: string): TempDir {
  const tmp = tempDir(`unplugin-${name}`);
  cpSync(FIXTURE, tmp.dir, { recursive: true });
  return tmp;
}

/** Runs a bundle with this process's Node; returns what it printed, parsed. */
export async function runBundle(file: string): Promise<unknown> {
  const { stdout } = await promisify(execFile)(process.execPath, ["--enable-source-maps", file], { encoding: "utf8" });
  return JSON.parse(stdout);
}

/** package name → absolute path of its TypeScript source (the repository's packages are not built here) */
export const SOURCE_ALIASES: Record<string, string> = Object.fromEntries(
  Object.entries(SOURCE_ENTRIES).map(([name, file]) => [name, join(ROOT, file)]),
);

/**
 * What a TypeScript project using Rollup or webpack has anyway (@rollup/plugin-typescript, ts-loader…):
 * `.ts` files (the node module, the runtime's sources) stripped of their types, and the repository's
 * package names resolved to those sources.
 */
export const typescriptSources = createUnplugin(() => ({
  name: "test-typescript-sources",
  resolveId: {
    filter: { id: /^@graphc\// },
    handler: (id: string) => SOURCE_ALIASES[id] ?? null,
  },
  transform: {
    filter: { id: /\.ts$/ },
    handler(code: string, id: string) {
      const out = ts.transpileModule(code, {
        fileName: id,
        compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, sourceMap: true, verbatimModuleSyntax: false },
      });
      return { code: out.outputText.replace(/\/\/# sourceMappingURL=\S+\s*$/, ""), map: out.sourceMapText ?? null };
    },
  },
}));

/**
 * Where the bundle's source map sends the first occurrence of `needle` in `jsFile` (its map in
 * `jsFile.map`): the original file's name and 1-based line.
 */
export function originOf(jsFile: string, needle: string): { source: string; line: number } {
  const js = readFileSync(jsFile, "utf8");
  const lines = js.split("\n");
  const line = lines.findIndex((l) => l.includes(needle));
  if (line < 0) throw new Error(`${needle} not in ${jsFile}`);
  const map = new SourceMap(JSON.parse(readFileSync(`${jsFile}.map`, "utf8")));
  const entry = map.findEntry(line, lines[line]!.indexOf(needle)) as { originalSource?: string; originalLine?: number };
  return { source: entry.originalSource ?? "", line: (entry.originalLine ?? -2) + 1 };
}

/** the 1-based line of the first line of `file` holding `needle` */
export function lineOf(file: string, needle: string): number {
  return readFileSync(file, "utf8").split("\n").findIndex((l) => l.includes(needle)) + 1;
}

/** the source aliases as exact-match rules (Vite's `resolve.alias`; a plain key would also match subpaths) */
export const exactAliases = () => Object.entries(SOURCE_ALIASES).map(([name, file]) => ({ find: new RegExp(`^${name.replace(/[/.]/g, "\\$&")}$`), replacement: file }));

interface StatsLike {
  hasErrors(): boolean;
  toString(options?: unknown): string;
}

interface CompilerLike<S extends StatsLike> {
  run(callback: (err: Error | null, stats?: S) => void): void;
  close(callback: (err?: Error | null) => void): void;
}

/** One run of a webpack or Rspack compiler; resolves with its stats (errors included), then closes it. */
export function runCompiler<S extends StatsLike>(compiler: CompilerLike<S>): Promise<S> {
  return new Promise((resolve, reject) => {
    compiler.run((err, stats) => {
      compiler.close(() => (err || !stats ? reject(err ?? new Error("no stats")) : resolve(stats)));
    });
  });
}
