/**
 * Child processes for the durability tests: `compileGraph` compiles a fixture into the test's temp folder,
 * `bundleRunner` bundles a child around the generated graph, `Child` runs it.
 *
 * A child is bundled once per test run into one plain ES module (esbuild, which tsx already brings in), so a
 * spawn costs a bare `node` start-up (~0.1 s idle) instead of tsx's loader and transpiler (~0.4 s idle,
 * several seconds on a loaded machine). The bundle holds the same sources — runtime, generated code, node
 * functions — compiled the same way tsx would; native and driver packages (better-sqlite3, pg) stay
 * external and load from node_modules, which is why bundles live in a temp folder inside the repository.
 *
 * Children talk in lines on stdout; `Child.line(pattern)` waits for one.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";
import { buildFiles, hasErrors } from "graphc";
import { SOURCE_ENTRIES } from "../source-entries.ts";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/**
 * Every package name ("@graphc/runtime", the savers, any later one) maps to its source file
 * (test/source-entries.ts), as it does for vitest and tsc in this repository.
 */
const sourceEntries: Plugin = {
  name: "graphc-source-entries",
  setup(b) {
    b.onResolve({ filter: /^(graphc|@graphc\/)/ }, (args) => {
      const target = SOURCE_ENTRIES[args.path];
      if (target === undefined) return { errors: [{ text: `"${args.path}" is not in test/source-entries.ts` }] };
      return { path: join(ROOT, target) };
    });
  },
};

/** Bundles `source` (TypeScript, resolved from `resolveDir`) into `outfile`. */
export async function bundle(source: string, resolveDir: string, outfile: string): Promise<string> {
  await build({
    stdin: { contents: source, resolveDir, loader: "ts", sourcefile: "child-entry.ts" },
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: "inline",
    external: ["better-sqlite3", "pg"],
    plugins: [sourceEntries],
    logLevel: "silent",
  });
  return outfile;
}

/**
 * Compiles one `.graph` file (and what it imports) into `outDir`; throws on an error. graphc's own TS pass
 * is off: the fixtures' node modules are checked by the root tsc (the sample's by the e2e test), and this
 * keeps the build to a second.
 */
export async function compileGraph(file: string, rootDir: string, outDir: string): Promise<void> {
  const { outputs, diagnostics } = await buildFiles([file], { outDir, rootDir, typecheck: false });
  if (hasErrors(diagnostics)) throw new Error(`${file}: ${diagnostics.map((d) => `${d.code} ${d.message}`).join("; ")}`);
  for (const out of outputs) writeFileSync(out.path, out.text);
}

/**
 * Bundles a child whose entry imports graph `graph` from the generated `./<module>` in `dir` and hands it,
 * with the process arguments, to `runner` exported by the TS file `runnerFile`. Returns the bundle's path.
 */
export function bundleRunner(
  dir: string,
  from: { module: string; graph: string },
  runner: { file: string; name: string },
  outName: string,
): Promise<string> {
  const entry = [
    `import { ${from.graph} } from "./${from.module}";`,
    `import { ${runner.name} } from ${JSON.stringify(runner.file)};`,
    `await ${runner.name}(${from.graph}, process.argv.slice(2));`,
  ].join("\n");
  return bundle(entry, dir, join(dir, outName));
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A running child: its stdout lines, a way to wait for one, and its exit. */
export class Child {
  readonly proc: ChildProcess;
  readonly lines: string[] = [];
  readonly exited: Promise<Exit>;
  private stderr = "";
  private waiters: { pattern: RegExp; resolve: (line: string) => void; reject: (e: Error) => void }[] = [];
  private exit: Exit | undefined;

  constructor(file: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env) {
    this.proc = spawn(process.execPath, ["--enable-source-maps", file, ...args], {
      stdio: ["pipe", "pipe", "pipe"],
      env,
    });
    let partial = "";
    this.proc.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      const parts = (partial + chunk).split("\n");
      partial = parts.pop()!;
      for (const line of parts) this.onLine(line);
    });
    this.proc.stderr!.setEncoding("utf8").on("data", (chunk: string) => (this.stderr += chunk));
    this.exited = new Promise((resolve) => {
      this.proc.on("exit", (code, signal) => {
        this.exit = { code, signal };
        for (const w of this.waiters.splice(0)) w.reject(this.failure(`exited (${signal ?? code}) before printing ${w.pattern}`));
        resolve(this.exit);
      });
    });
  }

  private onLine(line: string): void {
    this.lines.push(line);
    const i = this.waiters.findIndex((w) => w.pattern.test(line));
    if (i >= 0) this.waiters.splice(i, 1)[0]!.resolve(line);
  }

  failure(what: string): Error {
    return new Error(`child ${this.proc.pid} ${what}\n--- stdout:\n${this.lines.join("\n")}\n--- stderr:\n${this.stderr}`);
  }

  /** The first line (already printed or still to come) matching `pattern`. */
  line(pattern: RegExp): Promise<string> {
    const seen = this.lines.find((l) => pattern.test(l));
    if (seen !== undefined) return Promise.resolve(seen);
    if (this.exit) return Promise.reject(this.failure(`exited (${this.exit.signal ?? this.exit.code}) before printing ${pattern}`));
    return new Promise((resolve, reject) => this.waiters.push({ pattern, resolve, reject }));
  }

  send(message: unknown): void {
    this.proc.stdin!.write(`${JSON.stringify(message)}\n`);
  }

  /** Waits for a normal exit with code 0 and returns stdout's lines. */
  async success(): Promise<string[]> {
    const { code, signal } = await this.exited;
    if (code !== 0) throw this.failure(`failed (${signal ?? code})`);
    return this.lines;
  }
}
