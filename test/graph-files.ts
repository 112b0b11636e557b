/** The repository's `.graph` files, for tests that run over all of them (formatter, property tests). */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../", import.meta.url));

/**
 * Every `.graph` file below `dir` (absolute paths, sorted), leaving out node_modules, hidden folders and the
 * tests' git-ignored `_tmp*` output; a missing `dir` has none.
 */
export function graphFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const name of names) {
    if (name === "node_modules" || name.startsWith(".") || name.startsWith("_tmp")) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...graphFiles(p));
    else if (name.endsWith(".graph")) out.push(p);
  }
  return out.sort();
}
