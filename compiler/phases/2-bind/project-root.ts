/**
 * The project root: the only folder(s) the compiler reads `.graph` files from (and the CLI writes generated
 * files into, unless `--out` says otherwise). Without it, `subgraph s from "/proc/self/environ"` or
 * `"../../../../etc/passwd"` made `graphc check` print another file's lines in its code frames.
 *
 * - Given explicitly (`--root DIR`, the `root` option of check/compile), it is that folder.
 * - Otherwise each entry file contributes the nearest folder upwards from it that holds a package.json or a
 *   tsconfig.json, or its own folder when there is none; a reference may resolve inside any of them.
 * - A path is judged by where it really leads: on a host with `realPath` (the real file system) symlinks
 *   are resolved, and a path that does not exist is judged by its nearest existing ancestor; on a host
 *   without it (in memory), by its normalised text.
 */
import { posix } from "node:path";
import { normalisePath, type CompilerHost } from "./host.ts";

/** Files that mark a project's top folder. */
export const ROOT_MARKERS = ["package.json", "tsconfig.json"] as const;

export interface ProjectRoot {
  /** the root folders: absolute and symlink-free on a host with `realPath`, else normalised as given */
  readonly dirs: readonly string[];
  /** given by the caller (`--root`), rather than found from the entry files */
  readonly explicit: boolean;
  /** whether `path` (relative to the host's working directory, or absolute) lies inside a root folder */
  contains(path: string): boolean;
}

export function projectRoot(entryFiles: readonly string[], host: CompilerHost, explicit?: string): ProjectRoot {
  const locate = locator(host);
  const dirs =
    explicit !== undefined
      ? [locate(explicit)]
      : [...new Set(entryFiles.map((e) => nearestMarkedDir(posix.dirname(normalisePath(e)), host, locate)))];
  return {
    dirs,
    explicit: explicit !== undefined,
    contains: (path) => {
      const p = locate(path);
      return dirs.some((d) => within(p, d));
    },
  };
}

/** How the root names a path: its real location when the host can tell, else its normalised text. */
function locator(host: CompilerHost): (path: string) => string {
  const real = host.realPath?.bind(host);
  if (!real) return normalisePath;
  const locate = (path: string): string => {
    const n = normalisePath(path);
    const found = real(n);
    if (found !== undefined) return found;
    // not there (yet): where it would be, below its nearest existing ancestor
    const parent = posix.dirname(n);
    return parent === n ? n : posix.join(locate(parent), posix.basename(n));
  };
  return locate;
}

function nearestMarkedDir(dir: string, host: CompilerHost, locate: (p: string) => string): string {
  const start = locate(dir);
  const exists = host.realPath
    ? (p: string) => host.realPath!(p) !== undefined
    : (p: string) => host.readFile(p) !== undefined;
  for (let d = start; ; ) {
    if (ROOT_MARKERS.some((m) => exists(posix.join(d, m)))) return d;
    const parent = d === "." ? d : posix.dirname(d);
    if (parent === d) return start;
    d = parent;
  }
}

/** `path` is `dir` or below it (both in the same form: absolute, or relative to the same folder). */
function within(path: string, dir: string): boolean {
  if (posix.isAbsolute(path) !== posix.isAbsolute(dir)) return false;
  if (dir === ".") return path !== ".." && !path.startsWith("../");
  return path === dir || path.startsWith(dir.endsWith("/") ? dir : `${dir}/`);
}

/** The root as a diagnostic names it: "`a`" or "`a` or `b`". */
export function describeRoot(root: ProjectRoot): string {
  return root.dirs.map((d) => `\`${d}\``).join(" or ");
}
