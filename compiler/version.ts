/**
 * graphc's version, read once from package.json (the single place it is written). It goes into every
 * generated file's header and spec (`compilerVersion`, checked by the runtime).
 */
import { readFileSync } from "node:fs";

// compiler/version.ts in the repository, dist/compiler/version.js in the published package
const CANDIDATES = ["../package.json", "../../package.json"];

function readVersion(): string {
  for (const rel of CANDIDATES) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), "utf8")) as { name?: string; version: string };
      if (pkg.name === "graphc") return pkg.version;
    } catch {
      // not this one: dist/package.json does not exist
    }
  }
  throw new Error("graphc: cannot find its own package.json");
}

export const VERSION: string = readVersion();
