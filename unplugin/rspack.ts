/** `import graphc from "@graphc/unplugin/rspack"`: the plugin for Rspack (see README.md for the setup). */
import { createRspackPlugin } from "unplugin";
import { unpluginFactory } from "./plugin.ts";

export type { GraphcPluginOptions } from "./options.ts";
export default createRspackPlugin(unpluginFactory);
