/**
 * The built conformance programs, shared by the case modules. `conformance.test.ts` builds them once in
 * `beforeAll`; case modules look graphs up only inside their tests.
 */
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

/** graph `name` of `graphs/<file>.graph` */
export const graph = (file: string, name: string): Graph => programs().graph(file, name);
export const warnings = () => programs().diagnostics;

/** every chunk of a stream */
export async function collect(iter: AsyncIterable<unknown>): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const c of iter) out.push(c);
  return out;
}
