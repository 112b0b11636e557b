/**
 * The strict settings the TypeScript pass checks generated code and node functions under, as tsconfig.json
 * spells them: the native pass (ts-native.ts) writes them into its in-memory tsconfig, the JavaScript pass
 * (ts-check.ts) converts them to compiler options, so the two passes cannot drift apart.
 */
export const STRICT_CONFIG = {
  target: "es2022",
  module: "nodenext",
  moduleResolution: "nodenext",
  lib: ["es2022", "dom"],
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  allowImportingTsExtensions: true,
  verbatimModuleSyntax: true,
  noEmit: true,
  skipLibCheck: true,
  types: ["node"],
};
