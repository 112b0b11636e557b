/** `import graphc from "@graphc/unplugin/webpack"`: the plugin for Webpack (see README.md for the setup). */
import { createWebpackPlugin } from "unplugin";
import { unpluginFactory } from "./plugin.ts";

export type { GraphcPluginOptions } from "./options.ts";
export default createWebpackPlugin(unpluginFactory);
