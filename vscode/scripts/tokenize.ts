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
const MARKDOWN_INJECTION_PATH = fileURLToPath(new URL("../syntaxes/graph.markdown.tmLanguage.json", import.meta.url));
/** VS Code's Markdown grammar is not a package here: a host with no rules of its own shows the injection alone */
const MARKDOWN_HOST = JSON.stringify({ scopeName: "text.html.markdown", patterns: [] });

export interface Token {
  readonly line: number;
  readonly text: string;
  /** scopes outermost first, the document's own (`source.graph`, `text.html.markdown`) left out */
  readonly scopes: string[];
}

let registry: Promise<textmate.Registry> | undefined;

async function load(): Promise<textmate.Registry> {
  const wasm = readFileSync(createRequire(import.meta.url).resolve("vscode-oniguruma/release/onig.wasm"));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer);
  return new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns: string[]) => new oniguruma.OnigScanner(patterns),
      createOnigString: (s: string) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scope: string) => {
      if (scope === "source.graph") return textmate.parseRawGrammar(readFileSync(GRAMMAR_PATH, "utf8"), GRAMMAR_PATH);
      if (scope === "markdown.graph.codeblock") return textmate.parseRawGrammar(readFileSync(MARKDOWN_INJECTION_PATH, "utf8"), MARKDOWN_INJECTION_PATH);
      if (scope === "text.html.markdown") return textmate.parseRawGrammar(MARKDOWN_HOST, "markdown.json");
      return null;
    },
    // package.json `injectTo`: the ```graph fence grammar is injected into Markdown
    getInjections: (scope: string) => (scope === "text.html.markdown" ? ["markdown.graph.codeblock"] : undefined),
  });
}

/**
 * Every token of `text`, line by line (1-based lines), whitespace-only tokens left out; `markdown: true`
 * reads it as a Markdown document, where ```graph fences are highlighted by injection.
 */
export async function tokenize(text: string, options: { markdown?: boolean } = {}): Promise<Token[]> {
  registry ??= load();
  const scope = options.markdown ? "text.html.markdown" : "source.graph";
  const g = await (await registry).loadGrammar(scope);
  if (g === null) throw new Error(`cannot load the grammar of ${scope}`);
  const out: Token[] = [];
  let stack = textmate.INITIAL;
  text.split(/\r?\n/).forEach((line, i) => {
    const r = g.tokenizeLine(line, stack);
    for (const t of r.tokens) {
      const piece = line.slice(t.startIndex, t.endIndex);
      if (piece.trim() === "") continue;
      out.push({ line: i + 1, text: piece, scopes: t.scopes.filter((s) => s !== "source.graph" && s !== "text.html.markdown") });
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
