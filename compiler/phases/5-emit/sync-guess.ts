/**
 * A guess, from the text of the user's module, of what TypeScript will answer to `isSync` (typecheck.ts):
 * a function declared `export function name(…)` with no `Promise` before its body, or an exported arrow
 * function that is not `async` and names no `Promise`, is guessed synchronous; anything else (not found,
 * not read, re-exported, async) is not. Only a cold build's formatting ahead uses it (compile.ts: the text
 * prettier formats while the TypeScript thread runs): a wrong guess costs that statement a second
 * prettier call, never a different output.
 */
import { readFileSync } from "node:fs";
import { posix } from "node:path";
import type { ImportRef } from "../2-bind/model.ts";

const texts = new Map<string, string | undefined>();

export function guessSync(fn: ImportRef, graphFile: string): boolean {
  if (!fn.module.startsWith(".")) return false;
  const text = moduleText(posix.join(posix.dirname(graphFile), fn.module));
  if (text === undefined) return false;
  const name = fn.exported.replace(/[$]/g, "\\$");
  const decl = new RegExp(`export\\s+(async\\s+)?function\\s+${name}\\b([^{]*)\\{`).exec(text);
  if (decl) return decl[1] === undefined && !decl[2]!.includes("Promise");
  const arrow = new RegExp(`export\\s+const\\s+${name}\\b[^=]*=\\s*(async\\b)?([^\\n]*)`).exec(text);
  return arrow !== null && arrow[1] === undefined && arrow[2]!.includes("=>") && !arrow[0].includes("Promise");
}

/** the module's text: the path as written, or with a TypeScript extension for a `.js` one or none */
function moduleText(path: string): string | undefined {
  if (!texts.has(path)) {
    const stem = path.replace(/\.(m?js)$/, "");
    const candidates = [path, `${stem}.ts`, `${stem}.mts`, `${stem}.tsx`, `${stem}/index.ts`];
    texts.set(path, candidates.map(read).find((t) => t !== undefined));
  }
  return texts.get(path);
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}
