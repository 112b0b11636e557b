/**
 * The custom request `graphc/graphSvg` `{ uri, graph? }` -> `{ svg }`: the graph drawn from the lowered IR
 * of the document's current text, drawn as `graphc graph --svg` draws it (compiler/draw).
 * Without `graph`, the file's only (or first) top-level graph. A file with errors, or no such graph, is
 * an error response (RequestFailed) whose message says why: the preview keeps its last picture.
 */
import { ResponseError } from "vscode-languageserver";
import { hasErrors, type CheckResult } from "../check.ts";
import { drawSvg } from "../draw/index.ts";
import { lower } from "../phases/4-lower/index.ts";

export const GRAPH_SVG = "graphc/graphSvg";

export interface GraphSvgParams {
  readonly uri: string;
  readonly graph?: string;
}

export interface GraphSvgResult {
  readonly svg: string;
}

const REQUEST_FAILED = -32803;

export async function graphSvg(checked: CheckResult, path: string, name: string | undefined): Promise<GraphSvgResult> {
  const errors = checked.diagnostics.filter((x) => x.severity === "error" && x.span.file === path);
  if (!checked.program || hasErrors(checked.diagnostics))
    throw new ResponseError(REQUEST_FAILED, `cannot draw: ${errors[0]?.message ?? "the program has errors"}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ""}`);
  const lowered = lower(checked.program);
  if (hasErrors(lowered.diagnostics)) throw new ResponseError(REQUEST_FAILED, `cannot draw: ${lowered.diagnostics[0]!.message}`);
  const graphs = (lowered.value.files.find((f) => f.file === path)?.graphs ?? []).filter((g) => !g.inline);
  const graph = name === undefined ? graphs[0] : graphs.find((g) => g.name === name);
  if (!graph)
    throw new ResponseError(
      REQUEST_FAILED,
      name === undefined ? "the file declares no graph" : `no graph \`${name}\` here (graphs: ${graphs.map((g) => g.name).join(", ") || "none"})`,
    );
  // the same picture as `graphc graph --svg`
  return { svg: await drawSvg(lowered.value, graph) };
}
