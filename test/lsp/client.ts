/**
 * A real LSP client for the tests and the benchmark: spawns `node bin/graphc-dev.mjs lsp --stdio` and
 * talks JSON-RPC over its stdin/stdout (vscode-jsonrpc), as an editor does.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from "vscode-jsonrpc/node";

export const REPO = fileURLToPath(new URL("../../", import.meta.url));

export interface PublishedDiagnostic {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  severity: number;
  code: string;
  message: string;
  data?: { hint?: string };
}

export class LspClient {
  readonly connection: MessageConnection;
  private readonly versions = new Map<string, number>();
  private readonly texts = new Map<string, string>();
  /** the latest diagnostics per URI, and who waits for them */
  readonly diagnostics = new Map<string, PublishedDiagnostic[]>();
  private waiters: { uri: string; test: (d: PublishedDiagnostic[]) => boolean; resolve: (d: PublishedDiagnostic[]) => void }[] = [];

  private constructor(private readonly child: ChildProcess) {
    this.connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    this.connection.onNotification("textDocument/publishDiagnostics", (p: { uri: string; diagnostics: PublishedDiagnostic[] }) => {
      this.diagnostics.set(p.uri, p.diagnostics);
      this.waiters = this.waiters.filter((w) => {
        if (w.uri !== p.uri || !w.test(p.diagnostics)) return true;
        w.resolve(p.diagnostics);
        return false;
      });
    });
    // the server registers file watchers and asks for configuration like a real one
    this.connection.onRequest("client/registerCapability", () => null);
    this.connection.listen();
  }

  static async start(initializationOptions: Record<string, unknown> = {}): Promise<LspClient> {
    const child = spawn(process.execPath, ["bin/graphc-dev.mjs", "lsp", "--stdio"], { cwd: REPO, stdio: ["pipe", "pipe", "inherit"] });
    const client = new LspClient(child);
    await client.connection.sendRequest("initialize", {
      processId: process.pid,
      rootUri: pathToFileURL(REPO).href,
      capabilities: { workspace: { didChangeWatchedFiles: { dynamicRegistration: true } } },
      initializationOptions,
    });
    await client.connection.sendNotification("initialized", {});
    return client;
  }

  request<R>(method: string, params: unknown): Promise<R> {
    return this.connection.sendRequest(method, params) as Promise<R>;
  }

  /** opens a file of the repository (its disk text unless `text` is given); returns its URI */
  async open(relPath: string, text?: string): Promise<string> {
    const uri = uriOf(relPath);
    const content = text ?? readFileSync(`${REPO}${relPath}`, "utf8");
    this.versions.set(uri, 1);
    this.texts.set(uri, content);
    await this.connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "graph", version: 1, text: content } });
    return uri;
  }

  /** replaces the whole text of an open document */
  async change(uri: string, text: string): Promise<void> {
    const version = (this.versions.get(uri) ?? 1) + 1;
    this.versions.set(uri, version);
    this.texts.set(uri, text);
    await this.connection.sendNotification("textDocument/didChange", { textDocument: { uri, version }, contentChanges: [{ text }] });
  }

  text(uri: string): string {
    return this.texts.get(uri) ?? "";
  }

  async close(uri: string): Promise<void> {
    await this.connection.sendNotification("textDocument/didClose", { textDocument: { uri } });
  }

  /** resolves with the next diagnostics published for `uri` that pass `test` (or the current ones, if they do) */
  waitForDiagnostics(uri: string, test: (d: PublishedDiagnostic[]) => boolean = () => true, current = false): Promise<PublishedDiagnostic[]> {
    const now = this.diagnostics.get(uri);
    if (current && now && test(now)) return Promise.resolve(now);
    return new Promise((resolve) => this.waiters.push({ uri, test, resolve }));
  }

  async stop(): Promise<void> {
    await this.request("shutdown", null);
    const exited = new Promise<number | null>((resolve) => this.child.once("exit", resolve));
    await this.connection.sendNotification("exit");
    await exited;
    this.connection.dispose();
  }

  /** exit code of the server process after stop() */
  get exitCode(): number | null {
    return this.child.exitCode;
  }
}

export const uriOf = (relPath: string) => pathToFileURL(`${REPO}${relPath}`).href;

/** the 0-based position of the `nth` occurrence of `needle` in `text` (plus `delta` characters) */
export function positionOf(text: string, needle: string, nth = 0, delta = 0): { line: number; character: number } {
  let at = -1;
  for (let i = 0; i <= nth; i++) {
    at = text.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`\`${needle}\` (#${nth}) not in text`);
  }
  const before = text.slice(0, at + delta);
  const line = before.split("\n").length - 1;
  return { line, character: before.length - before.lastIndexOf("\n") - 1 };
}
