import type { CompletionItem } from "vscode-languageserver";
import type { Program } from "../phases/2-bind/model.ts";
export const TRIGGER_CHARACTERS = [".", "(", "{", ",", " ", ">", ":", "\""];
export function complete(program: Program, path: string, text: string, offset: number): CompletionItem[] {
  void program; void path; void text; void offset;
  return [];
}
