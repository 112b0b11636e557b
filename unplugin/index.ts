/**
 * `@graphc/unplugin`: import `.graph` files from Vite, Rollup, esbuild, webpack and Rspack. Each bundler
 * has its own entry (`@graphc/unplugin/vite`, …) whose default export is the plugin factory; this entry
 * holds the unplugin instance (`graphc.vite(options)`, `graphc.webpack(options)`, …) for other hosts.
 */
import { createUnplugin } from "unplugin";
import { unpluginFactory } from "./plugin.ts";
import type { GraphcPluginOptions } from "./options.ts";

export type { GraphcPluginOptions } from "./options.ts";
export { GraphcMissingError } from "./toolchain.ts";
export { unpluginFactory };

export const graphc = createUnplugin<GraphcPluginOptions | undefined, false>(unpluginFactory);
export default graphc;
