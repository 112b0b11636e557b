/**
 * What the build plugin costs per `.graph` module (`npx tsx bench/unplugin.ts`): the plugin's compile cache
 * (unplugin/graph-modules.ts) on the test app of test/unplugin (a graph with a subgraph from another file
 * and a TS node module), in a fresh copy inside the repository. Times, best of a few runs after the first:
 * the first load (graphc, prettier and TypeScript loaded), a recompile after an edit with and without
 * graphc's TypeScript pass, and a cache hit (the nested graph after its importer's compile). Asserts nothing.
 */
import { appendFileSync, cpSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { GraphModules } from "../unplugin/graph-modules.ts";
import { resolveOptions } from "../unplugin/options.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const dir = mkdtempSync(join(ROOT, "test", "_tmp-bench-unplugin-"));
cpSync(join(ROOT, "test", "fixtures", "unplugin"), dir, { recursive: true });
const app = join(dir, "app.graph");

async function timed(f: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await f();
  return performance.now() - t;
}

async function loadOk(modules: GraphModules, file: string): Promise<void> {
  const out = await modules.load(file);
  if (!out.ok) throw new Error(out.errors.map((e) => e.message).join("\n"));
}

try {
  const rows: [string, number][] = [];
  for (const typecheck of [false, true]) {
    const modules = new GraphModules(resolveOptions({ cwd: dir, typecheck, writeGenerated: false }));
    const first = await timed(() => loadOk(modules, app));
    if (!typecheck) rows.push(["first load (loads graphc)", first]);
    const edits: number[] = [];
    for (let i = 0; i < 5; i++) {
      appendFileSync(app, "\n");
      edits.push(await timed(() => loadOk(modules, app)));
    }
    rows.push([`recompile after an edit, typecheck ${typecheck}`, Math.min(...edits)]);
    rows.push(["cache hit (the nested graph)", await timed(() => loadOk(modules, join(dir, "research.graph")))]);
  }
  for (const [what, ms] of rows) console.log(`${what.padEnd(40)} ${ms.toFixed(1).padStart(9)} ms`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
