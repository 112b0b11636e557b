/**
 * The one request the extension adds to LSP, answered by `graphc lsp` (compiler/lsp/): the picture of a
 * graph of an open document, drawn by the same renderer as `graphc graph --svg`. Without `graph`, the
 * server draws the file's only graph (and fails when it declares several).
 */
export const GRAPH_SVG = "graphc/graphSvg";

export interface GraphSvgParams {
  readonly uri: string;
  readonly graph?: string;
}

export interface GraphSvgResult {
  readonly svg: string;
}

/** The language id of `.graph` files (package.json `contributes.languages`). */
export const LANGUAGE_ID = "graph";

export const COMMANDS = { showGraph: "graphc.showGraph", restartServer: "graphc.restartServer" } as const;
