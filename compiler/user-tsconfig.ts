/**
 * The settings graphc takes from the user's nearest tsconfig.json (found from the working directory up,
 * `extends` followed): the `paths` mapping, so graphc's TypeScript pass resolves modules as the user's tsc
 * does, and whether relative imports may end in `.ts` (the default of `--import-ext`). Read by native
 * TypeScript (ts-native-api.ts) when it runs, else by TypeScript's JavaScript API.
 */
import { dirname } from "node:path";
import { findUp } from "./find-up.ts";
import { ts } from "./ts-api.ts";
import { nativeApi } from "./ts-native-api.ts";

export type ImportExt = "js" | "ts" | "none";

export interface UserTsconfig {
  /** the tsconfig.json read, or undefined when there is none above the folder */
  readonly file: string | undefined;
  readonly paths: Readonly<Record<string, string[]>> | undefined;
  readonly pathsBasePath: string | undefined;
  /** `.ts` when the user's tsc accepts `.ts` specifiers (allowImportingTsExtensions or rewriteRelativeImportExtensions), else `.js` */
  readonly importExt: ImportExt;
  /** moduleResolution Bundler: extensionless relative imports resolve */
  readonly bundler: boolean;
}

/** The compiler options graphc reads, as both TypeScripts' parsers return them. */
interface ParsedOptions {
  readonly paths?: Record<string, string[]> | undefined;
  readonly pathsBasePath?: unknown;
  readonly allowImportingTsExtensions?: boolean | undefined;
  readonly rewriteRelativeImportExtensions?: boolean | undefined;
  readonly moduleResolution?: number | undefined;
}

/** `ModuleResolutionKind.Bundler`, the same number in TypeScript 6 and 7 */
const BUNDLER = 100;

const cache = new Map<string, UserTsconfig>();

export function userTsconfig(cwd: string): UserTsconfig {
  let hit = cache.get(cwd);
  if (!hit) cache.set(cwd, (hit = read(cwd)));
  return hit;
}

function read(cwd: string): UserTsconfig {
  const file = findConfig(cwd);
  if (file === undefined) return { file, paths: undefined, pathsBasePath: undefined, importExt: "js", bundler: false };
  // a broken tsconfig is the user's tsc's to report: graphc falls back to the defaults
  const options = parse(file);
  const tsExt = options.allowImportingTsExtensions === true || options.rewriteRelativeImportExtensions === true;
  const base = typeof options.pathsBasePath === "string" ? options.pathsBasePath : dirname(file);
  return {
    file,
    paths: options.paths,
    pathsBasePath: options.paths ? base : undefined,
    importExt: tsExt ? "ts" : "js",
    bundler: options.moduleResolution === BUNDLER,
  };
}

/** tsconfig.json in `cwd` or the nearest folder above it (as `ts.findConfigFile`) */
function findConfig(cwd: string): string | undefined {
  return findUp(cwd, "tsconfig.json")?.replace(/\\/g, "/");
}

function parse(file: string): ParsedOptions {
  const native = nativeApi();
  if (native) {
    try {
      return native.parseConfigFile(file).options as ParsedOptions;
    } catch {
      return {};
    }
  }
  const raw = ts.readConfigFile(file, ts.sys.readFile);
  return ts.parseJsonConfigFileContent(raw.config ?? {}, ts.sys, dirname(file), undefined, file).options;
}
