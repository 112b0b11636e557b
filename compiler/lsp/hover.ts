/**
 * Hover: what the name under the cursor is, from the bound model. Field: type, reducer, default and which
 * nodes read / write it; node: reads, writes, goto and its function's signature; subgraph: the child graph
 * and the mapping both ways; graph: its input and output; plus types, vars and imported functions.
 */
import type { Hover } from "vscode-languageserver";
import type { Span } from "../../grammar/span.ts";
import type { BoundField, BoundGraph, BoundNode, Program, SubgraphNode } from "../phases/2-bind/model.ts";
import { spanToRange } from "./paths.ts";
import { symbolIndex, type Sym } from "./symbols.ts";
import { findExport, resolveModule } from "./ts-source.ts";

export function hover(program: Program, path: string, offset: number): Hover | null {
  const occ = symbolIndex(program).at(path, offset);
  const first = occ[0];
  if (!first) return null;
  const text = (span: Span | undefined) => (span ? program.files.get(span.file)?.text.slice(span.start.offset, span.end.offset) : undefined);
  const value = occ.map((o) => describe(o.sym, text)).join("\n\n---\n\n");
  return { contents: { kind: "markdown", value }, range: spanToRange(first.span) };
}

type TextOf = (span: Span | undefined) => string | undefined;
const code = (s: string) => `\`${s}\``;
const names = (list: readonly string[]) => (list.length === 0 ? "—" : list.map(code).join(", "));
const ts = (s: string) => `\`\`\`ts\n${s}\n\`\`\``;
const graph = (s: string) => `\`\`\`graph\n${s}\n\`\`\``;

function describe(sym: Sym, text: TextOf): string {
  switch (sym.kind) {
    case "field":
      return fieldHover(sym.graph, sym.field, text);
    case "node":
      return sym.node.kind === "node" ? nodeHover(sym.graph, sym.node, text) : subgraphHover(sym.node, text);
    case "graph":
      return graphHover(sym.graph);
    case "type":
      return graph(`type ${sym.name} = ${text(sym.alias.decl.type.span) ?? ""}`);
    case "var":
      return [
        graph(`${sym.name}: ${text(sym.v.decl.type?.span) ?? "unknown"}${sym.v.default ? ` = ${text(sym.v.default.span)}` : ""}`),
        `var of graph ${code(sym.graph.name)}`,
      ].join("\n\n");
    case "ts":
      return tsHover(sym.imp.exported, sym.imp.module, sym.file, sym.imp.kind === "type");
    case "file":
      return `file ${code(sym.path)}`;
  }
}

function fieldHover(g: BoundGraph, f: BoundField, text: TextOf): string {
  const type = text(f.typeExpr?.span) ?? "unknown";
  const reducer =
    f.reducer.kind === "replace"
      ? "none (last value wins; two writes in one step are an error)"
      : f.reducer.kind === "builtin"
        ? code(f.reducer.name)
        : `${code(f.reducer.fn.local)} (imported from ${code(f.reducer.fn.module)})`;
  const nodes = [...g.nodes.values()];
  const readers = nodes.filter((n) => n.reads.some((r) => r.name === f.name)).map((n) => n.name);
  const writers = nodes.filter((n) => n.writes.some((r) => r.name === f.name)).map((n) => n.name);
  const where = f.origin.kind === "private" ? `private ${f.origin.schema}` : f.origin.kind;
  return [
    graph(`${f.name}: ${type}`),
    `field of graph ${code(g.name)} (${where}${f.ephemeral ? ", ephemeral" : ""})`,
    `- reducer: ${reducer}`,
    `- default: ${f.default ? code(text(f.default.span) ?? "") : "none"}`,
    `- read by: ${names(readers)}`,
    `- written by: ${names(writers)}`,
  ].join("\n");
}

function nodeHover(g: BoundGraph, n: BoundNode & { kind: "node" }, text: TextOf): string {
  const head = text(n.decl.span)?.split("\n")[0] ?? `node ${n.name}`;
  const lines = [
    graph(head.replace(/\s*\{\s*$/, "")),
    `node of graph ${code(g.name)}`,
    `- reads: ${names(n.reads.map((r) => r.name))}`,
    `- writes: ${names(n.writes.map((r) => r.name))}`,
  ];
  if (n.goto) lines.push(`- goto: ${names(n.goto.map((r) => r.name))}`);
  if (n.impl) lines.push("", tsHover(n.impl.exported, n.impl.module, g.file, false));
  return lines.join("\n");
}

function subgraphHover(n: SubgraphNode, text: TextOf): string {
  const child = n.target;
  const lines = [
    graph(`subgraph ${n.name} = ${child?.name ?? text(n.decl.target.span) ?? "?"}`),
    child ? `runs graph ${code(child.name)} (${code(child.file)})` : "the child graph does not resolve",
  ];
  const mapping = (m: SubgraphNode["in"] | SubgraphNode["out"], dir: "in" | "out") => {
    if (m.kind === "fn") return `- ${dir}: the transform ${code(m.fnName.name)}`;
    const items = m.items.map((i) =>
      i.sameName ? i.child.name : "expr" in i ? `${i.child.name} <- ${text(i.expr.span) ?? ""}` : `${i.child.name} -> ${i.parent.name}`,
    );
    return `- ${dir}${m.kind === "shared" ? " (same-name fields)" : ""}: ${names(items)}`;
  };
  lines.push(mapping(n.in, "in"), mapping(n.out, "out"));
  return lines.join("\n");
}

function graphHover(g: BoundGraph): string {
  return [
    graph(`graph ${g.name}`),
    `in ${code(g.file)}${g.inlineIn ? ` (inline, node ${code(g.inlineIn.node)} of ${code(g.inlineIn.graph.name)})` : ""}`,
    `- input: ${names(g.input)}`,
    `- output: ${names(g.output)}`,
    `- nodes: ${names([...g.nodes.keys()])}`,
  ].join("\n");
}

function tsHover(exported: string, module: string, graphFile: string, type: boolean): string {
  const path = resolveModule(module, graphFile);
  const found = path ? findExport(path, exported) : undefined;
  const where = `${type ? "type" : "function"} ${code(exported)} from ${code(module)}`;
  return found?.signature ? [ts(found.signature), where].join("\n\n") : where;
}
