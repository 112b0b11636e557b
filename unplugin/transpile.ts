/**
 * Generated TypeScript → JavaScript every bundler takes as is. Rollup and webpack do not strip types, and
 * a `.graph` module is not a `.ts` file to Vite, esbuild or Rspack either, so the plugin strips them
 * itself, with the TypeScript graphc already carries (no second compiler to install). Types only: the
 * output keeps ES2022 syntax and ES modules, which the bundler then targets as it does any module.
 */
import { basename } from "node:path";
import { composeMappings, type SourceMapJson } from "./source-map.ts";
import type { GraphcEmittedFile, TypeScriptApi } from "./toolchain.ts";

// a trailing `//# sourceMappingURL=…` names a map file the bundler should not look for
const MAP_COMMENT = /\n\/\/# sourceMappingURL=\S*\s*$/;

export interface JsModule {
  readonly code: string;
  readonly map: SourceMapJson;
}

/** `ts`: the generated TypeScript (after import rewriting, line for line the same as `file.text`). */
export function toJavaScript(tsApi: TypeScriptApi, file: GraphcEmittedFile, ts: string, graphText: string): JsModule {
  const fileName = basename(file.path);
  const out = tsApi.transpileModule(ts.replace(MAP_COMMENT, "\n"), {
    fileName,
    compilerOptions: {
      target: tsApi.ScriptTarget.ES2022,
      module: tsApi.ModuleKind.ESNext,
      sourceMap: true,
      // graphc writes `import { type X, f }`: only the values survive
      verbatimModuleSyntax: false,
      isolatedModules: true,
    },
  });
  const tsMap = JSON.parse(out.sourceMapText ?? '{"mappings":""}') as { mappings: string };
  const graphName = basename(file.source);
  const mappings = composeMappings(tsMap.mappings, (tsLine) => {
    const span = file.lines[tsLine];
    if (span === undefined || span.file !== file.source) return undefined;
    return { line: span.start.line - 1, column: span.start.column - 1 };
  });
  return {
    code: out.outputText.replace(MAP_COMMENT, "\n"),
    // the module's id is the `.graph` file itself, so its map's only source is its own basename
    map: { version: 3, file: graphName, sources: [graphName], sourcesContent: [graphText], names: [], mappings },
  };
}
