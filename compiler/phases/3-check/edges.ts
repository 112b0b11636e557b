/**
 * Edge statements: endpoints exist, nothing leaves END or enters START, no duplicate edges, an entry point,
 * waiting joins that can fire, router/condition/send branches well-formed.
 */
import { d, rel } from "../../diagnostics/messages.ts";
import { suggest } from "../../diagnostics/did-you-mean.ts";
import type { BoundGraph, NameRef } from "../2-bind/model.ts";
import { nodeCandidates, type CheckContext } from "./context.ts";
import { checkImportedFn } from "./nodes.ts";
import { incoming } from "./flow.ts";

/** a source endpoint: START or a node */
function checkFrom(r: NameRef, g: BoundGraph, ctx: CheckContext): void {
  if (r.name === "START" || g.nodes.has(r.name)) return;
  if (r.name === "END") ctx.diagnostics.push(d.edgeFromEnd(r.span, {}));
  else
    ctx.diagnostics.push(
      d.edgeUnknownNode(r.span, { name: r.name, graph: g.name, suggestions: suggest(r.name, nodeCandidates(g)) }),
    );
}

/** a target endpoint: END or a node; `branch` set for router cases and condition targets */
function checkTo(r: NameRef, g: BoundGraph, ctx: CheckContext, branch?: { branch: true; key?: string }): void {
  if (r.name === "END" || g.nodes.has(r.name)) return;
  if (r.name === "START") {
    ctx.diagnostics.push(d.edgeToStart(r.span, {}));
    return;
  }
  const args = { name: r.name, graph: g.name, suggestions: suggest(r.name, nodeCandidates(g)) };
  ctx.diagnostics.push(
    branch ? d.routeUnknownNode(r.span, { ...args, key: branch.key }) : d.edgeUnknownNode(r.span, args),
  );
}

export function checkEdges(g: BoundGraph, ctx: CheckContext): void {
  const file = ctx.program.files.get(g.file);
  const { edges } = g;
  const seen = new Map<string, NameRef>();
  for (const e of edges.static) {
    checkFrom(e.from, g, ctx);
    checkTo(e.to, g, ctx);
    const key = `${e.from.name}\u0000${e.to.name}`;
    const first = seen.get(key);
    if (first)
      ctx.diagnostics.push(
        d.duplicateEdge(e.to.span, { from: e.from.name, to: e.to.name }, [rel(first.span, "first declared here")]),
      );
    else seen.set(key, e.to);
  }
  for (const j of edges.joins) {
    for (const s of j.sources) checkFrom(s, g, ctx);
    checkTo(j.target, g, ctx);
  }
  for (const b of edges.branches) {
    checkFrom(b.from, g, ctx);
    if (b.kind === "route") {
      checkImportedFn(b.fnName, "a router", file, ctx);
      const keys = new Map<string, NameRef>();
      for (const c of b.cases ?? []) {
        const first = keys.get(c.key);
        if (first)
          ctx.diagnostics.push(d.duplicateRouteKey(c.keySpan, { key: c.key }, [rel(first.span, "first mapped here")]));
        else keys.set(c.key, { name: c.key, span: c.keySpan });
        for (const t of c.targets) checkTo(t, g, ctx, { branch: true, key: c.key });
      }
    } else if (b.kind === "conditions") {
      b.cases.forEach((c, i) => {
        for (const t of c.targets) checkTo(t, g, ctx, { branch: true });
        if (b.defaultIndex !== undefined && i > b.defaultIndex)
          ctx.diagnostics.push(
            d.unreachableCase(c.decl.span, {}, [rel(b.cases[b.defaultIndex]!.decl.span, "default branch here")]),
          );
      });
      if (b.defaultIndex === undefined) ctx.diagnostics.push(d.conditionsNoDefault(b.span, {}));
    } else {
      checkImportedFn(b.fnName, "a send function", file, ctx);
      const others = [...g.nodes.keys()].filter((n) => n !== b.from.name);
      if (others.length === 0) ctx.diagnostics.push(d.sendNoTarget(b.span, { graph: g.name }));
    }
  }

  const hasEntry =
    edges.static.some((e) => e.from.name === "START") || edges.branches.some((b) => b.from.name === "START");
  // (a graph without nodes is still being written: nothing to enter yet)
  if (!hasEntry && g.nodes.size > 0 && !edges.joins.some((j) => j.sources.some((s) => s.name === "START"))) {
    ctx.diagnostics.push(d.noEntry(g.decl.name.span, { graph: g.name }));
  }

  // a waiting join fires once every source has run: a source nothing leads into never runs
  const into = incoming(g);
  for (const j of edges.joins) {
    for (const s of j.sources) {
      if (s.name === "START" || !g.nodes.has(s.name) || (into.get(s.name) ?? 0) > 0) continue;
      ctx.diagnostics.push(
        d.joinSourceNoEdge(s.span, { name: s.name, target: j.target.name }, [
          rel(g.nodes.get(s.name)!.span, "declared here"),
        ]),
      );
    }
  }
}
