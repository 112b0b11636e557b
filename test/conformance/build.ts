/**
 * Compiles every `.graph` program of the conformance suite (test/conformance/graphs) in ONE `buildFiles`
 * call into a git-ignored folder inside the repository (so the generated code resolves `@graphc/runtime`
 * and the node modules exactly as user code does), then imports the generated modules.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildFiles, type Diagnostic } from "graphc";
import type { CompiledGraph, GraphSpec } from "@graphc/runtime";

const here = dirname(fileURLToPath(import.meta.url));
export const GRAPHS_DIR = join(here, "graphs");
// a run on the built runtime (GRAPHC_TEST_DIST, test/consumer) writes its own folder: it runs beside this one
export const OUT_DIR = join(here, "..", process.env.GRAPHC_TEST_DIST === "1" ? "_tmp-conformance-dist" : "_tmp-conformance");

/** A compiled graph as the tests use it: untyped input, the output as a plain record. */
export type Graph = CompiledGraph<any, Record<string, any>>;

export interface Built {
  /** the generated module of `graphs/<name>.graph` */
  module(name: string): Record<string, unknown>;
  /** a graph exported by `graphs/<file>.graph` */
  graph(file: string, name: string): Graph;
  spec(file: string, name: string): GraphSpec;
  /** every compiled graph the programs export */
  graphs(): Graph[];
  /** warnings (errors fail the build) */
  diagnostics: Diagnostic[];
}

function describe(d: Diagnostic): string {
  return `${relative(process.cwd(), d.span.file)}:${d.span.start.line}:${d.span.start.column}: ${d.severity}[${d.code}] ${d.message}`;
}

/** Builds and imports every program; throws with the rendered diagnostics when any is an error. */
export async function buildAll(): Promise<Built> {
  const names = readdirSync(GRAPHS_DIR)
    .filter((f) => f.endsWith(".graph"))
    .sort()
    .map((f) => f.slice(0, -".graph".length));
  const files = names.map((n) => relative(process.cwd(), join(GRAPHS_DIR, `${n}.graph`)));
  rmSync(OUT_DIR, { recursive: true, force: true });
  const { outputs, diagnostics } = await buildFiles(files, {
    outDir: relative(process.cwd(), OUT_DIR),
    rootDir: relative(process.cwd(), here),
    // graphc's TypeScript pass (node functions against their generated types) costs 5-50 s depending on the
    // machine's load, too much for the suite's budget; GRAPHC_CONFORMANCE_TYPECHECK=1 turns it on
    typecheck: process.env.GRAPHC_CONFORMANCE_TYPECHECK === "1",
  });
  const errors = diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) throw new Error(`conformance programs do not compile:\n${errors.map(describe).join("\n")}`);
  for (const o of outputs) {
    mkdirSync(dirname(o.path), { recursive: true });
    writeFileSync(o.path, o.text);
  }
  const modules = new Map<string, Record<string, unknown>>();
  for (const n of names) {
    modules.set(n, (await import(pathToFileURL(join(OUT_DIR, "graphs", `${n}.graph.ts`)).href)) as Record<string, unknown>);
  }
  const module = (name: string) => {
    const m = modules.get(name);
    if (!m) throw new Error(`no conformance program graphs/${name}.graph`);
    return m;
  };
  const exported = <T>(file: string, name: string): T => {
    const v = module(file)[name];
    if (v === undefined) throw new Error(`graphs/${file}.graph exports no ${name}`);
    return v as T;
  };
  return {
    module,
    graph: (file, name) => exported<Graph>(file, name),
    spec: (file, name) => exported<GraphSpec>(file, `${name}Spec`),
    graphs: () =>
      [...modules.values()].flatMap((m) =>
        Object.values(m).filter((x): x is Graph => typeof x === "object" && x !== null && typeof (x as Graph).clearCache === "function"),
      ),
    diagnostics,
  };
}
