/**
 * SVG from DOT, offline: Graphviz compiled to WebAssembly (@viz-js/viz), loaded once per process on first
 * use (it is a few megabytes: `graphc check` and `fmt` never pay for it).
 */
let viz: Promise<{ renderString(dot: string, options: { format: string }): string }> | undefined;

export async function renderSvg(dot: string): Promise<string> {
  viz ??= import("@viz-js/viz").then((m) => m.instance());
  return (await viz).renderString(dot, { format: "svg" });
}
