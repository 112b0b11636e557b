/**
 * The relative imports of generated code, pointed at files every bundler resolves without configuration.
 * graphc writes them for the user's tsc (`./x.js` for `x.ts` under NodeNext, `./y.graph.ts` for another
 * graph's generated file); in the bundle they must name what is on disk: the node module's own `.ts`
 * file, and the other `.graph` file (compiled by this plugin, so each graph is one module of its own).
 * Package imports are left to the bundler.
 */
import { existsSync, statSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";

// graphc's generated imports are single-line `from "…"` clauses (prettier output)
const RELATIVE_FROM = /(\bfrom\s+")(\.\.?\/[^"]+)(")/g;
const GRAPH_OUTPUT = /\.graph\.[mc]?[jt]s$/;

export interface RewrittenImports {
  readonly text: string;
  /** absolute paths of the local modules the code imports (watched with the graph) */
  readonly files: string[];
}

export function rewriteImports(text: string, generatedPath: string): RewrittenImports {
  const dir = dirname(generatedPath);
  const files: string[] = [];
  const rewritten = text.replace(RELATIVE_FROM, (whole, open: string, spec: string, close: string) => {
    const target = resolveLocal(join(dir, spec));
    if (target === undefined) return whole;
    files.push(target);
    return `${open}${specifierFor(dir, target)}${close}`;
  });
  return { text: rewritten, files };
}

/** the file a relative import of generated code means, as tsc resolves it (or undefined: left as written) */
function resolveLocal(base: string): string | undefined {
  if (GRAPH_OUTPUT.test(base)) {
    const graph = base.replace(/\.[mc]?[jt]s$/, "");
    return isFile(graph) ? graph : undefined;
  }
  const candidates = [base, base.replace(/\.(m|c)?js$/, ".$1ts"), `${base}.ts`, join(base, "index.ts")];
  return candidates.find(isFile);
}

function specifierFor(dir: string, file: string): string {
  const rel = relative(dir, file).split(sep).join("/");
  return rel.startsWith(".") ? rel : `./${rel}`;
}

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}
