/** `import graphc from "@graphc/unplugin/esbuild"`: the plugin for Esbuild (see README.md for the setup). */
import { createEsbuildPlugin } from "unplugin";
import { unpluginFactory } from "./plugin.ts";

export type { GraphcPluginOptions } from "./options.ts";
export default createEsbuildPlugin(unpluginFactory);
