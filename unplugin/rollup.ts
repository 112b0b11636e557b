/** `import graphc from "@graphc/unplugin/rollup"`: the plugin for Rollup (see README.md for the setup). */
import { createRollupPlugin } from "unplugin";
import { unpluginFactory } from "./plugin.ts";

export type { GraphcPluginOptions } from "./options.ts";
export default createRollupPlugin(unpluginFactory);
