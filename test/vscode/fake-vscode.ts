/**
 * A stand-in for the editor's `vscode` module, for loading the extension's bundled code in Node: the
 * members the extension uses are recorded or scripted; every other member is a callable, constructible
 * no-op, so the language client library can load.
 */
import Module, { createRequire } from "node:module";

export interface FakeDocument {
  readonly uri: { toString(): string; readonly path: string; readonly fsPath: string };
  readonly languageId: string;
  getText(): string;
}

export function fakeDocument(path: string, text: string, languageId = "graph"): FakeDocument {
  return { uri: { toString: () => `file://${path}`, path, fsPath: path }, languageId, getText: () => text };
}

export interface FakePanel {
  title: string;
  readonly webview: { html: string };
  reveals: number;
  dispose(): void;
}

export interface FakeVscodeOptions {
  readonly workspace: string;
  activeDocument?: FakeDocument | undefined;
  /** what the quick pick answers */
  pick?: string | undefined;
}

export function fakeVscode(options: FakeVscodeOptions) {
  const seen = {
    commands: new Map<string, (...a: unknown[]) => unknown>(),
    warnings: [] as string[],
    infos: [] as string[],
    picks: [] as string[][],
    panels: [] as FakePanel[],
  };
  const changeListeners: ((e: { document: FakeDocument }) => void)[] = [];
  const disposable = { dispose() {} };
  const stub = (): unknown =>
    new Proxy(function () {}, {
      get: (_t, k) => (k === "then" ? undefined : stub()),
      apply: () => stub(),
      construct: () => stub() as object,
    });
  const api: Record<string, unknown> = {
    ViewColumn: { Beside: -2 },
    window: {
      createOutputChannel: () => ({ info() {}, appendLine() {}, dispose() {} }),
      showWarningMessage: async (m: string) => void seen.warnings.push(m),
      showInformationMessage: async (m: string) => void seen.infos.push(m),
      showQuickPick: async (items: string[]) => (seen.picks.push(items), options.pick),
      get activeTextEditor() {
        return options.activeDocument === undefined ? undefined : { document: options.activeDocument };
      },
      createWebviewPanel: (_type: string, title: string) => {
        const onDispose: (() => void)[] = [];
        const panel: FakePanel & { reveal(): void; onDidDispose(f: () => void): void } = {
          title,
          webview: { html: "" },
          reveals: 0,
          reveal() {
            panel.reveals++;
          },
          onDidDispose: (f) => void onDispose.push(f),
          dispose: () => onDispose.forEach((f) => f()),
        };
        seen.panels.push(panel);
        return panel;
      },
    },
    commands: {
      registerCommand: (id: string, fn: (...a: unknown[]) => unknown) => (seen.commands.set(id, fn), disposable),
      executeCommand: async () => undefined,
    },
    workspace: {
      workspaceFolders: [{ uri: { fsPath: options.workspace } }],
      getConfiguration: () => ({ get: () => undefined }),
      onDidChangeConfiguration: () => disposable,
      onDidChangeTextDocument: (f: (e: { document: FakeDocument }) => void) => (changeListeners.push(f), disposable),
      onDidSaveTextDocument: () => disposable,
    },
  };
  const module = new Proxy(api, { get: (t, k) => (typeof k === "string" && k in t ? t[k] : stub()) });
  /** what VS Code does when the user edits `document` */
  const edit = (document: FakeDocument) => changeListeners.forEach((f) => f({ document }));
  return { module, seen, options, edit };
}

type Loader = (request: string, ...rest: unknown[]) => unknown;

/**
 * `require(file)` afresh (not from the require cache, so each test gets its own `vscode`), with
 * `require("vscode")` answered by `vscode` while the file loads.
 */
export function requireWithVscode<T>(file: string, vscode: object): T {
  const m = Module as unknown as { _load: Loader };
  const load = m._load;
  m._load = function (request: string, ...rest: unknown[]) {
    return request === "vscode" ? vscode : load.call(this, request, ...rest);
  };
  try {
    const req = createRequire(import.meta.url);
    delete req.cache[req.resolve(file)];
    return req(file) as T;
  } finally {
    m._load = load;
  }
}
