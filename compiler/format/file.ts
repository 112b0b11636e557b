/** Top-level items: imports, type aliases, graphs and interfaces. */
import type { GraphFile, ImportDecl, TopItem, TypeAlias } from "../../grammar/ast.ts";
import { type Ctx, bodyOf, entry, fits, noComments } from "./context.ts";
import { graphLines } from "./graph.ts";
import { objectMemberText, typeText } from "./inline.ts";
import { type Row, block, layoutList } from "./rows.ts";

export function fileLines(ctx: Ctx, f: GraphFile): string[] {
  const layout = layoutList(
    ctx.src,
    f.items.map((it) => entry(it, () => itemRow(ctx, it))),
    { start: 0, end: ctx.src.text.length, openLine: 0 },
    // a graph (or an interface) is always set apart from its neighbours by a blank line
    (prev, next) => isGraphAt(f, prev.start) || isGraphAt(f, next.start),
  );
  return layout.lines;
}

function isGraphAt(f: GraphFile, offset: number): boolean {
  return f.items.some((it) => (it.kind === "Graph" || it.kind === "Interface") && it.span.start.offset === offset);
}

function itemRow(ctx: Ctx, it: TopItem): Row {
  switch (it.kind) {
    case "Import":
      return { kind: "lines", lines: [importText(it)] };
    case "TypeAlias":
      return { kind: "lines", lines: typeAliasLines(ctx, it) };
    case "Graph": {
      const impl = it.implements === undefined ? "" : ` implements ${it.implements.map((i) => i.name).join(", ")}`;
      return { kind: "lines", lines: graphLines(ctx, it, `graph ${it.name.name}${impl}`) };
    }
    case "Interface":
      // an interface body is a graph body of schema blocks only, laid out the same way
      return { kind: "lines", lines: graphLines(ctx, { kind: "Graph", name: it.name, inline: false, members: it.members, span: it.span }, `interface ${it.name.name}`) };
  }
}

function importText(i: ImportDecl): string {
  const names = i.names.map((n) => (n.alias === undefined ? n.name.name : `${n.name.name} as ${n.alias.name}`));
  const list = names.length === 0 ? "{}" : `{ ${names.join(", ")} }`;
  return `import ${i.typeOnly ? "type " : ""}${list} from ${i.from.raw}`;
}

/** An object type alias takes one member per line when it is too long for one line or holds comments. */
function typeAliasLines(ctx: Ctx, t: TypeAlias): string[] {
  const head = `type ${t.name.name} =`;
  const inline = `${head} ${typeText(t.type)}`;
  const ty = t.type;
  if (ty.kind !== "ObjectType" || ty.members.length === 0 || (noComments(ctx, ty) && fits(ctx, inline))) return [inline];
  const layout = layoutList(
    ctx.src,
    ty.members.map((m) => entry(m, () => ({ kind: "lines", lines: [objectMemberText(m)] }))),
    bodyOf(ctx, ty, ty.span.start.offset),
  );
  return block(head, layout);
}
