/**
 * Bundle size and cold start. Small apps (one and two nodes; W1 for cold start) are written as graphc,
 * LangGraph.js and hand-written entry files, bundled with esbuild (--bundle --minify), measured minified
 * and gzip -9, then each Node bundle is run as a fresh process: it must print the same final state as the
 * others, and its wall time (start-up + import + first invoke) is the cold start.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, gzipSync, constants } from "node:zlib";
import { build } from "esbuild";
import { SOURCE_ENTRIES } from "../test/source-entries.ts";
import { median } from "./measure.ts";

const ROOT = join(import.meta.dirname, "..");

export interface BundleRow {
  app: string;
  side: "graphc" | "langgraph" | "hand";
  platform: "node" | "browser";
  minified: number;
  gzip: number;
  brotli: number;
  /** the largest contributors to the minified output */
  top: Contributions;
  /** what the Node bundle printed (node platform only) */
  output?: string;
}

export interface ColdRow {
  side: "graphc" | "langgraph" | "hand";
  runs: number;
  /** wall time of the whole process */
  medianMs: number;
  minMs: number;
  /** CPU time (user + system) the process reported on exit, start-up included */
  medianCpuMs: number;
  output: string;
}

const LG_STATE = `
import { Annotation, StateGraph, START, END } from "@langchain/langgraph";
const S = Annotation.Root({
  count: Annotation(),
  log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
});
const step = (name) => (s) => ({ count: s.count + 1, log: [name] });
`;

/** Entry sources by app and side; `dir` holds the generated `.graph.ts` files and the workload modules. */
function entries(): Record<string, Record<BundleRow["side"], string>> {
  const print = (expr: string) => `${expr}.then((r) => console.log(JSON.stringify(r)));`;
  return {
    "1 node": {
      graphc: `import { App1 } from "./app1.graph.ts";\n${print("App1.invoke({ count: 0 })")}`,
      langgraph: `${LG_STATE}\nconst g = new StateGraph(S).addNode("a", step("a")).addEdge(START, "a").addEdge("a", END).compile();\n${print("g.invoke({ count: 0 })")}`,
      hand: `import { chain } from "./hand.ts";\n${print('Promise.resolve(chain(["a"], { count: 0, log: [] }))')}`,
    },
    "2 nodes": {
      graphc: `import { App2 } from "./app2.graph.ts";\n${print("App2.invoke({ count: 0 })")}`,
      langgraph: `${LG_STATE}\nconst g = new StateGraph(S).addNode("a", step("a")).addNode("b", step("b")).addEdge(START, "a").addEdge("a", "b").addEdge("b", END).compile();\n${print("g.invoke({ count: 0 })")}`,
      hand: `import { chain } from "./hand.ts";\n${print('Promise.resolve(chain(["a", "b"], { count: 0, log: [] }))')}`,
    },
    "W1 (cold start)": {
      graphc: `import { W1 } from "./w1.graph.ts";\n${print("W1.invoke({ count: 0 }, { recursionLimit: 10000 })")}`,
      langgraph: `import { w1 } from "./langgraph.ts";\n${print("w1().invoke({ count: 0 }, { recursionLimit: 10000 })")}`,
      hand: `import { chain, W1_NAMES } from "./hand.ts";\n${print("Promise.resolve(chain(W1_NAMES, { count: 0, log: [] }))")}`,
    },
  };
}

/** Bytes each source file contributes to a bundle's minified output, largest first (from esbuild's metafile). */
export type Contributions = [file: string, bytes: number][];

const contributions = new Map<string, Contributions>();

export function contributionsOf(outfile: string): Contributions {
  return contributions.get(outfile) ?? [];
}

/** Added to the cold-start bundles only: the process reports its CPU time (start-up included) on exit. */
const CPU_REPORT = `process.on("exit",()=>{const c=process.cpuUsage();process.stderr.write("cpu "+(c.user+c.system)+"\\n")});`;

