/** `graph Name { ... }` and its members: schema blocks, vars, limits, meta, interrupts and nodes. */
import type { FieldDecl, GraphDecl, GraphMember, LimitsBlock, MetaBlock, NodeDecl, SchemaBlock } from "../../grammar/ast.ts";
import { type Ctx, bodyOf, deeper, entry, fits, line } from "./context.ts";
import { edgeRow } from "./edges.ts";
import { fieldList, schemaRefText } from "./inline.ts";
import { fieldRow, isBareField, optionBlockLines, optionRow } from "./options.ts";
import { type Row, block, layoutList } from "./rows.ts";
import { subgraphRow } from "./subgraph.ts";

/** `graph Name {` members `}`; an inline subgraph's body prints with head `graph`. */
export function graphLines(ctx: Ctx, g: GraphDecl, head: string): string[] {
  const inner = deeper(ctx);
  const from = g.inline ? g.span.start.offset : g.name.span.end.offset;
  const layout = layoutList(
    ctx.src,
    g.members.map((m) => entry(m, () => memberRow(inner, m))),
    bodyOf(ctx, g, from),
  );
  return block(head, layout);
}

function memberRow(ctx: Ctx, m: GraphMember): Row {
  switch (m.kind) {
    case "State":
      return fieldBlock(ctx, m, "state", m.fields);
    case "Input":
    case "Output":
      return schemaRow(ctx, m);
    case "Private":
      return fieldBlock(ctx, m, `private ${m.name.name}`, m.fields, m.name.span.end.offset);
    case "Vars":
      return fieldBlock(ctx, m, "vars", m.vars);
    case "Limits":
      return keywordBlock(ctx, m, "limits");
    case "Meta":
      return keywordBlock(ctx, m, "meta");
    case "Interrupt":
      return line(`interrupt ${m.when} ${m.nodes.map((n) => n.name).join(", ")}`);
    case "Node":
      return nodeRow(ctx, m);
    case "Subgraph":
      return subgraphRow(ctx, m);
    case "Edge":
      return edgeRow(ctx, m);
  }
}

/** `limits { … }` / `meta { … }`: on one line (keyword aligned with its neighbours) when it fits, else a block. */
function keywordBlock(ctx: Ctx, m: LimitsBlock | MetaBlock, kw: string): Row {
  const lines = optionBlockLines(ctx, m, kw);
  return lines.length === 1 ? { kind: "aligned", group: "keyword", parts: [kw, lines[0]!.slice(kw.length + 1)] } : { kind: "lines", lines };
}

/** `state`, `private P` and `vars` always list one field per line with aligned columns. */
function fieldBlock(ctx: Ctx, m: GraphMember, head: string, fields: readonly FieldDecl[], from = m.span.start.offset): Row {
  const layout = layoutList(
    ctx.src,
    fields.map((f) => entry(f, () => fieldRow(f))),
    bodyOf(ctx, m, from),
  );
  return { kind: "lines", lines: block(head, layout) };
}

/** `input { a, b }` on one line (keyword aligned with a neighbouring `output`); typed fields get a block. */
function schemaRow(ctx: Ctx, m: SchemaBlock): Row {
  const kw = m.kind === "Input" ? "input" : "output";
  const list = fieldList(m.fields.map((f) => f.name.name));
  // only comments inside the braces force a block: one between the keyword and `{` moves before the line
  const body = bodyOf(ctx, m, m.span.start.offset);
  if (m.fields.every(isBareField) && !ctx.src.hasComments(body.start, body.end) && fits(ctx, `${kw}  ${list}`)) {
    return { kind: "aligned", group: "keyword", parts: [kw, list] };
  }
  return fieldBlock(ctx, m, kw, m.fields);
}

/** `node name(reads) -> writes goto [..] = impl`; neighbouring nodes align their `->` and `=` columns. */
function nodeRow(ctx: Ctx, n: NodeDecl): Row {
  const reads = n.reads === undefined ? "()" : `(${schemaRefText(n.reads)})`;
  const writes = n.writes === undefined ? [] : [`-> ${schemaRefText(n.writes)}`];
  const goto = n.goto === undefined ? [] : [`goto [${n.goto.map((g) => g.name).join(", ")}]`];
  const signature = `node ${n.name.name}${reads}`;
  const effects = [...writes, ...goto].join(" ");
  const impl = `= ${n.impl.name}`;
  const body = bodyOf(ctx, n, n.impl.span.end.offset);
  if (n.options.length === 0 && !ctx.src.hasComments(body.start, body.end)) {
    return { kind: "aligned", group: "node", parts: [signature, effects, impl] };
  }
  const head = [signature, effects].filter((s) => s !== "").join(" ");
  const inner = deeper(ctx);
  const layout = layoutList(
    ctx.src,
    n.options.map((o) => entry(o, () => optionRow(inner, o, "body"))),
    body,
  );
  return { kind: "lines", lines: block(`${head} ${impl}`, layout) };
}
