/**
 * The extension's TextMate grammar (vscode/syntaxes/graph.tmLanguage.json) run the way VS Code runs it:
 * vscode-textmate with the Oniguruma regex engine compiled to WebAssembly (vscode-oniguruma's onig.wasm).
 * Used by the grammar tests (test/vscode/grammar.test.ts) and the highlighting screenshot
 * (scripts/editor-screenshots.ts).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import oniguruma from "vscode-oniguruma";
import textmate from "vscode-textmate";
import { fileURLToPath } from "node:url";

export const GRAMMAR_PATH = fileURLToPath(new URL("../syntaxes/graph.tmLanguage.json", import.meta.url));

export interface Token {
  readonly line: number;
  readonly text: string;
  /** scopes outermost first, `source.graph` left out */
  readonly scopes: string[];
}

let grammar: Promise<textmate.IGrammar> | undefined;

async function load(): Promise<textmate.IGrammar> {
  const wasm = readFileSync(createRequire(import.meta.url).resolve("vscode-oniguruma/release/onig.wasm"));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer);
  const registry = new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns: string[]) => new oniguruma.OnigScanner(patterns),
      createOnigString: (s: string) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scope: string) =>
      scope === "source.graph" ? textmate.parseRawGrammar(readFileSync(GRAMMAR_PATH, "utf8"), GRAMMAR_PATH) : null,
  });
  const g = await registry.loadGrammar("source.graph");
  if (g === null) throw new Error(`cannot load ${GRAMMAR_PATH}`);
  return g;
}

/** Every token of `text`, line by line (1-based lines), whitespace-only tokens left out. */
export async function tokenize(text: string): Promise<Token[]> {
  grammar ??= load();
  const g = await grammar;
  const out: Token[] = [];
  let stack = textmate.INITIAL;
  text.split(/\r?\n/).forEach((line, i) => {
    const r = g.tokenizeLine(line, stack);
    for (const t of r.tokens) {
      const piece = line.slice(t.startIndex, t.endIndex);
      if (piece.trim() === "") continue;
      out.push({ line: i + 1, text: piece, scopes: t.scopes.filter((s) => s !== "source.graph") });
    }
    stack = r.ruleStack;
  });
  return out;
}

/**
 * The golden form: one line per source line that has tokens, `N: text⟨scopes⟩ …`, scopes without their
 * `.graph` suffix and joined with spaces; a token with no scope but source.graph shows `⟨⟩`.
 */
export function dump(tokens: readonly Token[]): string {
  const lines = new Map<number, string[]>();
  for (const t of tokens) {
    const scopes = t.scopes.map((s) => s.replace(/\.graph$/, "")).join(" ");
    lines.set(t.line, [...(lines.get(t.line) ?? []), `${t.text.trim()}⟨${scopes}⟩`]);
  }
  return [...lines].map(([n, ts]) => `${n}: ${ts.join(" ")}`).join("\n") + "\n";
}
