/**
 * Whether a generated `.ts` file is an ES module for TypeScript (module NodeNext) and Node: the nearest
 * package.json above it says `"type": "module"`. Generated code and graphc's packages are ES modules only, so
 * in a CommonJS package the TypeScript pass would report every import and export of the generated file
 * (TS1295, TS1287); typecheck.ts reports this once instead (G3096). Read afresh each build: `--watch` and
 * the language server see the user fix package.json.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

export interface PackageType {
  /** the package.json that decides, or undefined when there is none above the file */
  readonly file: string | undefined;
  readonly esm: boolean;
}

export function packageTypeOf(file: string, cwd: string): PackageType {
  for (let dir = dirname(resolve(cwd, file)); ; dir = dirname(dir)) {
    const pkg = join(dir, "package.json");
    if (existsSync(pkg)) return { file: pkg, esm: typeOf(pkg) === "module" };
    if (dirname(dir) === dir) return { file: undefined, esm: false };
  }
}

function typeOf(pkg: string): unknown {
  try {
    return (JSON.parse(readFileSync(pkg, "utf8")) as { type?: unknown } | null)?.type;
  } catch {
    // a broken package.json is Node's and npm's to report; TypeScript then reads no type either
    return undefined;
  }
}
