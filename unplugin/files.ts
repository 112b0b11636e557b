/** The few file operations the plugin needs. */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, relative, sep } from "node:path";

/** the file's text, or undefined when it cannot be read (deleted, not created yet) */
export function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/** Writes `text` unless the file already holds it (no mtime change, no watcher noise); never half a file. */
export function writeIfChanged(path: string, text: string): void {
  if (readText(path) === text) return;
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

/** `file` relative to `cwd` with posix separators when it is inside `cwd`, else as given */
export function shownPath(cwd: string, file: string): string {
  if (!isAbsolute(file)) return file;
  const rel = relative(cwd, file);
  return rel === "" || rel.startsWith("..") || isAbsolute(rel) ? file : rel.split(sep).join("/");
}
