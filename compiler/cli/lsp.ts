/**
 * `graphc lsp --stdio`: the language server (compiler/lsp) over stdin/stdout. The connection ends the
 * process (LSP `exit`: code 0 after `shutdown`, else 1; or when the client closes stdin), so this never
 * resolves.
 */
import { UsageError } from "./io.ts";

export async function lspCommand(opts: { stdio?: boolean }): Promise<number> {
  if (!opts.stdio) throw new UsageError("`graphc lsp` speaks over stdin/stdout only: run `graphc lsp --stdio`");
  // stdout carries the protocol: a stray console.log anywhere would corrupt it
  console.log = console.error;
  const { startServer } = await import("../lsp/server.ts");
  startServer(process.stdin, process.stdout);
  return new Promise<number>(() => {});
}
