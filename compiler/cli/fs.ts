/** File access for the CLI: paths are relative to `io.cwd`; writes are atomic and skip identical content. */
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { posix } from "node:path";
import { realPathOrUndefined, type CompilerHost } from "../phases/2-bind/host.ts";
import { projectRoot, type ProjectRoot } from "../phases/2-bind/project-root.ts";
import { type CliIO, UsageError } from "./io.ts";

export function resolvePath(io: CliIO, path: string): string {
  return posix.resolve(io.cwd, path);
}

/** A source file's text; an unreadable file is a usage error (exit 2). */
export function readSource(io: CliIO, path: string): string {
  try {
    return readFileSync(resolvePath(io, path), "utf8");
  } catch (e) {
    throw new UsageError(`cannot read \`${path}\`: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
}

/** The current text of an output file, or undefined when there is none. */
export function readOutput(io: CliIO, path: string): string | undefined {
  try {
    return readFileSync(resolvePath(io, path), "utf8");
  } catch {
    return undefined;
  }
}

/**
 * Writes `text` unless the file already holds exactly that (so its mtime and watchers are left alone).
 * The text goes to a temporary file first and is renamed over the target, so a crash or a full disk never
 * leaves a half-written file. Returns whether the file was written.
 */
export function writeIfChanged(io: CliIO, path: string, text: string): boolean {
  if (readOutput(io, path) === text) return false;
  const abs = resolvePath(io, path);
  const tmp = `${abs}.${process.pid}.tmp`;
  try {
    mkdirSync(posix.dirname(abs), { recursive: true });
    writeFileSync(tmp, text);
    renameSync(tmp, abs);
  } catch (e) {
    try {
      rmSync(tmp, { force: true });
    } catch {
      // nothing was created
    }
    // a read-only directory or a full disk is a problem with how graphc was run, not with the input
    throw new UsageError(`cannot write \`${path}\`: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  return true;
}

/** The compiler's view of the file system, relative to `io.cwd` (diagnostics keep the paths as typed). */
export function cwdHost(io: CliIO): CompilerHost {
  return { readFile: (path) => readOutput(io, path), realPath: (path) => realPathOrUndefined(resolvePath(io, path)) };
}

export interface CliProject {
  readonly host: CompilerHost;
  readonly root: ProjectRoot;
  /**
   * What code frames may show: only `.graph` files inside the root (every span the compiler reports is in
   * one), so no diagnostic can ever print a line of another file.
   */
  readonly frameSource: (file: string) => string | undefined;
}

/** The project the entry files belong to; `root` is `--root DIR` (a usage error when it is not a folder). */
export function cliProject(io: CliIO, files: readonly string[], root: string | undefined): CliProject {
  if (root !== undefined && !isDirectory(resolvePath(io, root))) throw new UsageError(`--root \`${root}\` is not a directory`);
  const host = cwdHost(io);
  const r = projectRoot(files, host, root);
  return { host, root: r, frameSource: (f) => (f.endsWith(".graph") && r.contains(f) ? host.readFile(f) : undefined) };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
