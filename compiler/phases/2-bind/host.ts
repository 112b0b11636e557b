/**
 * How the compiler reads `.graph` files. Tests use `memoryHost`; the CLI uses `nodeHost`. Paths are posix
 * strings; relative paths stay relative (so diagnostics print the path the user typed).
 */
import { readFileSync, realpathSync } from "node:fs";
import { posix } from "node:path";
import type { Diagnostic } from "../../../grammar/diagnostic.ts";
import type { GraphFile } from "../../../grammar/ast.ts";

export interface CompilerHost {
  /** The file's text, or undefined when it does not exist or cannot be read. */
  readFile(path: string): string | undefined;
  /**
   * The absolute path with every symlink resolved, or undefined when nothing exists there. Hosts over a
   * real file system provide it, so the project-root rule (project-root.ts) judges a path by where it
   * really leads; hosts without it (in-memory ones) are judged on the path's text alone.
   */
  realPath?(path: string): string | undefined;
}

export type ParseFn = (text: string, file: string) => { ast: GraphFile; diagnostics: Diagnostic[] };

export function nodeHost(): CompilerHost {
  return {
    readFile(path) {
      try {
        return readFileSync(path, "utf8");
      } catch {
        return undefined;
      }
    },
    realPath: realPathOrUndefined,
  };
}

/** `realpathSync` that answers undefined for a path that does not exist (or cannot be resolved). */
export function realPathOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path).replace(/\\/g, "/");
  } catch {
    return undefined;
  }
}

export function memoryHost(files: Readonly<Record<string, string>>): CompilerHost {
  const map = new Map(Object.entries(files).map(([k, v]) => [normalisePath(k), v]));
  return { readFile: (path) => map.get(normalisePath(path)) };
}

/** posix separators, `.`/`..` resolved, no leading `./` */
export function normalisePath(path: string): string {
  const p = posix.normalize(path.replace(/\\/g, "/"));
  return p.startsWith("./") ? p.slice(2) : p;
}

/**
 * Where a `.graph` reference (`import … from "spec"` or `subgraph x from "spec"`) is looked for, in order:
 * 1. relative to the directory of the file that refers to it;
 * 2. relative to the directory of each entry file (the program roots), in the order given.
 * An absolute spec is only tried as is. Only `.graph` files are ever read: a spec without the extension
 * is tried with it (`from "common/review"` means `common/review.graph`), so `from "/proc/self/environ"` or
 * `from "notes.txt"` can never load (and print) a file that is not a graph. Duplicates are dropped (first
 * position kept).
 */
export function candidatePaths(spec: string, fromFile: string, entryFiles: readonly string[]): string[] {
  const out: string[] = [];
  const add = (p: string) => {
    const n = normalisePath(p);
    const c = n.endsWith(".graph") ? n : `${n}.graph`;
    if (!out.includes(c)) out.push(c);
  };
  if (posix.isAbsolute(spec)) {
    add(spec);
    return out;
  }
  add(posix.join(posix.dirname(fromFile), spec));
  for (const entry of entryFiles) add(posix.join(posix.dirname(entry), spec));
  return out;
}
