/**
 * `npx tsx bench/w6-pairs.ts <other-tree> [pairs]`: W6 (W1 + MemorySaver, a thread per invoke, a saver per
 * 80 threads) of this tree against another, each in its own process, run alternately. bench/ab.ts runs both
 * trees in one heap, so it cannot show a change in the bytes a saver keeps (the collector's work is shared);
 * here each process has its own heap. Each tree's runtime is compiled by tsc and W1 bundled by esbuild against
 * it (as bench/w6-instructions.ts does); a process runs 1,500 invokes and reports the CPU time
 * (process.cpuUsage) of the last 1,200. Prints each pair's ratio (this / other) and their median. Asserts
 * nothing.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { pointRuntimeImports } from "./runtime-imports.ts";

const here = resolve(join(import.meta.dirname, ".."));
const other = resolve(process.argv[2] ?? "");
const pairs = Number(process.argv[3] ?? 10);
const tmp = mkdtempSync(join(tmpdir(), "graphc-w6p-"));
process.on("exit", () => rmSync(tmp, { recursive: true, force: true }));

/** builds `tree`'s runtime and W1 into `dir`; returns the script to run */
async function prepare(tree: string, dir: string): Promise<string> {
  const rt = join(dir, "rt");
  execFileSync("npx", ["tsc", "-p", "runtime/tsconfig.build.json", "--outDir", rt, "--declaration", "false",
    "--declarationMap", "false", "--sourceMap", "false"], { cwd: tree });
  const { buildFiles } = (await import(pathToFileURL(join(tree, "compiler/index.ts")).href)) as {
    buildFiles: (files: string[]) => Promise<{ outputs: { path: string; text: string }[] }>;
  };
  cpSync(join(tree, "bench/workloads"), join(dir, "w"), { recursive: true });
  for (const o of (await buildFiles([join(dir, "w/w1.graph")])).outputs) {
    writeFileSync(o.path, pointRuntimeImports(o.text, (f) => `${rt}/${f.replace(/\.ts$/, ".js")}`));
  }
  await build({ entryPoints: [join(dir, "w/w1.graph.ts")], bundle: true, format: "esm", outfile: join(dir, "w1.mjs"),
    external: [`${rt}/*`], logLevel: "warning" });
  const script = join(dir, "run.mjs");
  writeFileSync(script, `const { W1 } = await import(${JSON.stringify(join(dir, "w1.mjs"))});
const { MemorySaver } = await import(${JSON.stringify(`${rt}/index.js`)});
let saver, start;
for (let n = 0; n < 1500; n++) {
  if (n === 300) start = process.cpuUsage();
  if (n % 80 === 0) saver = new MemorySaver();
  await W1.invoke({ count: 0 }, { recursionLimit: 10000, checkpointer: saver, configurable: { thread_id: String(n) } });
}
const u = process.cpuUsage(start);
console.log((u.user + u.system) / 1200);
`);
  return script;
}

const mine = await prepare(here, join(tmp, "this"));
const theirs = await prepare(other, join(tmp, "other"));
const cpu = (script: string) => Number(spawnSync("node", [script], { encoding: "utf8" }).stdout.trim());
const ratios: number[] = [];
for (let i = 0; i < pairs; i++) {
  // alternately first: neither side always runs after the other
  let a: number, b: number;
  if (i % 2 === 0) [a, b] = [cpu(mine), cpu(theirs)];
  else [b, a] = [cpu(theirs), cpu(mine)];
  ratios.push(a / b);
  console.log(`pair ${i + 1}: this ${a.toFixed(0)} µs, other ${b.toFixed(0)} µs per invoke, ×${(a / b).toFixed(3)}`);
}
ratios.sort((x, y) => x - y);
console.log(`W6 separate processes, this / other: median ×${ratios[ratios.length >> 1]!.toFixed(3)} of ${pairs} pairs`);
