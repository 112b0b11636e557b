/**
 * "Show graph": a webview beside the editor with the picture of one graph of the document, asked from the
 * language server (`graphc/graphSvg`) and redrawn as the document changes. When a redraw fails (the file
 * has errors mid-edit), the last good picture stays, under the server's message.
 */
import * as vscode from "vscode";
import { graphNames } from "./graph-names.ts";
import { previewHtml } from "./preview-html.ts";
import { type GraphSvgParams, type GraphSvgResult, LANGUAGE_ID } from "./protocol.ts";

/** Sends `graphc/graphSvg` to the running server; undefined while no server runs. */
export type SvgRequest = ((params: GraphSvgParams) => Promise<GraphSvgResult>) | undefined;

/** Typing pauses this long before the picture is redrawn: one server round trip per pause, not per key. */
const REDRAW_DELAY_MS = 300;

interface Preview {
  readonly panel: vscode.WebviewPanel;
  readonly document: vscode.TextDocument;
  readonly graph: string | undefined;
  svg?: string;
  timer?: ReturnType<typeof setTimeout>;
}

export class Previews implements vscode.Disposable {
  private readonly open = new Map<string, Preview>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly request: () => SvgRequest) {
    this.subscriptions = [
      vscode.workspace.onDidChangeTextDocument((e) => this.scheduleRedraw(e.document)),
      vscode.workspace.onDidSaveTextDocument((d) => this.scheduleRedraw(d)),
    ];
  }

  async showActive(): Promise<void> {
    const document = vscode.window.activeTextEditor?.document;
    if (document === undefined || document.languageId !== LANGUAGE_ID) {
      void vscode.window.showInformationMessage("graphc: open a .graph file to show its graph.");
      return;
    }
    const names = graphNames(document.getText());
    const graph = names.length > 1 ? await vscode.window.showQuickPick(names, { placeHolder: "Which graph?" }) : names[0];
    if (names.length > 1 && graph === undefined) return;
    const key = `${document.uri.toString()}#${graph ?? ""}`;
    const existing = this.open.get(key);
    if (existing !== undefined) {
      existing.panel.reveal(vscode.ViewColumn.Beside, true);
      return;
    }
    const title = `${graph ?? "Graph"} — ${document.uri.path.split("/").pop() ?? ""}`;
    const panel = vscode.window.createWebviewPanel("graphc.preview", title, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, {
      enableScripts: false,
    });
    const preview: Preview = { panel, document, graph };
    this.open.set(key, preview);
    panel.onDidDispose(() => {
      clearTimeout(preview.timer);
      this.open.delete(key);
    });
    await this.redraw(preview);
  }

  private scheduleRedraw(document: vscode.TextDocument): void {
    for (const p of this.open.values()) {
      if (p.document.uri.toString() !== document.uri.toString()) continue;
      clearTimeout(p.timer);
      p.timer = setTimeout(() => void this.redraw(p), REDRAW_DELAY_MS);
    }
  }

  private async redraw(p: Preview): Promise<void> {
    const title = p.panel.title;
    const request = this.request();
    let error: string | undefined;
    if (request === undefined) {
      error = "The graphc language server is not running (see the graphc output channel).";
    } else {
      const params: GraphSvgParams = p.graph === undefined ? { uri: p.document.uri.toString() } : { uri: p.document.uri.toString(), graph: p.graph };
      try {
        p.svg = (await request(params)).svg;
      } catch (e) {
        error = e instanceof Error ? e.message : String(e);
      }
    }
    p.panel.webview.html = previewHtml({ title, svg: p.svg, error });
  }

  dispose(): void {
    for (const p of this.open.values()) p.panel.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}
