/**
 * `.graph` files as they were at a git ref, for `graphc diff --against REF`: which entry files the
 * command's arguments name at that ref (`git ls-tree`), and a compiler host that reads them with
 * `git show REF:./path` into memory on first use. Paths are relative to the working directory, as for the
 * working tree, so both sides of a diff name files alike. Only `.graph` files and the project-root markers
 * are ever read from the ref.
 */
import { execFileSync } from "node:child_process";
import { posix } from "node:path";
import { normalisePath, type CompilerHost } from "../phases/2-bind/host.ts";
import { ROOT_MARKERS } from "../phases/2-bind/project-root.ts";
import { globToRegExp, isGlob } from "./glob.ts";
import { type CliIO, UsageError } from "./io.ts";

function git(io: CliIO, args: readonly string[]): string | undefined {
  try {
    return execFileSync("git", args, { cwd: io.cwd, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], maxBuffer: 64 * 1024 * 1024 });
  } catch {
    return undefined;
  }
}

/** The commit `ref` names; a usage error when it names none (or this is not a git work tree). */
export function resolveRef(io: CliIO, ref: string): string {
  const commit = git(io, ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`])?.trim();
  if (!commit) throw new UsageError(`\`${ref}\` is neither a manifest file nor a git commit here`);
  return commit;
}

/** The `.graph` files at `commit` that `args` name (files, directories, globs; none = every file here). */
export function filesAtRef(io: CliIO, commit: string, args: readonly string[]): string[] {
  const listing = git(io, ["ls-tree", "-r", "--name-only", "-z", commit]) ?? "";
  const all = listing.split("\0").filter((p) => p.endsWith(".graph"));
  if (args.length === 0) return all.sort();
  const wanted = args.map((a) => normalisePath(a));
  const matches = (p: string) =>
    wanted.some((w) => (isGlob(w) ? globToRegExp(w).test(p) : p === w || w === "." || p.startsWith(`${w.replace(/\/$/, "")}/`)));
  return all.filter(matches).sort();
}

export function gitHost(io: CliIO, commit: string): CompilerHost {
  const cache = new Map<string, string | undefined>();
  return {
    readFile(path) {
      const p = normalisePath(path);
      if (!p.endsWith(".graph") && !(ROOT_MARKERS as readonly string[]).includes(posix.basename(p))) return undefined;
      if (!cache.has(p)) {
        const rel = posix.isAbsolute(p) ? posix.relative(io.cwd.replace(/\\/g, "/"), p) : p;
        cache.set(p, git(io, ["show", `${commit}:${rel.startsWith("../") ? rel : `./${rel}`}`]));
      }
      return cache.get(p);
    },
  };
}
