/**
 * The built conformance programs, shared by the case modules. `conformance.test.ts` builds them once in
 * `beforeAll`; case modules look graphs up only inside their tests.
 */
import { compileGraph, LeanGraph, StaticGraph, type GraphSpec } from "@graphc/runtime";
import { buildAll, type Built, type Graph } from "./build.ts";

let built: Built | undefined;

export async function buildPrograms(): Promise<Built> {
  built ??= await buildAll();
  return built;
}

function programs(): Built {
  if (!built) throw new Error("conformance programs are not built yet (buildPrograms() runs in beforeAll)");
  return built;
}

/** which loop runs the graphs the generated code makes small (`LeanGraph`, `StaticGraph`) */
export type LoopMode = "generated" | "full" | "static";
let mode: LoopMode = "generated";
const swapped = new Map<Graph, Graph>();

/**
 * Whether the static loop can run `spec` (runtime/static/graph.ts): a lean spec (the graph is a `LeanGraph`)
 * without routers whose nodes declare no goto targets. Generated code makes such a graph a `StaticGraph`
 * only when the TypeScript pass proved its node functions Command-free, which this suite's build skips
 * (build.ts), so the cases are run on the static loop here.
 */
export function staticShape(spec: GraphSpec): boolean {
  return spec.start.branches.length === 0 && spec.nodes.every((n) => n.branches.length === 0 && n.ends === undefined);
}

/**
 * "full": `graph()` hands out a lean-eligible graph (generated as a `LeanGraph` or a `StaticGraph`, whose invoke
 * runs the lean or the static loop) as the full runtime's `CompiledGraph` of the same spec; "static": a
 * `LeanGraph` of static shape as the `StaticGraph` of its spec. So the same cases check every loop.
 */
export function useLoop(m: LoopMode): void {
  mode = m;
  swapped.clear();
  // the cases expect what a first run finds: node caches (policies) start empty again
  for (const g of programs().graphs()) g.clearCache();
}

/** graph `name` of `graphs/<file>.graph` */
export const graph = (file: string, name: string): Graph => {
  const g = programs().graph(file, name);
  const swap =
    mode === "full" ? g instanceof StaticGraph : mode === "static" && g instanceof LeanGraph && staticShape(g.spec);
  if (!swap) return g;
  let other = swapped.get(g);
  if (other === undefined) {
    // a StaticGraph is typed as the CompiledGraph it stands for, as the generated graphs are (build.ts)
    other = mode === "full" ? compileGraph(g.spec) : (new StaticGraph(g.spec) as unknown as Graph);
    swapped.set(g, other);
  }
  return other;
};
export const warnings = () => programs().diagnostics;
/** the generated module of `graphs/<name>.graph` */
export const module = (name: string): Record<string, unknown> => programs().module(name);

/** every chunk of a stream */
export async function collect(iter: AsyncIterable<unknown>): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const c of iter) out.push(c);
  return out;
}
