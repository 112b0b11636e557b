/**
 * Graphviz DOT output, the drawing the SVG pictures are rendered from (svg.ts): `__start__` / `__end__` as
 * ovals, solid edges, dashed conditional edges labelled with their condition (a router's case key, an
 * inline condition's source, `send(fn)`, `route(fn)`, `goto`), an expanded subgraph as a `cluster_`
 * subgraph labelled `node = Graph`, and a waiting edge `[a, b] -> c` through a join bar (a -> bar, b -> bar, bar -> c), the way
 * activity diagrams draw a join. Mermaid keeps LangGraph's plainer drawing (mermaid.ts).
 */
import { type DrawEdge, type Drawing, END_ID, START_ID } from "./model.ts";

function q(s: string): string {
  return `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`;
}

function prefixOf(id: string): string {
  return id.split(":").slice(0, -1).join(":");
}

const FONT = q("Helvetica");
/** Send edges get their own colour: they carry a packet of their own, not the state */
const SEND_COLOUR = q("#7c3aed");

export function toDot(d: Drawing): string {
  const lines = [
    `digraph ${q(d.name)} {`,
    "\trankdir=TB;",
    `\tgraph [fontname=${FONT}, fontsize=12];`,
    `\tnode [shape=box, style="rounded,filled", fillcolor="#f2f0ff", fontname=${FONT}, fontsize=12, margin="0.15,0.05"];`,
    `\tedge [fontname=${FONT}, fontsize=10];`,
  ];
  // clusters: nodes of an expanded subgraph (and its join bars) sit in nested `subgraph cluster_…` blocks
  const byPrefix = new Map<string, string[]>();
  const place = (id: string, attrs: string) => {
    const p = prefixOf(id);
    byPrefix.set(p, [...(byPrefix.get(p) ?? []), `${q(id)}${attrs};`]);
  };
  for (const n of d.nodes) {
    place(
      n.id,
      n.id === START_ID
        ? ` [label=${q(n.name)}, shape=oval, fillcolor="white"]`
        : n.id === END_ID
          ? ` [label=${q(n.name)}, shape=oval, fillcolor="#bfb6fc"]`
          : ` [label=${q(n.name)}]`,
    );
  }
  const joins = joinsOf(d.edges);
  for (const [id, j] of joins) {
    const waits = [...j.sources].map((s) => s.split(":").pop()).join(", ");
    place(id, ` [label="", shape=box, style=filled, fillcolor="#444444", color="#444444", width=0.6, height=0.05, fixedsize=true, tooltip=${q(`waits for ${waits}`)}]`);
  }
  const prefixes = new Set<string>();
  for (const p of byPrefix.keys()) {
    const parts = p === "" ? [] : p.split(":");
    for (let i = 1; i <= parts.length; i++) prefixes.add(parts.slice(0, i).join(":"));
  }
  const children = (p: string) => [...prefixes].filter((c) => prefixOf(c) === p);
  const runs = new Map((d.subgraphs ?? []).map((s) => [s.id, s.graph]));
  const render = (p: string, pad: string): void => {
    const inner = p === "" ? pad : `${pad}\t`;
    if (p !== "") {
      // `research = Research`, as the subgraph is declared
      const name = p.split(":").pop()!;
      const label = runs.has(p) ? `${name} = ${runs.get(p)}` : name;
      lines.push(`${pad}subgraph ${q(`cluster_${p}`)} {`, `${inner}label=${q(label)};`);
      lines.push(`${inner}style="rounded,dashed"; color="#9a8cf5";`);
    }
    for (const n of byPrefix.get(p) ?? []) lines.push(inner + n);
    for (const c of children(p)) render(c, inner);
    if (p !== "") lines.push(`${pad}}`);
  };
  render("", "\t");
  for (const e of d.edges) if (e.via?.kind !== "join") lines.push(`\t${edgeText(e)}`);
  for (const [id, j] of joins) {
    for (const s of j.sources) lines.push(`\t${q(s)} -> ${q(id)} [arrowhead=none];`);
    for (const t of j.targets) lines.push(`\t${q(id)} -> ${q(t)};`);
  }
  lines.push("}");
  return `${lines.join("\n")}\n`;
}

/** The join bars of a drawing: for each join id, the sources that wait and the node(s) they lead to. */
function joinsOf(edges: readonly DrawEdge[]): Map<string, { sources: Set<string>; targets: Set<string> }> {
  const out = new Map<string, { sources: Set<string>; targets: Set<string> }>();
  for (const e of edges) {
    if (e.via?.kind !== "join") continue;
    const j = out.get(e.via.id) ?? { sources: new Set<string>(), targets: new Set<string>() };
    j.sources.add(e.source);
    j.targets.add(e.target);
    out.set(e.via.id, j);
  }
  return out;
}

function edgeText(e: DrawEdge): string {
  const attrs: string[] = [];
  if (e.conditional) attrs.push("style=dashed");
  const label = e.label ?? viaLabel(e);
  if (label !== undefined) attrs.push(`label=${q(label)}`);
  if (e.via?.kind === "send") attrs.push(`color=${SEND_COLOUR}`, `fontcolor=${SEND_COLOUR}`);
  return `${q(e.source)} -> ${q(e.target)}${attrs.length > 0 ? ` [${attrs.join(", ")}]` : ""};`;
}

function viaLabel(e: DrawEdge): string | undefined {
  switch (e.via?.kind) {
    case "send":
    case "route":
      return `${e.via.kind}(${e.via.fn})`;
    case "goto":
      return "goto";
    default:
      return undefined;
  }
}
