/** Diagrams of a lowered graph: `draw(program, graph, "mermaid" | "dot")`, and `drawSvg` for a picture. */
import type { GraphIR, ProgramIR } from "../phases/4-lower/ir.ts";
import { toDot } from "./dot.ts";
import { toMermaid } from "./mermaid.ts";
import { drawingOf } from "./model.ts";
import { renderSvg } from "./svg.ts";

export type DrawFormat = "mermaid" | "dot";

export function draw(program: ProgramIR, graph: GraphIR, format: DrawFormat): string {
  const d = drawingOf(program, graph);
  return format === "mermaid" ? toMermaid(d) : toDot(d);
}

/** The DOT drawing laid out as an SVG picture (svg.ts), offline. */
export function drawSvg(program: ProgramIR, graph: GraphIR): Promise<string> {
  return renderSvg(toDot(drawingOf(program, graph)));
}

export { drawingOf, plainEdges } from "./model.ts";
export { renderSvg } from "./svg.ts";
export type { Drawing, DrawEdge, DrawNode, EdgeVia } from "./model.ts";
