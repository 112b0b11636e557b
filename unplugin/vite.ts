/** `import graphc from "@graphc/unplugin/vite"`: the plugin for Vite (see README.md for the setup). */
import { createVitePlugin } from "unplugin";
import { unpluginFactory } from "./plugin.ts";

export type { GraphcPluginOptions } from "./options.ts";
export default createVitePlugin(unpluginFactory);
