/** Edge statements: chains, fan-out lists, routers, inline condition blocks and `send(fn)`. */
import type { ConditionBranch, EdgeStmt, RouteBranch, RouteCase } from "../../grammar/ast.ts";
import { type Ctx, bodyOf, entry, fits, noComments } from "./context.ts";
import { endpointsText, exprText, keyText } from "./inline.ts";
import { type Row, block, layoutList } from "./rows.ts";

export function edgeRow(ctx: Ctx, e: EdgeStmt): Row {
  const chain = e.steps.map(endpointsText).join(" -> ");
  const b = e.branch;
  if (b === undefined) return { kind: "lines", lines: [chain] };
  switch (b.kind) {
    case "Send":
      return { kind: "lines", lines: [`${chain} -> send(${b.fn.name})`] };
    case "Route":
      return { kind: "lines", lines: routeLines(ctx, `${chain} -> route(${b.fn.name})`, b) };
    case "Conditions":
      return { kind: "lines", lines: conditionLines(ctx, `${chain} ->`, b) };
  }
}

function caseKey(c: RouteCase): string {
  return `${keyText(c.key)}:`;
}

/** Router cases stay on one line when they fit and hold no comment: `route(f) { retry: a, done: END }`. */
function routeLines(ctx: Ctx, head: string, b: RouteBranch): string[] {
  if (b.cases === undefined) return [head];
  const inline = `${head} { ${b.cases.map((c) => `${caseKey(c)} ${endpointsText(c.targets)}`).join(", ")} }`;
  if (b.cases.length === 0) return [`${head} {}`];
  if (noComments(ctx, b) && fits(ctx, inline)) return [inline];
  const layout = layoutList(
    ctx.src,
    b.cases.map((c) =>
      entry(c, () => ({ kind: "aligned", group: "case", parts: [caseKey(c), endpointsText(c.targets)] })),
    ),
    bodyOf(ctx, b, b.fn.span.end.offset),
  );
  return block(head, layout);
}

/** Inline conditions always take one case per line, `=>` aligned; `_` is the default case. */
function conditionLines(ctx: Ctx, head: string, b: ConditionBranch): string[] {
  const layout = layoutList(
    ctx.src,
    b.cases.map((c) =>
      entry(c, () => ({
        kind: "aligned",
        group: "condition",
        parts: [c.cond === undefined ? "_" : exprText(c.cond), `=> ${endpointsText(c.targets)}`],
      })),
    ),
    bodyOf(ctx, b, b.span.start.offset),
  );
  return block(head, layout);
}
