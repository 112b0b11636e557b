/** `subgraph name = Target goto [..] { in {..} out {..} options }` in its three target forms. */
import type { AstNode, Mapping, MapEntry, OptionEntry, SubgraphDecl } from "../../grammar/ast.ts";
import { type Ctx, bodyOf, deeper, entry, fits, noComments } from "./context.ts";
import { graphLines } from "./graph.ts";
import { exprText } from "./inline.ts";
import { optionRow } from "./options.ts";
import { type Entry, type Row, block, layoutList } from "./rows.ts";
import { appendAll } from "../../grammar/append.ts";

function mapEntryText(e: MapEntry): string {
  switch (e.kind) {
    case "SameName":
      return e.name.name;
    case "InMap":
      return `${e.child.name} <- ${exprText(e.expr)}`;
    case "OutMap":
      return `${e.child.name} -> ${e.parent.name}`;
  }
}

function inlineMapping(m: Mapping): string {
  if (m.kind === "MapFn") return `${m.direction} = ${m.fn.name}`;
  return m.entries.length === 0 ? `${m.direction} {}` : `${m.direction} { ${m.entries.map(mapEntryText).join(", ")} }`;
}

/** `in { a, b <- x }` on one line when it fits and holds no comment, else one entry per line. */
function mappingRow(ctx: Ctx, m: Mapping): Row {
  const text = inlineMapping(m);
  if (m.kind === "MapFn" || (noComments(ctx, m) && fits(ctx, text))) {
    return { kind: "aligned", group: "mapping", parts: [m.direction, text.slice(m.direction.length + 1)] };
  }
  const layout = layoutList(
    ctx.src,
    m.entries.map((e) => entry(e, () => ({ kind: "lines", lines: [mapEntryText(e)] }))),
    bodyOf(ctx, m, m.span.start.offset),
  );
  return { kind: "lines", lines: block(m.direction, layout) };
}

function targetHead(s: SubgraphDecl): string {
  const t = s.target;
  switch (t.kind) {
    case "GraphRef":
      return `subgraph ${s.name.name} = ${t.name.name}`;
    case "InlineGraph":
      return `subgraph ${s.name.name} = graph`;
    case "FileRef":
      return `subgraph ${s.name.name} from ${t.path.raw}${t.graph === undefined ? "" : ` as ${t.graph.name}`}`;
    case "Slot":
      return `subgraph ${s.name.name}: ${t.interface.name}${t.default === undefined ? "" : ` = ${t.default.name}`}`;
  }
}

export function subgraphRow(ctx: Ctx, s: SubgraphDecl): Row {
  const head = targetHead(s);
  const parts: (Mapping | OptionEntry)[] = [];
  if (s.in !== undefined) parts.push(s.in);
  if (s.out !== undefined) parts.push(s.out);
  appendAll(parts, s.options);
  parts.sort((a, b) => a.span.start.offset - b.span.start.offset);

  const target = s.target;
  // the body starts after the goto list (its `[ ]` hold no `{`, so the first brace after the target is the body's)
  const headerEnd = s.goto?.at(-1)?.span.end.offset ?? target.span.end.offset;
  const body = bodyOf(ctx, s, headerEnd);
  const hasBody = parts.length > 0 || ctx.src.hasComments(body.start, body.end);
  const goto = s.goto === undefined ? "" : ` goto [${s.goto.map((g) => g.name).join(", ")}]`;
  const headLines = target.kind === "InlineGraph" ? graphLines(ctx, target.graph, head) : [head];
  headLines.push(`${headLines.pop()!}${goto}`);
  if (!hasBody) return { kind: "lines", lines: headLines };

  const last = headLines[headLines.length - 1]!;
  // the short form `subgraph w = W { in { a }, out { b } }` when only mappings are given
  if (s.options.length === 0 && headLines.length === 1 && !ctx.src.hasComments(body.start, body.end)) {
    const inline = `${last} { ${parts.map((p) => inlineMapping(p as Mapping)).join(", ")} }`;
    if (fits(ctx, inline)) return { kind: "lines", lines: [inline] };
  }
  const inner = deeper(ctx);
  const entries: Entry[] = parts.map((p) =>
    entry(p as AstNode, () => (p.kind === "Option" ? optionRow(inner, p, "body") : mappingRow(inner, p))),
  );
  const layout = layoutList(ctx.src, entries, body);
  return { kind: "lines", lines: [...headLines.slice(0, -1), ...block(last, layout)] };
}