async function bundle(
  dir: string,
  name: string,
  source: string,
  platform: "node" | "browser",
  banner = "",
): Promise<string> {
  const entry = join(dir, `${name}.ts`);
  writeFileSync(entry, source);
  // CommonJS for Node: the package is "type": "module" and LangGraph's dependencies use require()
  const outfile = join(dir, `${name}.${platform}.${platform === "node" ? "cjs" : "mjs"}`);
  const result = await build({
    metafile: true,
    entryPoints: [entry],
    bundle: true,
    minify: true,
    platform,
    format: platform === "node" ? "cjs" : "esm",
    target: "es2022",
    outfile,
    logLevel: "silent",
    ...(banner ? { banner: { js: banner } } : {}),
    // the packages by name, as generated code imports them (it imports subpaths: "@graphc/runtime/core")
    alias: Object.fromEntries(Object.entries(SOURCE_ENTRIES).map(([name, file]) => [name, join(ROOT, file)])),
  });
  const out = Object.values(result.metafile.outputs)[0];
  const inputs = Object.entries(out?.inputs ?? {}).map(([f, i]): [string, number] => [
    f.replace(/^.*node_modules\//, "node_modules/"),
    i.bytesInOutput,
  ]);
  contributions.set(
    outfile,
    inputs.sort((a, b) => b[1] - a[1]),
  );
  return outfile;
}

function runNode(file: string): { ms: number; cpuMs: number; out: string } {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [file], { encoding: "utf8" });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${file} failed: ${r.stderr}`);
  const cpu = /cpu (\d+)/.exec(r.stderr);
  return { ms, cpuMs: cpu ? Number(cpu[1]) / 1000 : NaN, out: r.stdout.trim() };
}

export async function runBundles(
  dir: string,
  coldRuns: number,
): Promise<{ bundles: BundleRow[]; cold: ColdRow[] }> {
  const bundles: BundleRow[] = [];
  const coldFiles = new Map<BundleRow["side"], string>();
  for (const [app, sides] of Object.entries(entries())) {
    for (const side of ["graphc", "langgraph", "hand"] as const) {
      const slug = `bundle-${app.replace(/\W+/g, "-")}-${side}`.toLowerCase();
      const platforms = app.startsWith("W1") ? (["node"] as const) : (["node", "browser"] as const);
      for (const platform of platforms) {
        const out = await bundle(dir, slug, sides[side], platform, app.startsWith("W1") ? CPU_REPORT : "");
        if (app.startsWith("W1")) {
          coldFiles.set(side, out);
          continue;
        }
        const bytes = readFileSync(out);
        bundles.push({
          app,
          side,
          platform,
          minified: bytes.length,
          gzip: gzipSync(bytes, { level: 9 }).length,
          brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
          top: contributionsOf(out).slice(0, 12),
          ...(platform === "node" ? { output: runNode(out).out } : {}),
        });
      }
    }
  }
  // cold start: the three W1 bundles alternate, run by run
  const times = new Map<BundleRow["side"], number[]>();
  const cpus = new Map<BundleRow["side"], number[]>();
  const outputs = new Map<BundleRow["side"], string>();
  for (let i = 0; i < coldRuns; i++) {
    for (const [side, file] of coldFiles) {
      const r = runNode(file);
      times.set(side, [...(times.get(side) ?? []), r.ms]);
      cpus.set(side, [...(cpus.get(side) ?? []), r.cpuMs]);
      outputs.set(side, r.out);
    }
  }
  const cold = [...coldFiles.keys()].map((side) => ({
    side,
    runs: coldRuns,
    medianMs: median(times.get(side) ?? []),
    minMs: Math.min(...(times.get(side) ?? [])),
    medianCpuMs: median(cpus.get(side) ?? []),
    output: outputs.get(side) ?? "",
  }));
  return { bundles, cold };
}
