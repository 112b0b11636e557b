/**
 * The settings graphc takes from the user's nearest tsconfig.json (found from the working directory up,
 * `extends` followed): the `paths` mapping, so graphc's TypeScript pass resolves modules as the user's tsc
 * does, and whether relative imports may end in `.ts` (the default of `--import-ext`).
 */
import { dirname } from "node:path";
import type { ts as TS } from "ts-morph";
import { ts } from "./ts-api.ts";

export type ImportExt = "js" | "ts" | "none";

export interface UserTsconfig {
  /** the tsconfig.json read, or undefined when there is none above the folder */
  readonly file: string | undefined;
  readonly paths: TS.MapLike<string[]> | undefined;
  readonly pathsBasePath: string | undefined;
  /** `.ts` when the user's tsc accepts `.ts` specifiers (allowImportingTsExtensions or rewriteRelativeImportExtensions), else `.js` */
  readonly importExt: ImportExt;
  /** moduleResolution Bundler: extensionless relative imports resolve */
  readonly bundler: boolean;
}

const cache = new Map<string, UserTsconfig>();

export function userTsconfig(cwd: string): UserTsconfig {
  let hit = cache.get(cwd);
  if (!hit) cache.set(cwd, (hit = read(cwd)));
  return hit;
}

function read(cwd: string): UserTsconfig {
  const file = ts.findConfigFile(cwd, ts.sys.fileExists, "tsconfig.json");
  if (file === undefined) return { file, paths: undefined, pathsBasePath: undefined, importExt: "js", bundler: false };
  const raw = ts.readConfigFile(file, ts.sys.readFile);
  // a broken tsconfig is the user's tsc's to report: graphc falls back to the defaults
  const { options } = ts.parseJsonConfigFileContent(raw.config ?? {}, ts.sys, dirname(file), undefined, file);
  const tsExt = options.allowImportingTsExtensions === true || options.rewriteRelativeImportExtensions === true;
  const base = typeof options["pathsBasePath"] === "string" ? options["pathsBasePath"] : dirname(file);
  return {
    file,
    paths: options.paths,
    pathsBasePath: options.paths ? base : undefined,
    importExt: tsExt ? "ts" : "js",
    bundler: options.moduleResolution === ts.ModuleResolutionKind.Bundler,
  };
}
