/**
 * graphc's version, read once from package.json (the single place it is written). It goes into every
 * generated file's header and spec (`compilerVersion`, checked by the runtime).
 */
import { readFileSync } from "node:fs";

export const VERSION: string = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }
).version;
