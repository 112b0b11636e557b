/**
 * `graphc lsp --stdio`: the language server. Every feature reads the compiler's own phases — the checked
 * program of workspace.ts and the symbol index built from it (symbols.ts); no name is resolved here that
 * the binder did not resolve. Options (initializationOptions): `typecheck` (default true) runs the TypeScript pass
 * for diagnostics; `debounceMs` (default 150) is the quiet time after an edit before diagnostics run.
 */
import {
  CodeActionKind,
  DidChangeWatchedFilesNotification,
  ProposedFeatures,
  TextDocumentSyncKind,
  TextDocuments,
  createConnection,
  type Connection,
  type InitializeResult,
} from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { VERSION } from "../version.ts";
import { quickFixes } from "./code-actions.ts";
import { complete, TRIGGER_CHARACTERS } from "./completion.ts";
import { DiagnosticsPublisher } from "./diagnostics.ts";
import { documentSymbols } from "./document-symbols.ts";
import { formatDocument } from "./formatting.ts";
import { GRAPH_SVG, graphSvg, type GraphSvgParams } from "./graph-svg.ts";
import { hover } from "./hover.ts";
import { definition, references } from "./navigation.ts";
import { uriToPath } from "./paths.ts";
import { prepareRename, rename } from "./rename.ts";
import { LEGEND, semanticTokens } from "./semantic-tokens.ts";
import { Workspace } from "./workspace.ts";

export interface ServerOptions {
  readonly typecheck?: boolean;
  readonly debounceMs?: number;
}

/** Serves one client over the streams; the connection ends the process when the client exits or hangs up. */
export function startServer(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): Connection {
  const connection = createConnection(ProposedFeatures.all, input, output);
  const documents = new TextDocuments(TextDocument);
  let workspace = new Workspace({ typecheck: true });
  let publisher = new DiagnosticsPublisher(connection, workspace, 150);
  let watchFiles = false;

  connection.onInitialize((params): InitializeResult => {
    const options = (params.initializationOptions ?? {}) as ServerOptions;
    workspace = new Workspace({ typecheck: options.typecheck !== false });
    publisher = new DiagnosticsPublisher(connection, workspace, options.debounceMs ?? 150);
    watchFiles = params.capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
    return {
      serverInfo: { name: "graphc", version: VERSION },
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        hoverProvider: true,
        definitionProvider: true,
        referencesProvider: true,
        renameProvider: { prepareProvider: true },
        completionProvider: { triggerCharacters: TRIGGER_CHARACTERS },
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
        documentFormattingProvider: true,
        documentSymbolProvider: true,
        semanticTokensProvider: { legend: LEGEND, full: true },
      },
    };
  });
  connection.onInitialized(() => {
    // node functions and new `.graph` files change what a graph means: re-check when they change on disk
    if (watchFiles)
      void connection.client.register(DidChangeWatchedFilesNotification.type, {
        watchers: [{ globPattern: "**/*.{graph,ts,mts}" }],
      });
  });
  connection.onDidChangeWatchedFiles(() => {
    workspace.changedOnDisk();
    publisher.schedule();
  });

  documents.onDidOpen((e) => {
    workspace.update(e.document);
    publisher.schedule();
  });
  documents.onDidChangeContent((e) => {
    workspace.update(e.document);
    publisher.schedule();
  });
  documents.onDidClose((e) => {
    workspace.close(e.document.uri);
    publisher.schedule();
  });

  /** the current program and the document's path and cursor offset, or undefined off a `.graph` file */
  const at = (uri: string, position?: { line: number; character: number }) => {
    const path = uriToPath(uri);
    const program = path === undefined ? undefined : workspace.modelFor(path).checked.program;
    if (path === undefined || !program) return undefined;
    const doc = documents.get(uri) ?? TextDocument.create(uri, "graph", 0, workspace.text(path) ?? "");
    return { path, program, doc, offset: position ? doc.offsetAt(position) : 0 };
  };

  connection.onHover((p) => {
    const a = at(p.textDocument.uri, p.position);
    return a ? hover(a.program, a.path, a.offset) : null;
  });
  connection.onDefinition((p) => {
    const a = at(p.textDocument.uri, p.position);
    return a ? definition(a.program, a.path, a.offset) : [];
  });
  connection.onReferences((p) => {
    const a = at(p.textDocument.uri, p.position);
    return a ? references(a.program, a.path, a.offset, p.context.includeDeclaration) : [];
  });
  connection.onPrepareRename((p) => {
    const a = at(p.textDocument.uri, p.position);
    return a ? prepareRename(a.program, a.path, a.offset) : null;
  });
  connection.onRenameRequest((p) => {
    const a = at(p.textDocument.uri, p.position);
    return a ? rename(a.program, a.path, a.offset, p.newName) : null;
  });
  connection.onCompletion((p) => {
    const a = at(p.textDocument.uri, p.position);
    return a ? complete(a.program, a.path, a.doc.getText(), a.offset) : [];
  });
  connection.onCodeAction((p) => {
    const a = at(p.textDocument.uri);
    if (!a) return [];
    const diags = workspace.modelFor(a.path).checked.diagnostics.filter((x) => x.span.file === a.path);
    return quickFixes(diags, a.doc.getText(), p.range);
  });
  connection.onDocumentFormatting((p) => {
    const a = at(p.textDocument.uri);
    return a ? formatDocument(a.doc.getText(), a.path) : [];
  });
  connection.onDocumentSymbol((p) => {
    const a = at(p.textDocument.uri);
    return a ? documentSymbols(a.program, a.path) : [];
  });
  connection.languages.semanticTokens.on((p) => {
    const a = at(p.textDocument.uri);
    return a ? semanticTokens(a.program, a.path) : { data: [] };
  });
  connection.onRequest(GRAPH_SVG, async (p: GraphSvgParams) => {
    const path = uriToPath(p.uri);
    if (path === undefined) throw new Error(`not a file: ${p.uri}`);
    return graphSvg(workspace.modelFor(path).checked, path, p.graph);
  });

  documents.listen(connection);
  connection.listen();
  return connection;
}
