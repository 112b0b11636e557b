/**
 * Mermaid output in the dialect of LangGraph's `drawMermaid` (@langchain/core): `graph TD;`, the start node
 * `__start__([<p>__start__</p>]):::first`, the end node `...:::last`, other nodes `id(label)`, solid `-->`
 * edges, dotted `-.->` conditional edges (labelled `-. &nbsp;label&nbsp; .->`), the edges of an expanded
 * subgraph inside `subgraph name ... end` blocks, and LangGraph's default class styles.
 */
import { type DrawEdge, type Drawing, END_ID, START_ID, plainEdges } from "./model.ts";

/** Mermaid ids may hold only these characters; LangGraph.js replaces the rest with `_`. */
function safeId(id: string): string {
  return id.replace(/[^a-zA-Z0-9_-]/g, "_");
}

const MARKDOWN_CHARS = ["*", "_", "`"];

/** Node names are identifiers, so they need no escaping. A label starting and ending with a markdown character is wrapped in <p> so Mermaid does not format it. */
function nodeLabel(name: string): string {
  return MARKDOWN_CHARS.some((c) => name.startsWith(c) && name.endsWith(c)) ? `<p>${name}</p>` : name;
}

/** Characters that end or confuse a Mermaid label, as numeric entity codes (`#35;`). */
function escapeLabel(text: string): string {
  return text.replace(/[#;[\](){}"<>|]/g, (c) => `#${c.charCodeAt(0)};`);
}

export function toMermaid(d: Drawing): string {
  let out = "%%{init: {'flowchart': {'curve': 'linear'}}}%%\ngraph TD;\n";
  for (const n of d.nodes) {
    const label = nodeLabel(n.name);
    if (n.id === START_ID) out += `\t${safeId(n.id)}([${label}]):::first\n`;
    else if (n.id === END_ID) out += `\t${safeId(n.id)}([${label}]):::last\n`;
    else out += `\t${safeId(n.id)}(${label})\n`;
  }
  out += edgeBlocks(plainEdges(d.edges));
  out += "\tclassDef default fill:#f2f0ff,line-height:1.2;\n";
  out += "\tclassDef first fill-opacity:0;\n";
  out += "\tclassDef last fill:#bfb6fc;\n";
  return out;
}

/** The id prefix both ends share (`a:b` for `a:b:x -> a:b:y`): the subgraph block an edge belongs in. */
function commonPrefix(e: DrawEdge): string {
  const s = e.source.split(":").slice(0, -1);
  const t = e.target.split(":").slice(0, -1);
  const out: string[] = [];
  for (let i = 0; i < s.length && s[i] === t[i]; i++) out.push(s[i]!);
  return out.join(":");
}

function edgeLine(e: DrawEdge): string {
  const arrow =
    e.label === undefined
      ? e.conditional
        ? " -.-> "
        : " --> "
      : e.conditional
        ? ` -. &nbsp;${escapeLabel(e.label)}&nbsp; .-> `
        : ` -- &nbsp;${escapeLabel(e.label)}&nbsp; --> `;
  return `\t${safeId(e.source)}${arrow}${safeId(e.target)};\n`;
}

/** Root edges first, then one block per subgraph with its nested blocks before its own edges. */
function edgeBlocks(edges: readonly DrawEdge[]): string {
  const groups = new Map<string, DrawEdge[]>();
  for (const e of edges) {
    const p = commonPrefix(e);
    groups.set(p, [...(groups.get(p) ?? []), e]);
  }
  // a block is needed for every prefix of a group, even one with no edges of its own
  const prefixes = new Set<string>();
  for (const p of groups.keys()) {
    const parts = p === "" ? [] : p.split(":");
    for (let i = 1; i <= parts.length; i++) prefixes.add(parts.slice(0, i).join(":"));
  }
  const children = (p: string) =>
    [...prefixes].filter((q) => (p === "" ? !q.includes(":") : q.startsWith(`${p}:`) && q.split(":").length === p.split(":").length + 1));
  const render = (p: string): string => {
    let s = "";
    if (p !== "") s += `\tsubgraph ${p.split(":").pop()}\n`;
    if (p !== "") for (const c of children(p)) s += render(c);
    for (const e of groups.get(p) ?? []) s += edgeLine(e);
    if (p !== "") s += "\tend\n";
    return s;
  };
  let out = render("");
  for (const c of children("")) out += render(c);
  return out;
}
