/** Diagrams of a lowered graph: `draw(program, graph, "mermaid" | "dot")`. */
import type { GraphIR, ProgramIR } from "../phases/4-lower/ir.ts";
import { toDot } from "./dot.ts";
import { toMermaid } from "./mermaid.ts";
import { drawingOf } from "./model.ts";

export type DrawFormat = "mermaid" | "dot";

export function draw(program: ProgramIR, graph: GraphIR, format: DrawFormat): string {
  const d = drawingOf(program, graph);
  return format === "mermaid" ? toMermaid(d) : toDot(d);
}

export { drawingOf } from "./model.ts";
export type { Drawing, DrawEdge, DrawNode } from "./model.ts";
