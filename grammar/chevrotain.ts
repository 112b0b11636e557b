/**
 * The chevrotain values grammar/ uses, loaded from the single-file ESM bundle the package ships
 * (`lib/chevrotain.mjs`, same version) when it can be found. The package entry (`lib/src/api.js`) fans
 * out into some 300 lodash-es modules; through tsx's loader (how `graphc` runs) that import alone took
 * ~3 s on a loaded machine versus ~0.1 s for the bundle — paid by every CLI start and every test file.
 * If the bundle cannot be located (a bundler, no `import.meta.resolve`), the package entry is used.
 * Types always come from the package (`import type … from "chevrotain"`).
 */
type Chevrotain = typeof import("chevrotain");

async function load(): Promise<Chevrotain> {
  try {
    const entry = import.meta.resolve("chevrotain");
    const bundle = new URL("../chevrotain.mjs", entry).href;
    const mod = (await import(bundle)) as Chevrotain;
    if (typeof mod.CstParser === "function" && mod.VERSION === "11.2.0") return mod;
  } catch {
    // fall through to the package entry
  }
  return import("chevrotain");
}

const chevrotain = await load();

export const { createToken, CstParser, EOF, Lexer, tokenMatcher } = chevrotain;
