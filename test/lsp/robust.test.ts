/**
 * Every feature answers, and never throws, anywhere in every sample and every diagnostic fixture (broken
 * files included: the features read the parser's recovered AST), in-process. Positions: every token start,
 * and for completion the character after each token (where the cursor is when completion is asked).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { check } from "../../compiler/check.ts";
import { nodeHost } from "../../compiler/phases/2-bind/host.ts";
import { complete } from "../../compiler/lsp/completion.ts";
import { documentSymbols } from "../../compiler/lsp/document-symbols.ts";
import { formatDocument } from "../../compiler/lsp/formatting.ts";
import { hover } from "../../compiler/lsp/hover.ts";
import { definition, references } from "../../compiler/lsp/navigation.ts";
import { prepareRename } from "../../compiler/lsp/rename.ts";
import { semanticTokens } from "../../compiler/lsp/semantic-tokens.ts";
import { lex } from "../../grammar/tokens.ts";
import { REPO } from "./client.ts";

function graphFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? graphFiles(p) : n.endsWith(".graph") ? [p] : [];
  });
}

const files = [...graphFiles(join(REPO, "samples")), ...graphFiles(join(REPO, "test/fixtures/diagnostics"))];

describe("every feature at every position", () => {
  it(`answers in ${files.length} files`, () => {
    expect(files.length).toBeGreaterThan(100);
    let answered = 0;
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      const { program } = check([file], nodeHost());
      expect(program, file).toBeDefined();
      documentSymbols(program!, file);
      semanticTokens(program!, file);
      formatDocument(text, file);
      for (const t of lex(text).tokens) {
        const offset = t.startOffset;
        if (hover(program!, file, offset)) answered++;
        definition(program!, file, offset);
        references(program!, file, offset, true);
        prepareRename(program!, file, offset);
        complete(program!, file, text, offset + t.image.length);
      }
    }
    expect(answered).toBeGreaterThan(1000);
  }, 120_000);
});
