/**
 * `npx tsx bench/w6-instructions.ts [tree] [invokes]`: instructions per W6 checkpoint (W1 with the tree's
 * MemorySaver, a thread per invoke, a saver per 80 threads), counted by valgrind's cachegrind. On the shared
 * 2-core VM CPU time moves by ±15% with the other sessions' load while this count moves by up to ±5%, so
 * repeated runs tell changes of several percent apart (docs/checkpoints.md, "where a W6 step's instructions
 * go"). The tree's runtime is compiled by tsc (no tsx transpiling inside the count), W1 is built by the
 * tree's compiler and bundled by esbuild against it, and the count of the same script with 0 invokes
 * (start-up) is subtracted. The GC's helper threads and background compiles count too. Needs valgrind on the
 * PATH; asserts nothing.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { pointRuntimeImports } from "./runtime-imports.ts";

const tree = resolve(process.argv[2] ?? join(import.meta.dirname, ".."));
const invokes = Number(process.argv[3] ?? 400);
const tmp = mkdtempSync(join(tmpdir(), "graphc-w6i-"));
process.on("exit", () => rmSync(tmp, { recursive: true, force: true }));

function run(
  cmd: string,
  args: string[],
  env: Record<string, string> = {},
): string {
  const r = spawnSync(cmd, args, {
    cwd: tree,
    env: { ...process.env, ...env },
    encoding: "utf8",
  });
  if (r.status !== 0)
    throw new Error(`${cmd} ${args.join(" ")} failed:\n${r.stdout}${r.stderr}`);
  return r.stderr;
}

const rt = join(tmp, "rt");
run("npx", [
  "tsc",
  "-p",
  "runtime/tsconfig.build.json",
  "--outDir",
  rt,
  "--declaration",
  "false",
  "--declarationMap",
  "false",
  "--sourceMap",
  "false",
]);
const { buildFiles } = (await import(
  pathToFileURL(join(tree, "compiler/index.ts")).href
)) as {
  buildFiles: (
    files: string[],
  ) => Promise<{ outputs: { path: string; text: string }[] }>;
};
cpSync(join(tree, "bench/workloads"), join(tmp, "w"), { recursive: true });
for (const o of (await buildFiles([join(tmp, "w/w1.graph")])).outputs) {
  writeFileSync(
    o.path,
    pointRuntimeImports(o.text, (f) => `${rt}/${f.replace(/\.ts$/, ".js")}`),
  );
}
await build({
  entryPoints: [join(tmp, "w/w1.graph.ts")],
  bundle: true,
  format: "esm",
  outfile: join(tmp, "w1.mjs"),
  external: [`${rt}/*`],
  logLevel: "warning",
});
writeFileSync(
  join(tmp, "run.mjs"),
  `const { W1 } = await import(${JSON.stringify(join(tmp, "w1.mjs"))});
const { MemorySaver } = await import(${JSON.stringify(`${rt}/index.js`)});
let saver;
for (let n = 0; n < Number(process.env.N); n++) {
  if (n % 80 === 0) saver = new MemorySaver();
  await W1.invoke({ count: 0 }, { recursionLimit: 10000, checkpointer: saver, configurable: { thread_id: String(n) } });
}
`,
);

function instructions(n: number): number {
  const out = run(
    "valgrind",
    [
      "--tool=cachegrind",
      "--cache-sim=no",
      "--cachegrind-out-file=/dev/null",
      "node",
      join(tmp, "run.mjs"),
    ],
    { N: String(n) },
  );
  const m = /I\s+refs:\s+([\d,]+)/.exec(out);
  if (!m) throw new Error(`no instruction count in valgrind's output:\n${out}`);
  return Number(m[1]!.replaceAll(",", ""));
}

const base = instructions(0);
const total = instructions(invokes);
// W1: the input checkpoint and one per node
const checkpoints = invokes * 101;
console.log(
  `${tree}: ${((total - base) / 1e9).toFixed(3)} × 10⁹ instructions for ${invokes} invokes (start-up ${(base / 1e9).toFixed(3)} × 10⁹ subtracted), ` +
    `${Math.round((total - base) / checkpoints).toLocaleString("en")} per checkpoint`,
);
