/**
 * The graphc VS Code extension: `.graph` highlighting (syntaxes/), brackets and comments
 * (language-configuration.json), and everything else from the language server `graphc lsp --stdio` —
 * diagnostics, hover, go to definition, completion, rename, formatting (on save by default:
 * package.json `configurationDefaults`) — plus the "Show graph" picture (preview.ts).
 */
import * as vscode from "vscode";
import { LanguageClient, type LanguageClientOptions, type ServerOptions } from "vscode-languageclient/node";
import { Previews } from "./preview.ts";
import { COMMANDS, GRAPH_SVG, type GraphSvgResult, LANGUAGE_ID } from "./protocol.ts";
import { resolveServer, serverCommand } from "./server-path.ts";

let client: LanguageClient | undefined;
let output: vscode.LogOutputChannel | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel("graphc", { log: true });
  const previews = new Previews(() => {
    const c = client;
    return c === undefined ? undefined : (params) => c.sendRequest<GraphSvgResult>(GRAPH_SVG, params);
  });
  context.subscriptions.push(
    output,
    previews,
    vscode.commands.registerCommand(COMMANDS.showGraph, () => previews.showActive()),
    vscode.commands.registerCommand(COMMANDS.restartServer, restart),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration("graphc.serverPath")) void restart();
    }),
  );
  await start();
}

async function start(): Promise<void> {
  const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
  const setting = vscode.workspace.getConfiguration("graphc").get<string>("serverPath");
  const server = resolveServer(setting, folders);
  if (server === undefined) {
    const choice = await vscode.window.showWarningMessage(
      "graphc: no graphc in this workspace's node_modules, so there are no diagnostics or previews. Install it (npm i -D graphc) or set graphc.serverPath.",
      "Open settings",
    );
    if (choice !== undefined) await vscode.commands.executeCommand("workbench.action.openSettings", "graphc.serverPath");
    return;
  }
  const cmd = serverCommand(server, process.execPath);
  output?.info(`starting ${cmd.command} ${cmd.args.join(" ")} (${server.via === "setting" ? "graphc.serverPath" : "workspace node_modules"})`);
  const serverOptions: ServerOptions = {
    command: cmd.command,
    args: cmd.args,
    options: { env: { ...process.env, ...cmd.env }, ...(cmd.shell === true ? { shell: true } : {}) },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: LANGUAGE_ID },
      { scheme: "untitled", language: LANGUAGE_ID },
    ],
    // node functions live in .ts files: the server re-checks a graph when its TypeScript changes
    synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher("**/*.{graph,ts}") },
    ...(output === undefined ? {} : { outputChannel: output }),
  };
  client = new LanguageClient("graphc", "graphc", serverOptions, clientOptions);
  try {
    await client.start();
  } catch (e) {
    client = undefined;
    void vscode.window.showErrorMessage(`graphc: the language server did not start: ${e instanceof Error ? e.message : String(e)}`);
  }
}

async function restart(): Promise<void> {
  await deactivate();
  await start();
}

export async function deactivate(): Promise<void> {
  const c = client;
  client = undefined;
  if (c !== undefined) await c.stop();
}
