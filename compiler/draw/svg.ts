/**
 * SVG pictures: a DOT drawing (dot.ts) laid out by Graphviz compiled to WebAssembly (@viz-js/viz), so a
 * picture needs no network, no native module and no `dot` binary (LangGraph's `drawMermaidPng` calls a
 * remote service). The WebAssembly module is loaded once per process, on the first picture.
 */
import type { Viz } from "@viz-js/viz";

let viz: Promise<Viz> | undefined;

export async function renderSvg(dot: string): Promise<string> {
  viz ??= import("@viz-js/viz").then((m) => m.instance());
  const result = (await viz).render(dot, { format: "svg" });
  if (result.status !== "success") {
    // graphc writes the DOT itself, so a failure here is a bug in dot.ts, not in the user's graph
    throw new Error(`Graphviz could not lay out the drawing: ${result.errors.map((e) => e.message).join("; ")}`);
  }
  return result.output;
}
