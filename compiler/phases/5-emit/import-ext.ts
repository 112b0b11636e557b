/**
 * `--import-ext js|ts|none`: the extension of the relative imports in generated code (the user's node
 * modules and other generated files), so the file compiles under the user's module settings: `.js` for
 * tsc with module NodeNext (the default), `.ts` with allowImportingTsExtensions or
 * rewriteRelativeImportExtensions, none for bundler resolution. Package imports are left alone.
 */
import type { ImportExt } from "../../user-tsconfig.ts";

export type { ImportExt };

export const IMPORT_EXTS: readonly ImportExt[] = ["js", "ts", "none"];

// TypeScript and JavaScript twins; `.d.ts` specifiers and other extensions are left as written
const TWINS: Readonly<Record<string, { js: string; ts: string }>> = {
  ".ts": { js: ".js", ts: ".ts" },
  ".js": { js: ".js", ts: ".ts" },
  ".mts": { js: ".mjs", ts: ".mts" },
  ".mjs": { js: ".mjs", ts: ".mts" },
  ".cts": { js: ".cjs", ts: ".cts" },
  ".cjs": { js: ".cjs", ts: ".cts" },
};

/** `spec` with its extension following `ext` (undefined: as written). */
export function withImportExt(spec: string, ext: ImportExt | undefined): string {
  if (ext === undefined || !(spec.startsWith("./") || spec.startsWith("../")) || spec.endsWith(".d.ts")) return spec;
  const m = /\.[mc]?[jt]s$/.exec(spec);
  const twin = m ? TWINS[m[0]] : undefined;
  if (!m || !twin) return spec;
  const stem = spec.slice(0, m.index);
  // bundlers resolve `./x` to x.ts; `.mts`/`.cts` keep an extension (no resolver drops it)
  if (ext === "none") return m[0] === ".ts" || m[0] === ".js" ? stem : stem + twin.js;
  return stem + twin[ext];
}
