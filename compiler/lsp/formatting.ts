/** Document formatting: `graphc fmt` (compiler/format) as one edit; nothing while the file has syntax errors. */
import type { TextEdit } from "vscode-languageserver";
import { LineMap } from "../../grammar/span.ts";
import { format } from "../format/index.ts";
import { spanToRange } from "./paths.ts";

export function formatDocument(text: string, path: string): TextEdit[] {
  const result = format(text, path);
  if (result.diagnostics.length > 0 || result.text === text) return [];
  return [{ range: spanToRange(new LineMap(path, text).span(0, text.length)), newText: result.text }];
}
