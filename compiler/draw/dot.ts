/**
 * Graphviz DOT output, the same drawing as the Mermaid one: `__start__` / `__end__` as ovals, solid edges,
 * dashed conditional edges with their labels, and an expanded subgraph as a `cluster_` subgraph.
 */
import { type DrawEdge, type Drawing, END_ID, START_ID } from "./model.ts";

function q(s: string): string {
  return `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`;
}

function prefixOf(id: string): string {
  return id.split(":").slice(0, -1).join(":");
}

export function toDot(d: Drawing): string {
  const lines = [`digraph ${q(d.name)} {`, "\trankdir=TB;", '\tnode [shape=box, style="rounded,filled", fillcolor="#f2f0ff"];'];
  // clusters: nodes of an expanded subgraph sit in nested `subgraph cluster_…` blocks
  const byPrefix = new Map<string, string[]>();
  for (const n of d.nodes) {
    const attrs =
      n.id === START_ID
        ? ` [label=${q(n.name)}, shape=oval, fillcolor="white"]`
        : n.id === END_ID
          ? ` [label=${q(n.name)}, shape=oval, fillcolor="#bfb6fc"]`
          : ` [label=${q(n.name)}]`;
    const p = prefixOf(n.id);
    byPrefix.set(p, [...(byPrefix.get(p) ?? []), `${q(n.id)}${attrs};`]);
  }
  const prefixes = new Set<string>();
  for (const p of byPrefix.keys()) {
    const parts = p === "" ? [] : p.split(":");
    for (let i = 1; i <= parts.length; i++) prefixes.add(parts.slice(0, i).join(":"));
  }
  const children = (p: string) => [...prefixes].filter((c) => prefixOf(c) === p);
  const render = (p: string, pad: string): void => {
    const inner = p === "" ? pad : `${pad}\t`;
    if (p !== "") lines.push(`${pad}subgraph ${q(`cluster_${p}`)} {`, `${inner}label=${q(p.split(":").pop()!)};`);
    for (const n of byPrefix.get(p) ?? []) lines.push(inner + n);
    for (const c of children(p)) render(c, inner);
    if (p !== "") lines.push(`${pad}}`);
  };
  render("", "\t");
  for (const e of d.edges) lines.push(`\t${edgeText(e)}`);
  lines.push("}");
  return `${lines.join("\n")}\n`;
}

function edgeText(e: DrawEdge): string {
  const attrs: string[] = [];
  if (e.conditional) attrs.push("style=dashed");
  if (e.label !== undefined) attrs.push(`label=${q(e.label)}`);
  return `${q(e.source)} -> ${q(e.target)}${attrs.length > 0 ? ` [${attrs.join(", ")}]` : ""};`;
}
