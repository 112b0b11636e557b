/**
 * Whether a generated `.ts` file is an ES module for TypeScript (module NodeNext) and Node: the nearest
 * package.json above it says `"type": "module"`. Generated code and graphc's packages are ES modules only, so
 * in a CommonJS package the TypeScript pass would report every import and export of the generated file
 * (TS1295, TS1287); typecheck.ts reports this once instead (G3096). Read afresh each build: `--watch` and
 * the language server see the user fix package.json.
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { findUp } from "../../find-up.ts";

export interface PackageType {
  /** the package.json that decides, or undefined when there is none above the file */
  readonly file: string | undefined;
  readonly esm: boolean;
}

export function packageTypeOf(file: string, cwd: string): PackageType {
  const pkg = findUp(dirname(resolve(cwd, file)), "package.json");
  return { file: pkg, esm: pkg !== undefined && typeOf(pkg) === "module" };
}

function typeOf(pkg: string): unknown {
  try {
    return (JSON.parse(readFileSync(pkg, "utf8")) as { type?: unknown } | null)?.type;
  } catch {
    // a broken package.json is Node's and npm's to report; TypeScript then reads no type either
    return undefined;
  }
}
