/**
 * ts-morph, and the TypeScript (JavaScript API) it carries, loaded with `require`. ts-morph is CommonJS: an
 * `import` of it makes Node first scan its JavaScript for export names (cjs-module-lexer), which costs about
 * a third of loading it (CPU, one process each way, five pairs: 800–910 ms imported, 575–610 ms required).
 * Every build and the language server load it, so the compiler takes it from here and imports only types
 * from "ts-morph" (`import type { ts as TS }` for TypeScript's types).
 */
import { createRequire } from "node:module";
import type * as TsMorph from "ts-morph";

const tsMorph = createRequire(import.meta.url)("ts-morph") as typeof TsMorph;

export const ts = tsMorph.ts;
export const Project = tsMorph.Project;
export type Project = TsMorph.Project;
export const FileSystemRefreshResult = tsMorph.FileSystemRefreshResult;
