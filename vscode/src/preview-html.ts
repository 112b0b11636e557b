/**
 * The HTML of the "Show graph" webview: the server's SVG inline, on a light card (Graphviz draws dark
 * lines on white), under a one-line header. No script runs in the page (the Content-Security-Policy
 * allows none), so the SVG, which graphc's own Graphviz call produced, cannot run any either.
 */
export interface PreviewContent {
  /** e.g. `CustomerService — customer_service.graph` */
  readonly title: string;
  readonly svg?: string | undefined;
  /** shown above the picture: why it could not be refreshed (the last good picture stays) */
  readonly error?: string | undefined;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The SVG element alone: the XML prolog and doctype do not belong inside HTML. */
function svgElement(svg: string): string {
  const start = svg.indexOf("<svg");
  return start < 0 ? "" : svg.slice(start);
}

export function previewHtml(content: PreviewContent): string {
  const body = content.svg === undefined ? `<p class="empty">No picture yet.</p>` : `<div class="card">${svgElement(content.svg)}</div>`;
  const error = content.error === undefined ? "" : `<p class="error" role="alert">${escapeHtml(content.error)}</p>`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:;">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escapeHtml(content.title)}</title>
<style>
  body { margin: 0; padding: 12px 16px; background: var(--vscode-editor-background); color: var(--vscode-foreground);
         font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); }
  h1 { font-size: 1.1em; font-weight: 600; margin: 0 0 10px; }
  .error { color: var(--vscode-errorForeground); margin: 0 0 10px; }
  .card { display: inline-block; background: #fff; border-radius: 6px; padding: 8px; }
  .card svg { display: block; max-width: 100%; height: auto; }
  /* Graphviz sized the boxes with Helvetica's metrics: prefer it and its metric twins */
  .card svg text { font-family: Helvetica, Arial, "Liberation Sans", "DejaVu Sans Condensed", sans-serif; }
</style>
</head>
<body>
<h1>${escapeHtml(content.title)}</h1>
${error}${body}
</body>
</html>
`;
}
