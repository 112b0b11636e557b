/**
 * ts-morph, and the TypeScript (JavaScript API) it carries, loaded with `require` and only when first
 * used. A build checks types on native TypeScript 7 (ts-native.ts) and needs neither; what still uses
 * them — the fallback pass (ts-check.ts) when the native binary cannot start, a `--watch` rebuild's
 * statement cutter (format.ts), the language server's hover (lsp/ts-source.ts) — pays for loading them
 * (about 0.6 s CPU) on that first use. ts-morph is CommonJS: an `import` of it makes Node first scan its
 * JavaScript for export names (cjs-module-lexer), a third more (800–910 ms imported, 575–610 ms required).
 * The compiler imports only types from "ts-morph" (`import type { ts as TS }` for TypeScript's types).
 */
import { createRequire } from "node:module";
import type * as TsMorph from "ts-morph";

let loaded: typeof TsMorph | undefined;

export function tsMorph(): typeof TsMorph {
  return (loaded ??= createRequire(import.meta.url)("ts-morph") as typeof TsMorph);
}

/**
 * TypeScript's JavaScript API, loaded on first property access: `ts.isIdentifier(…)` at a call site does
 * not load anything when the module holding it is imported.
 */
export const ts: typeof TsMorph.ts = new Proxy({} as typeof TsMorph.ts, {
  get: (_, key) => Reflect.get(tsMorph().ts, key),
});
