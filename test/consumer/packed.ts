/**
 * The consumer tests' setup: build every package (scripts/build.mjs), `npm pack` each once, and install the
 * tarballs into fresh projects outside the repository (so nothing resolves through the repository's own
 * node_modules), as a user's `npm install` does. Installs use the npm cache first (`--prefer-offline`).
 */
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const FIXTURE = join(ROOT, "test", "fixtures", "consumer");
export const TSC = join(ROOT, "node_modules", "typescript", "bin", "tsc");
const run = promisify(execFile);

/** Runs a command (`env`: variables added to a clean environment); on failure the error carries its output. */
export async function sh(cmd: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  try {
    const { stdout } = await run(cmd, args, { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024, env: { ...cleanEnv(), ...env } });
    return stdout;
  } catch (e) {
    const { stdout, stderr } = e as { stdout?: string; stderr?: string };
    throw new Error(`${cmd} ${args.join(" ")} (in ${cwd}) failed:\n${stdout ?? ""}\n${stderr ?? ""}`);
  }
}

/** `node <args>` with this process's Node */
export const node = (args: readonly string[], cwd: string, env?: NodeJS.ProcessEnv) => sh(process.execPath, args, cwd, env);

// npm run by vitest inherits npm_config_* of the outer `npm test` (workspaces, prefix): a user's install has none
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k) && k !== "NODE_OPTIONS") env[k] = v;
  return env;
}

export interface Packs {
  readonly dir: string;
  /** package name -> tarball path */
  readonly tarballs: Readonly<Record<string, string>>;
  remove(): void;
}

export async function buildAndPack(): Promise<Packs> {
  const dir = mkdtempSync(join(tmpdir(), "graphc-consumer-"));
  await node([join(ROOT, "scripts", "build.mjs")], ROOT);
  const packDir = join(dir, "packs");
  mkdirSync(packDir);
  const out = await sh("npm", ["pack", "--workspaces", "--include-workspace-root", "--pack-destination", packDir, "--json"], ROOT);
  const tarballs: Record<string, string> = {};
  for (const p of JSON.parse(out) as { name: string; filename: string }[]) tarballs[p.name] = join(packDir, p.filename);
  return { dir, tarballs, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface AppSpec {
  readonly name: string;
  /** package name -> tarball or registry version */
  readonly dependencies: Readonly<Record<string, string>>;
  readonly devDependencies?: Readonly<Record<string, string>>;
  /** skip install scripts (a native module then gets its binary from `nativeFrom`) */
  readonly ignoreScripts?: boolean;
}

/** A fresh project `name` in `packs.dir`: the consumer fixture's files, a package.json, `npm install`. */
export async function installApp(packs: Packs, spec: AppSpec): Promise<string> {
  const dir = join(packs.dir, spec.name);
  cpSync(FIXTURE, dir, { recursive: true });
  const pkg = {
    name: spec.name,
    private: true,
    type: "module",
    dependencies: spec.dependencies,
    devDependencies: spec.devDependencies ?? {},
  };
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
  await npmInstall(dir, spec.ignoreScripts ? ["--ignore-scripts"] : []);
  return dir;
}

/** `npm install` in `dir`, from the npm cache where it can. */
export async function npmInstall(dir: string, extra: readonly string[] = []): Promise<void> {
  await sh("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error", ...extra], dir);
}

/**
 * better-sqlite3 has no prebuilt binary reachable offline, and compiling it takes minutes on two cores:
 * an app installed with `ignoreScripts` gets the binary the repository's own install built (same pinned version).
 */
export function copyNativeBuild(app: string, pkg: string): void {
  cpSync(join(ROOT, "node_modules", pkg, "build", "Release"), join(app, "node_modules", pkg, "build", "Release"), {
    recursive: true,
    filter: (src) => !src.includes(`${join("Release", "obj")}`),
  });
}

/** Every file under `dir` (relative paths). */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" });
}
