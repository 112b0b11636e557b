/**
 * Builds the reference side: the program as a @langchain/langgraph StateGraph, with the same behaviour
 * functions graphc's generated code calls. LangGraph's builder types are driven by static schemas; a graph
 * assembled from data at run time cannot name them, so the builder is used through a loose interface.
 */
import {
  Annotation,
  Command,
  END as LG_END,
  START as LG_START,
  Send,
  StateGraph,
} from "@langchain/langgraph";
import { commandFn, condTargets, nodeFn, pick, routeKey, sendFn, type Ctors } from "./behaviour.ts";
import type { BranchDesc, GraphDesc, Program } from "./model.ts";
import { END, START, rootOf } from "./model.ts";

type Values = Record<string, unknown>;

/** The slice of a compiled LangGraph graph the differential test uses. */
export interface LgRunnable {
  invoke(input: Values, config?: Values): Promise<Values>;
  stream(input: Values, config?: Values): Promise<AsyncIterable<unknown>>;
}

/** The slice of StateGraph's builder used here (its generic signatures cannot be met by data-driven code). */
interface Builder {
  addNode(name: string, action: unknown, options?: Values): Builder;
  addEdge(from: string | string[], to: string): Builder;
  addConditionalEdges(from: string, route: (state: Values) => unknown): Builder;
  compile(): LgRunnable;
}

export const lgCtors: Ctors = {
  send: (node, arg) => new Send(node, arg),
  command: (update, goto) => new Command({ update, goto }),
  end: LG_END,
};

const concat = (a: unknown[], b: unknown[]) => a.concat(b);
const add = (a: number, b: number) => a + b;

function lgName(n: string): string {
  return n === START ? LG_START : n === END ? LG_END : n;
}

function channels(g: GraphDesc, names: readonly string[]): Values {
  const spec: Values = {};
  for (const f of g.fields) {
    if (!names.includes(f.name)) continue;
    spec[f.name] =
      f.reducer === "replace"
        ? Annotation<string>()
        : f.reducer === "append"
          ? Annotation<unknown[]>({ reducer: concat, default: () => [] })
          : Annotation<number>({ reducer: add, default: () => 0 });
  }
  return spec;
}

function branchFn(g: GraphDesc, b: BranchDesc): (state: Values) => unknown {
  switch (b.kind) {
    case "route": {
      const key = routeKey(b);
      return (state) => {
        const k = key(state);
        const c = b.cases.find((x) => x.key === k);
        return (c?.targets ?? []).map(lgName);
      };
    }
    case "cond":
      return (state) => condTargets(b, state).map(lgName);
    case "send":
      return sendFn(g, b, lgCtors);
  }
}

export function buildLangGraph(p: Program, g: GraphDesc = rootOf(p)): LgRunnable {
  const state = Annotation.Root(
    channels(
      g,
      g.fields.map((f) => f.name),
    ) as never,
  );
  const init = g.output ? { state, output: Annotation.Root(channels(g, g.output) as never) } : state;
  let b = new StateGraph(init as never) as unknown as Builder;
  for (const n of g.nodes) {
    if (n.kind === "subgraph") {
      const child = p.graphs[n.graph];
      if (!child) throw new Error(`program ${p.id}: no graph #${n.graph}`);
      b = b.addNode(n.name, buildLangGraph(p, child));
    } else if (n.kind === "command") {
      const fn = commandFn(g, n, lgCtors);
      b = b.addNode(n.name, (s: Values) => fn(pick(s, n.reads)), { ends: n.gotos.map(lgName) });
    } else {
      const fn = nodeFn(g, n, lgCtors);
      b = b.addNode(n.name, (s: Values) => fn(pick(s, n.reads)));
    }
  }
  for (const e of g.edges) {
    if (e.join) {
      for (const t of e.to) b = b.addEdge(e.from.map(lgName), lgName(t));
    } else {
      for (const f of e.from) for (const t of e.to) b = b.addEdge(lgName(f), lgName(t));
    }
  }
  for (const br of g.branches) b = b.addConditionalEdges(br.from, branchFn(g, br));
  return b.compile();
}
