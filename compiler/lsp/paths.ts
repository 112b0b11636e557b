/**
 * Between LSP and the compiler: documents are `file:` URIs, the compiler speaks absolute posix paths and
 * spans with 1-based lines and columns (UTF-16 code units, LSP's default position encoding, so columns map
 * one to one).
 */
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Range } from "vscode-languageserver";
import type { Span } from "../../grammar/span.ts";
import { toRange } from "../diagnostics/json.ts";
import { normalisePath } from "../phases/2-bind/host.ts";

/** The compiler's path for a document URI; undefined for a URI that is not a local file (`untitled:`…). */
export function uriToPath(uri: string): string | undefined {
  if (!uri.startsWith("file:")) return undefined;
  return normalisePath(fileURLToPath(uri));
}

export function pathToUri(path: string): string {
  return pathToFileURL(path).href;
}

export const spanToRange = (span: Span): Range => toRange(span);
