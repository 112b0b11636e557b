/**
 * The plugin, written once for every bundler (unplugin): `.graph` modules are loaded by compiling them
 * with graphc, as JavaScript with a source map to the `.graph` lines, every file the compile read watched.
 */
import type { UnpluginFactory, UnpluginMessage } from "unplugin";
import { PLUGIN_NAME, toBundlerMessage } from "./diagnostics.ts";
import { GraphModules } from "./graph-modules.ts";
import { resolveOptions, type GraphcPluginOptions } from "./options.ts";

const GRAPH_ID = /\.graph$/;

export const unpluginFactory: UnpluginFactory<GraphcPluginOptions | undefined, false> = (userOptions, meta) => {
  const options = resolveOptions(userOptions);
  // the bundler's own project folder, unless the user named one
  const setCwd = (dir: string) => {
    if (userOptions?.cwd === undefined) options.cwd = dir;
  };
  const modules = new GraphModules(options);
  // Rollup and Vite print (and the Vite overlay shows) `frame` beside the message; the others only the message
  const framesInMessage = meta.framework !== "rollup" && meta.framework !== "vite" && meta.framework !== "rolldown";
  return {
    name: PLUGIN_NAME,
    enforce: "pre",
    load: {
      filter: { id: GRAPH_ID },
      async handler(id) {
        const outcome = await modules.load(id);
        for (const dep of outcome.ok ? outcome.graph.deps : outcome.deps) this.addWatchFile(dep);
        const { graphc } = await modules.tools();
        if (!outcome.ok) {
          const error: UnpluginMessage = toBundlerMessage(graphc, outcome.errors, options.cwd, framesInMessage);
          // throws in Rollup and Vite; webpack, Rspack and esbuild record it and fail the build after the hook
          this.error(error);
          return { code: `throw new Error(${JSON.stringify(error.message)});\n` };
        }
        for (const w of outcome.graph.warnings) this.warn(toBundlerMessage(graphc, [w], options.cwd, framesInMessage));
        return { code: outcome.graph.js.code, map: outcome.graph.js.map };
      },
    },
    vite: {
      configResolved(config) {
        setCwd(config.root);
      },
    },
    webpack(compiler) {
      setCwd(compiler.context);
    },
    rspack(compiler) {
      setCwd(compiler.context);
    },
    esbuild: {
      onLoadFilter: GRAPH_ID,
      loader: "js",
      config(buildOptions) {
        if (buildOptions.absWorkingDir !== undefined) setCwd(buildOptions.absWorkingDir);
      },
    },
  };
};
