/**
 * The bundle-size budgets of issue 9: small apps (generated code of a `.graph` file + the runtime) bundled
 * with esbuild `--bundle --minify` (browser platform, ESM) and compressed with gzip -9. Each bundle is also run
 * with `node`, and must print what the app computes, so a budget is never met by a bundle that does not work.
 * Used by test/runtime/bundle-size.test.ts (the budgets) and printable with `npx tsx bench/size.ts`.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { buildFiles } from "../compiler/index.ts";
import { SOURCE_ENTRIES } from "../test/source-entries.ts";

const ROOT = join(import.meta.dirname, "..");
const FIXTURES = join(ROOT, "test", "fixtures", "size");

export interface SizeApp {
  readonly name: string;
  /** the app's entry file (imports `./app.graph.ts` / `./ask.graph.ts`) */
  readonly source: string;
  /** what running the bundle prints */
  readonly prints: string;
  /** the generated code's runtime (`graphc build --runtime`); default "full" */
  readonly runtime?: "full" | "lean";
}

const print = "(r) => console.log(JSON.stringify(r))";

export const APPS: readonly SizeApp[] = [
  {
    name: "two-node app (invoke)",
    source: `import { App } from "./app.graph.ts";\nApp.invoke({ count: 0 }).then(${print});\n`,
    prints: '{"count":2,"log":["a","b"]}',
  },
  {
    name: "with stream()",
    source:
      `import { App } from "./app.graph.ts";\n` +
      `const out = [];\nfor await (const c of App.stream({ count: 0 }, { streamMode: "values" })) out.push(c);\n(${print})(out);\n`,
    prints: '[{"count":0,"log":[]},{"count":1,"log":["a"]},{"count":2,"log":["a","b"]}]',
  },
  {
    name: "with a checkpointer + interrupts",
    source:
      `import { Command, MemorySaver } from "@graphc/runtime";\nimport { Ask } from "./ask.graph.ts";\n` +
      `const config = { checkpointer: new MemorySaver(), configurable: { thread_id: "t" } };\n` +
      `const first = await Ask.invoke({ count: 0 }, config);\n` +
      `const second = await Ask.invoke(new Command({ resume: "ada" }), config);\n` +
      `(${print})([first.__interrupt__.map((i) => i.value), second]);\n`,
    prints: '[["name?"],{"count":1,"answer":"ada"}]',
  },
  {
    name: "two-node app (invoke, lean runtime)",
    runtime: "lean",
    source: `import { App } from "./app.graph.ts";\nApp.invoke({ count: 0 }).then(${print});\n`,
    prints: '{"count":2,"log":["a","b"]}',
  },
  {
    name: "with stream() (lean runtime + @graphc/runtime/streaming)",
    runtime: "lean",
    source:
      `import "@graphc/runtime/streaming";\nimport { App } from "./app.graph.ts";\n` +
      `const out = [];\nfor await (const c of App.stream({ count: 0 }, { streamMode: "values" })) out.push(c);\n(${print})(out);\n`,
    prints: '[{"count":0,"log":[]},{"count":1,"log":["a"]},{"count":2,"log":["a","b"]}]',
  },
];

export interface SizeRow {
  readonly app: string;
  readonly minified: number;
  readonly gzip: number;
  /** the largest contributors to the minified output, bytes */
  readonly top: readonly [string, number][];
}

/** Compiles the fixtures, bundles every app, runs each bundle and returns its sizes. */
export async function measureSizes(apps: readonly SizeApp[] = APPS): Promise<SizeRow[]> {
  // inside the repository (git-ignored), so that the TypeScript pass resolves "@graphc/runtime" as user code does
  mkdirSync(join(ROOT, "bench", "_tmp-size"), { recursive: true });
  const root = mkdtempSync(join(ROOT, "bench", "_tmp-size", "run-"));
  try {
    // the fixtures built once per runtime mode, each in its own folder
    for (const runtime of ["full", "lean"] as const) {
      const dir = join(root, runtime);
      mkdirSync(dir);
      copyFileSync(join(FIXTURES, "nodes.ts"), join(dir, "nodes.ts"));
      for (const g of ["app.graph", "ask.graph"]) copyFileSync(join(FIXTURES, g), join(dir, g));
      // with the TypeScript pass, as `graphc build` runs: it marks synchronous nodes and proves node functions
      // Command-free, which makes a graph of static edges a StaticGraph (compiler/phases/4-lower/lean.ts)
      const { outputs, diagnostics } = await buildFiles([join(dir, "app.graph"), join(dir, "ask.graph")], {
        typecheck: true,
        importExt: "ts",
        runtime,
      });
      const errors = diagnostics.filter((d) => d.severity === "error");
      if (errors.length > 0) throw new Error(`size fixtures do not compile: ${errors.map((d) => d.message).join("; ")}`);
      for (const o of outputs) writeFileSync(o.path, o.text);
    }
    const alias: Record<string, string> = {};
    for (const [name, file] of Object.entries(SOURCE_ENTRIES)) alias[name] = join(ROOT, file);
    const rows: SizeRow[] = [];
    for (const [i, app] of apps.entries()) {
      const dir = join(root, app.runtime ?? "full");
      const entry = join(dir, `entry${i}.ts`);
      const outfile = join(dir, `entry${i}.mjs`);
      writeFileSync(entry, app.source);
      const result = await build({
        entryPoints: [entry],
        bundle: true,
        minify: true,
        platform: "browser",
        format: "esm",
        target: "es2022",
        outfile,
        metafile: true,
        logLevel: "silent",
        alias,
      });
      const ran = spawnSync(process.execPath, [outfile], { encoding: "utf8" });
      if (ran.status !== 0) throw new Error(`${app.name}: the bundle failed: ${ran.stderr.split("\n").slice(-8).join("\n").slice(-1500)}`);
      const printed = ran.stdout.trim();
      if (printed !== app.prints) throw new Error(`${app.name}: the bundle printed ${printed}, expected ${app.prints}`);
      const bytes = readFileSync(outfile);
      const inputs = Object.values(result.metafile.outputs)[0]?.inputs ?? {};
      const top = Object.entries(inputs)
        .map(([f, x]): [string, number] => [f.replace(/^.*?(runtime\/|entry)/, "$1"), x.bytesInOutput])
        .sort((a, b) => b[1] - a[1])
        .slice(0, 12);
      rows.push({ app: app.name, minified: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, top });
    }
    return rows;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[1] === import.meta.filename) {
  for (const r of await measureSizes()) {
    console.log(`${r.app}: ${r.minified} B minified, ${r.gzip} B gzip`);
    for (const [f, b] of r.top) console.log(`    ${String(b).padStart(6)}  ${f}`);
  }
}
