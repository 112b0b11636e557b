/**
 * `build --watch`: after the first build, watches the directories of every file the entry files depend on
 * (the `.graph` files they load and the relative TS modules those import) and, when some of them change,
 * rebuilds only the entry files that depend on a changed file. Changes are debounced (editors write a
 * file in several steps) and builds never overlap. Ends when `io.signal` aborts (Ctrl-C in the real CLI).
 */
import { type FSWatcher, watch } from "node:fs";
import { posix } from "node:path";
import { check } from "../check.ts";
import type { CompilerHost } from "../phases/2-bind/host.ts";
import { cwdHost, resolvePath } from "./fs.ts";
import type { CliIO } from "./io.ts";

/** Quiet time after the last change before rebuilding. */
export const DEBOUNCE_MS = 100;

export async function watchAndRebuild(
  io: CliIO,
  entries: readonly string[],
  firstCode: number,
  rebuild: (entries: string[]) => Promise<number>,
  root?: string,
): Promise<number> {
  const host = cwdHost(io);
  const deps = new Map<string, Set<string>>();
  const refresh = (es: readonly string[]) => {
    for (const e of es) deps.set(e, dependenciesOf(io, e, host, root));
  };
  const watchers = new Map<string, FSWatcher>();
  const pending = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let queue: Promise<void> = Promise.resolve();
  let code = firstCode;

  const onChange = (path: string) => {
    if (![...deps.values()].some((s) => s.has(path))) return;
    pending.add(path);
    clearTimeout(timer);
    timer = setTimeout(() => (queue = queue.then(flush)), DEBOUNCE_MS);
  };
  const syncWatchers = () => {
    const dirs = new Set<string>();
    for (const s of deps.values()) for (const p of s) dirs.add(posix.dirname(p));
    for (const dir of dirs) {
      if (watchers.has(dir)) continue;
      try {
        watchers.set(dir, watch(dir, (_event, name) => name && onChange(posix.join(dir, name.toString()))));
      } catch {
        // a directory that does not exist (yet): an import that cannot be resolved; nothing to watch
      }
    }
    for (const [dir, w] of watchers) {
      if (dirs.has(dir)) continue;
      w.close();
      watchers.delete(dir);
    }
  };
  const flush = async () => {
    const changed = [...pending];
    pending.clear();
    const affected = entries.filter((e) => changed.some((c) => deps.get(e)?.has(c)));
    if (affected.length === 0) return;
    const shown = changed.map((c) => posix.relative(io.cwd, c) || c).join(", ");
    io.stderr(`changed: ${shown}; rebuilding ${affected.join(", ")}\n`);
    code = await rebuild(affected);
    refresh(affected);
    syncWatchers();
  };

  refresh(entries);
  syncWatchers();
  io.stderr(`watching ${entries.length} file${entries.length === 1 ? "" : "s"} for changes\n`);
  await new Promise<void>((resolve) => {
    if (io.signal === undefined) return;
    if (io.signal.aborted) resolve();
    else io.signal.addEventListener("abort", () => resolve(), { once: true });
  });
  clearTimeout(timer);
  for (const w of watchers.values()) w.close();
  await queue;
  return code;
}

/** Absolute paths of the files whose change affects the output of `entry`. */
function dependenciesOf(io: CliIO, entry: string, host: CompilerHost, root: string | undefined): Set<string> {
  const out = new Set([resolvePath(io, entry)]);
  const { program } = check([entry], host, { root });
  for (const f of program?.files.values() ?? []) {
    out.add(resolvePath(io, f.path));
    for (const imp of f.imports) {
      if (imp.kind === "graph" || !imp.module.startsWith(".")) continue;
      const base = posix.join(posix.dirname(f.path), imp.module);
      // the module as tsc resolves it from the generated file: `.js` written for `.ts`, extensionless, index
      for (const c of [base, base.replace(/\.(m?)js$/, ".$1ts"), `${base}.ts`, `${base}/index.ts`]) out.add(resolvePath(io, c));
    }
  }
  return out;
}
