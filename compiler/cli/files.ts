/**
 * Turns command-line arguments into the list of `.graph` files to work on. An argument is a file, a
 * directory (every `.graph` file under it) or a glob; no argument means every `.graph` file under the
 * working directory. A missing file, a glob or directory matching nothing is a usage error (exit 2).
 */
import { statSync } from "node:fs";
import { posix } from "node:path";
import { normalisePath } from "../phases/2-bind/host.ts";
import { UsageError } from "./io.ts";
import { globBase, globToRegExp, isGlob, walk } from "./glob.ts";

/** Paths relative to `cwd` when inside it (as the user typed them), posix separators, sorted, unique. */
export function expandFiles(cwd: string, args: readonly string[], what = ".graph"): string[] {
  const found = new Set<string>();
  const patterns = args.length === 0 ? ["."] : args;
  for (const raw of patterns) {
    const arg = normalisePath(raw);
    const matches = isGlob(arg) ? globMatches(cwd, arg) : pathMatches(cwd, arg, raw, what);
    if (matches.length === 0) {
      throw new UsageError(
        args.length === 0 ? `no ${what} files found in ${cwd}` : `no ${what} files match \`${raw}\``,
      );
    }
    for (const m of matches) found.add(m);
  }
  return [...found].sort();
}

function globMatches(cwd: string, glob: string): string[] {
  const re = globToRegExp(glob);
  return walk(cwd, globBase(glob)).filter((p) => re.test(p));
}

function pathMatches(cwd: string, arg: string, raw: string, what: string): string[] {
  const abs = posix.resolve(cwd, arg);
  let st;
  try {
    st = statSync(abs);
  } catch {
    throw new UsageError(`cannot read \`${raw}\`: no such file or directory`);
  }
  if (st.isDirectory()) return walk(cwd, arg).filter((p) => p.endsWith(what));
  return [arg];
}
