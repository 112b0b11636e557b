/**
 * In this repository every package name resolves to its TypeScript source (the published packages point at
 * compiled dist/ files): vitest's aliases and the esbuild bundles of test children use this table; tsc and
 * tsx read the same mapping from tsconfig.json `paths` (test/packages/source-entries.test.ts keeps the two equal).
 */
export const SOURCE_ENTRIES: Readonly<Record<string, string>> = {
  graphc: "compiler/index.ts",
  "@graphc/runtime": "runtime/index.ts",
  "@graphc/runtime/core": "runtime/core.ts",
  "@graphc/runtime/streaming": "runtime/install-streaming.ts",
  "@graphc/runtime/install": "runtime/install.ts",
  "@graphc/runtime/saver": "runtime/saver.ts",
  "@graphc/runtime/tracing": "runtime/tracing.ts",
  "@graphc/langgraph": "langgraph/index.ts",
  "@graphc/checkpoint-sqlite": "checkpoint-sqlite/index.ts",
  "@graphc/checkpoint-postgres": "checkpoint-postgres/index.ts",
  "@graphc/unplugin": "unplugin/index.ts",
  "@graphc/unplugin/vite": "unplugin/vite.ts",
  "@graphc/unplugin/rollup": "unplugin/rollup.ts",
  "@graphc/unplugin/esbuild": "unplugin/esbuild.ts",
  "@graphc/unplugin/webpack": "unplugin/webpack.ts",
  "@graphc/unplugin/rspack": "unplugin/rspack.ts",
  "@graphc/server": "server/index.ts",
};
