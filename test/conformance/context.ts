/**
 * The built conformance programs, shared by the case modules. `conformance.test.ts` builds them once in
 * `beforeAll`; case modules look graphs up only inside their tests.
 */
import { compileGraph, LeanGraph } from "@graphc/runtime";
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

let fullLoop = false;
const fullGraphs = new Map<Graph, Graph>();

/**
 * true: `graph()` hands out a lean-eligible graph (generated as a `LeanGraph`, whose invoke runs the lean
 * loop) as the full runtime's `CompiledGraph` of the same spec, so the same cases check both loops.
 */
export function useFullLoop(on: boolean): void {
  fullLoop = on;
  // the cases expect what a first run finds: node caches (policies) start empty again
  for (const g of programs().graphs()) g.clearCache();
}

/** graph `name` of `graphs/<file>.graph` */
export const graph = (file: string, name: string): Graph => {
  const g = programs().graph(file, name);
  if (!fullLoop || !(g instanceof LeanGraph)) return g;
  let full = fullGraphs.get(g);
  if (full === undefined) fullGraphs.set(g, (full = compileGraph(g.spec)));
  return full;
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
