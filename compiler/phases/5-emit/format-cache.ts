/**
 * Prettier's output kept on disk between `graphc build` processes (node_modules/.cache/graphc/, found from
 * the working directory up), so a cold build formats only what changed since the last one: prettier is
 * about half of a cold build's CPU (loading and warming it, 1.5–2.5 s), and a build with nothing to format
 * does not load it at all.
 *
 * An entry is prettier's output for one input text — a whole generated file or one of its top-level
 * statements (format.ts `statementChunks`) — keyed by a SHA-256 of prettier's version, graphc's prettier
 * options and the text: everything prettier's output depends on (no config file is read), so a hit is
 * exactly what prettier would print. A file that cannot be read or parsed is an empty cache; writes go to
 * a temporary file renamed over the old one, so concurrent builds never see half a file.
 *
 * A process reads the file once and writes it once, as it exits (`forProcess`): a `--watch` rebuild would
 * otherwise pay for reading and writing about a megabyte each time (about 70 ms CPU).
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { findUp } from "../../find-up.ts";

/** characters kept: the entries this process used first, then the file's older ones while under this */
const MAX_CHARS = 4_000_000;

export class FormatCache {
  private readonly loaded: Map<string, string>;
  private readonly used = new Map<string, string>();
  private dirty = false;

  private constructor(
    private readonly file: string,
    private readonly salt: string,
  ) {
    this.loaded = read(file);
  }

  /** The cache of the project around `cwd` for this process: read on first use, written when it exits. */
  static forProcess(cwd: string, options: object): FormatCache | undefined {
    const key = `${cwd}\u0000${JSON.stringify(options)}`;
    if (!perProcess.has(key)) {
      const cache = FormatCache.open(cwd, options);
      if (cache) process.once("exit", () => cache.save());
      perProcess.set(key, cache);
    }
    return perProcess.get(key);
  }

  /**
   * The cache of the project around `cwd`, read now (once per build: another process may have written
   * it since); undefined when no node_modules folder is above `cwd`.
   */
  static open(cwd: string, options: object): FormatCache | undefined {
    const modules = findUp(cwd, "node_modules");
    if (modules === undefined) return undefined;
    return new FormatCache(join(modules, ".cache", "graphc", "format.json"), `${prettierVersion()}\u0000${JSON.stringify(options)}\u0000`);
  }

  get(text: string): string | undefined {
    const key = this.key(text);
    const hit = this.used.get(key) ?? this.loaded.get(key);
    if (hit !== undefined) this.used.set(key, hit);
    return hit;
  }

  put(text: string, pretty: string): void {
    const key = this.key(text);
    if (this.used.get(key) === pretty) return;
    this.used.set(key, pretty);
    if (this.loaded.get(key) !== pretty) this.dirty = true;
  }

  /** Writes the entries used (and the older ones, up to MAX_CHARS) if any is new. */
  save(): void {
    if (!this.dirty) return;
    this.dirty = false;
    const kept = new Map(this.used);
    let chars = 0;
    for (const v of kept.values()) chars += v.length;
    for (const [k, v] of this.loaded) {
      if (chars + v.length > MAX_CHARS) break;
      if (kept.has(k)) continue;
      kept.set(k, v);
      chars += v.length;
    }
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      const tmp = `${this.file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(Object.fromEntries(kept)));
      renameSync(tmp, this.file);
    } catch {
      // a read-only node_modules: the build goes on without the cache
    }
  }

  private key(text: string): string {
    return createHash("sha256").update(this.salt).update(text).digest("base64url");
  }
}

const perProcess = new Map<string, FormatCache | undefined>();

function read(file: string): Map<string, string> {
  try {
    const data: unknown = JSON.parse(readFileSync(file, "utf8"));
    if (typeof data !== "object" || data === null) return new Map();
    return new Map(Object.entries(data).filter((e): e is [string, string] => typeof e[1] === "string"));
  } catch {
    return new Map();
  }
}


/** prettier's version, from its package.json (importing prettier to ask would load it) */
function prettierVersion(): string {
  const pkg: unknown = createRequire(import.meta.url)("prettier/package.json");
  return typeof pkg === "object" && pkg !== null && "version" in pkg ? String(pkg.version) : "unknown";
}
