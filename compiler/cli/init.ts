/**
 * `graphc init [dir]`: scaffolds a working project (init-template.ts) in `dir` (default: here). Refuses a
 * folder that already holds files other than `.git`, so nothing of the user's is ever overwritten.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { initFiles } from "./init-template.ts";
import { type CliIO, EXIT, UsageError } from "./io.ts";

export function initCommand(io: CliIO, dir: string | undefined): number {
  const target = resolve(io.cwd, dir ?? ".");
  if (existsSync(target)) {
    const present = readdirSync(target).filter((f) => f !== ".git");
    if (present.length > 0) throw new UsageError(`${dir ?? "."} is not empty (${present.slice(0, 3).join(", ")}${present.length > 3 ? ", …" : ""}): graphc init writes a new project into an empty folder`);
  }
  const files = initFiles(packageName(basename(target)));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(target, path)), { recursive: true });
    writeFileSync(join(target, path), text);
  }
  const cd = dir === undefined || resolve(io.cwd, dir) === io.cwd ? "" : `cd ${dir} && `;
  io.stdout(`created ${Object.keys(files).length} files in ${target}\nnext: ${cd}npm install && npm test\n`);
  return EXIT.ok;
}

/** An npm package name from a folder name: lower case, URL-safe characters, never empty. */
export function packageName(folder: string): string {
  const name = folder.toLowerCase().replace(/[^a-z0-9._-]+/g, "-").replace(/^[._-]+|-+$/g, "");
  return name === "" ? "graphc-app" : name;
}
