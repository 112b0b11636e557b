/**
 * What the tests that compare a lean graph's small loop with the full loop share (small-stream, small-runs):
 * importing it installs streaming, Command input (both loops') and the full graph to compare with, and
 * `countGraph` gives the builders of a static count graph (count-spec.ts, with the `applyOne` generated
 * code always has).
 */
import type { GraphSpec, NodeSpec } from "../../runtime/core.ts";
import { installCommandInput, installFullGraph, installStreaming } from "../../runtime/install.ts";
import { countApplyOne, countNode, countSpec } from "./count-spec.ts";

installStreaming();
installCommandInput();
// only for the comparison: the default build's generated code installs no full graph
installFullGraph();

export function countGraph(graph: string): {
  node: (name: string, edges: string[], extra?: Partial<NodeSpec>) => NodeSpec;
  spec: (nodes: NodeSpec[], extra?: Partial<GraphSpec>) => GraphSpec;
} {
  return {
    node: (name, edges, extra = {}) => countNode(graph, name, edges, extra),
    spec: (nodes, extra = {}) => countSpec(graph, nodes, { applyOne: countApplyOne, ...extra }),
  };
}
