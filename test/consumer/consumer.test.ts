/**
 * graphc as a user gets it: every package packed (`npm pack`) and installed from its tarball into fresh
 * projects outside the repository, then compiled and run the ways users run it — tsc (NodeNext) and plain
 * `node` with MemorySaver and with the SQLite saver package, an esbuild bundle, the strictest tsconfig
 * flags (NodeNext and Bundler, libraries' declarations checked) — and the app's dependency tree inspected.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { publint } from "publint";
import { build as viteBuildApi } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@langchain/langgraph-sdk";
import { startServer } from "../server/server-process.ts";
import { runInChromium, viteBuild } from "./browser.ts";
import { TYPES_NODE } from "./versions.ts";
import { buildAndPack, copyNativeBuild, filesUnder, installApp, node, npmInstall, ROOT, sh, TSC, type Packs } from "./packed.ts";

let packs: Packs;
/** the app with @graphc/runtime (and graphc as a devDependency) */
let app: string;
/** the app with @graphc/runtime and @graphc/checkpoint-sqlite */
let sqliteApp: string;
/** the app with @graphc/runtime, and graphc and @graphc/unplugin as devDependencies */
let pluginApp: string;
/** the app with @graphc/runtime and @graphc/server (graphc as a devDependency), which serves serve/flow.graph */
let serverApp: string;

const EXPECTED = {
  question: { question: 'publish "All about graphs"?' },
  done: { draft: "All about graphs", verdict: "yes", log: ["write", "publish:yes"] },
};

beforeAll(async () => {
  packs = await buildAndPack();
  const t = packs.tarballs;
  [app, sqliteApp, pluginApp, serverApp] = await Promise.all([
    installApp(packs, {
      name: "app",
      dependencies: { "@graphc/runtime": t["@graphc/runtime"]! },
      devDependencies: { graphc: t["graphc"]!, "@types/node": TYPES_NODE },
    }),
    installApp(packs, {
      name: "sqlite-app",
      dependencies: { "@graphc/runtime": t["@graphc/runtime"]!, "@graphc/checkpoint-sqlite": t["@graphc/checkpoint-sqlite"]! },
      devDependencies: { "@types/node": TYPES_NODE },
      ignoreScripts: true,
    }),
    installApp(packs, {
      name: "plugin-app",
      dependencies: { "@graphc/runtime": t["@graphc/runtime"]! },
      devDependencies: { graphc: t["graphc"]!, "@graphc/unplugin": t["@graphc/unplugin"]!, "@types/node": TYPES_NODE },
    }),
    installApp(packs, {
      name: "server-app",
      // the server's own @graphc dependencies are asked for by version: pointed at the tarballs here
      dependencies: Object.fromEntries(
        ["@graphc/runtime", "@graphc/server", "@graphc/checkpoint-sqlite", "@graphc/checkpoint-postgres"].map((n) => [n, t[n]!]),
      ),
      devDependencies: { graphc: t["graphc"]!, "@types/node": TYPES_NODE },
      ignoreScripts: true,
    }),
  ]);
  copyNativeBuild(sqliteApp, "better-sqlite3");
  copyNativeBuild(serverApp, "better-sqlite3");
  // the graphc CLI installed in `app` (node_modules/.bin/graphc) compiles both apps' .graph files
  const graphc = join(app, "node_modules", ".bin", "graphc");
  await Promise.all([node([graphc, "build", "src"], app), node([graphc, "build", "src"], sqliteApp)]);
}, 300_000);

afterAll(() => packs?.remove());

describe("installed from the packed tarballs", () => {
  it("generated code imports @graphc/runtime and .js relative modules (the app's tsconfig has no .ts imports)", () => {
    const text = readFileSync(join(app, "src", "article.graph.ts"), "utf8");
    expect(text).toMatch(/ from "@graphc\/runtime";/);
    expect(text).toContain(' from "./nodes.js";');
    expect(text).toContain(' from "./review.graph.js";');
  });

  it("(a) tsc with module NodeNext, then plain node: a subgraph's interrupt, resumed, with MemorySaver", async () => {
    await node([TSC, "-p", "tsconfig.json"], app);
    const out = await node([join("dist", "src", "main.js")], app);
    expect(JSON.parse(out)).toEqual(EXPECTED);
  });

  it("(b) the same with @graphc/checkpoint-sqlite: one process asks, a second resumes from the database", async () => {
    await node([TSC, "-p", "tsconfig.sqlite.json"], sqliteApp);
    const main = join("dist", "sqlite", "main.js");
    expect(JSON.parse(await node([main, "ask", "app.db"], sqliteApp))).toEqual(EXPECTED.question);
    expect(JSON.parse(await node([main, "approve", "app.db"], sqliteApp))).toEqual(EXPECTED.done);
  });

  it("(c) a Vite build of a browser app streams the graph's updates into the page in headless Chromium", async () => {
    const built = await viteBuild(app);
    console.log(`consumer: Vite app JavaScript ${built.jsBytes} B (${built.files.join(", ")})`);
    const page = await runInChromium(built.dir);
    expect(page.status).toBe("done");
    // the subgraph's interrupt and its resumed node arrive under the subgraph's namespace
    expect(page.updates).toEqual([
      "root write",
      "review __interrupt__",
      "root __interrupt__",
      "review judge",
      "root review",
      "root publish",
    ]);
  });

  it("(d) an esbuild bundle of the app runs, and holds no compiler code", async () => {
    const outfile = join(app, "bundle", "main.mjs");
    await build({
      entryPoints: [join(app, "src", "main.ts")],
      absWorkingDir: app,
      bundle: true,
      platform: "node",
      format: "esm",
      outfile,
      logLevel: "silent",
    });
    expect(JSON.parse(await node([outfile], app))).toEqual(EXPECTED);
    const text = readFileSync(outfile, "utf8");
    for (const word of ["ts-morph", "prettier", "chevrotain"]) expect(text).not.toContain(word);
  });

  it("(g) @graphc/unplugin from its tarball: a Vite build of plugin/main.ts, which imports src/article.graph itself, runs", async () => {
    const pluginEntry = join(pluginApp, "node_modules", "@graphc", "unplugin", "dist", "vite.js");
    const { default: graphc } = (await import(pathToFileURL(pluginEntry).href)) as typeof import("@graphc/unplugin/vite");
    const outDir = join(pluginApp, "plugin-dist");
    await viteBuildApi({
      root: pluginApp,
      configFile: false,
      logLevel: "silent",
      plugins: [graphc()],
      build: { outDir, minify: false, lib: { entry: join(pluginApp, "plugin", "main.ts"), formats: ["es"], fileName: () => "main.mjs" } },
    });
    expect(JSON.parse(await node([join(outDir, "main.mjs")], pluginApp))).toEqual(EXPECTED);
  });

  // a lean graph's generated code imports "@graphc/runtime/core": until 2026-12-04 the server rewrote only
  // "@graphc/runtime" and loaded the graphs through tsx's tsImport, whose namespace gave them a second runtime
  // copy that the server's saver never installed checkpointing into — every run of such a graph failed,
  // while the repository's tests (one copy, through its tsconfig paths) passed
  it("(h) graphc serve from the tarballs (data outside the project): a lean graph streams, stops at its interrupt and resumes", async () => {
    const graphc = join(serverApp, "node_modules", ".bin", "graphc");
    const data = join(packs.dir, "serve-data");
    const server = await startServer(["serve/flow.graph", "--data", data], {}, 120_000, { bin: graphc, cwd: serverApp });
    try {
      const client = new Client({ apiUrl: server.url, apiKey: null, callerOptions: { maxRetries: 0 } });
      expect(readFileSync(join(data, "compiled", serverApp, "serve", "flow.graph.ts"), "utf8")).toContain("/dist/core.js");
      const thread = await client.threads.create();
      const updates: unknown[] = [];
      for await (const part of client.runs.stream(thread.thread_id, "Flow", { input: { topic: "graphs" }, streamMode: ["updates"] })) {
        if (part.event === "error") throw new Error(JSON.stringify(part.data));
        if (part.event === "updates") updates.push(part.data);
      }
      expect(updates).toEqual([
        { draft: { text: "about graphs" } },
        { __interrupt__: [{ id: expect.any(String), value: { question: "publish about graphs?" } }] },
      ]);
      expect((await client.threads.getState(thread.thread_id)).next).toEqual(["review"]);
      const done = await client.runs.wait(thread.thread_id, "Flow", { command: { resume: "yes" } });
      expect(done).toEqual({ topic: "graphs", text: "about graphs", verdict: "yes" });
    } finally {
      await server.stop();
    }
  }, 180_000);

  it("(e) generated code and the runtime's declarations pass the strictest flags (NodeNext and Bundler, skipLibCheck false); a misspelt input key is an error (src/typed-calls.ts)", async () => {
    await node([TSC, "-p", "tsconfig.strict.json"], app);
    await node([TSC, "-p", "tsconfig.bundler.json"], app);
  });

  it("(f) the production dependency tree holds only what the app asked for", async () => {
    expect(await productionPackages(app)).toEqual(["@graphc/runtime"]);
    const sqlite = await productionPackages(sqliteApp);
    expect(sqlite).toContain("better-sqlite3");
    for (const unwanted of ["graphc", "typescript", "ts-morph", "prettier", "chevrotain", "tsx", "esbuild", "pg"]) {
      expect(sqlite).not.toContain(unwanted);
    }
  });

  it("graphc init scaffolds a project whose `npm install && npm test` pass (graphc and @graphc/runtime from the tarballs)", async () => {
    const project = join(packs.dir, "my-graphs");
    await node([join(app, "node_modules", ".bin", "graphc"), "init", project], packs.dir);
    // the scaffold asks for graphc and @graphc/runtime by version: point both at the packed tarballs
    const pkgPath = join(project, "package.json");
    const pkg = JSON.parse(readFileSync(pkgPath, "utf8")) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    pkg.dependencies["@graphc/runtime"] = packs.tarballs["@graphc/runtime"]!;
    pkg.devDependencies["graphc"] = packs.tarballs["graphc"]!;
    writeFileSync(pkgPath, `${JSON.stringify(pkg, null, 2)}\n`);
    await npmInstall(project);
    const out = await sh("npm", ["test"], project);
    expect(out).toMatch(/# pass 1\b/);
    expect(out).toMatch(/# fail 0\b/);
  });

  it("publint (strict, suggestions included) and attw (esm-only profile) find nothing in any packed package", async () => {
    const ATTW = join(ROOT, "node_modules", "@arethetypeswrong", "cli", "dist", "index.js");
    for (const [name, tarball] of Object.entries(packs.tarballs)) {
      const bytes = readFileSync(tarball);
      const tar = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
      const { messages } = await publint({ pack: { tarball: tar }, level: "suggestion", strict: true });
      expect(messages, `publint ${name}`).toEqual([]);
      // exits non-zero on any problem the profile does not ignore
      await node([ATTW, tarball, "--profile", "esm-only", "--format", "ascii"], packs.dir);
    }
    // eight tarballs, attw 6–13 s each on a busy 2-core machine: past the default 60 s
  }, 180_000);

  // The target is 150 KB (issue 14). The runtime grew to 172.2 KB; one esbuild bundle per export with shared
  // chunks and tree-shaken declarations (scripts/build.mjs) brought it to 139.9 KB; the lean loop (runtime/lean/)
  // and the speed work of issue 9 took it to 154.2 KB; sharing code between the two loops and the two graph
  // classes, and index.js re-exporting core.js, to 151.7 KB (155,466 B); the parts installed as object
  // literals and the bundle's shortened internal property names (scripts/mangle-props.mjs) to 148,167 B:
  // this bound is the target itself, 150,000 B. docs/packages.md records the figures.
  it("@graphc/runtime installs as one package, its .js and .d.ts under 150,000 B (issue 14's 150 KB)", () => {
    const dir = join(app, "node_modules", "@graphc", "runtime");
    expect(readdirNames(join(app, "node_modules", "@graphc"))).toEqual(["runtime"]);
    const bytes = filesUnder(dir)
      .filter((f) => f.endsWith(".js") || f.endsWith(".d.ts"))
      .reduce((n, f) => n + statSync(join(dir, f)).size, 0);
    expect(bytes).toBeLessThan(150_000);
  });

  // the bundle shortens the runtime's internal property names (scripts/mangle-props.mjs): the suites that
  // compare against LangGraph run on the built files the package ships (vitest.config.ts, GRAPHC_TEST_DIST)
  it("the built runtime passes the conformance cases and the differential suite (runtime/dist, as published)", async () => {
    const vitest = join(ROOT, "node_modules", "vitest", "vitest.mjs");
    const out = await node([vitest, "run", "test/conformance/conformance.test.ts", "test/differential"], ROOT, { GRAPHC_TEST_DIST: "1", NO_COLOR: "1" });
    const passed = /Tests\s+(\d+) passed/.exec(out.replace(/\x1b\[[0-9;]*m/g, ""));
    expect(Number(passed?.[1])).toBeGreaterThan(200);
  }, 600_000);

  it("the bundled runtime's classes keep their names (errors name themselves; instances print by class)", async () => {
    const script = `
      const names = [];
      for (const entry of ["@graphc/runtime", "@graphc/runtime/saver", "@graphc/runtime/tracing"]) {
        for (const [name, value] of Object.entries(await import(entry))) {
          if (typeof value === "function" && /^class\\b/.test(Function.prototype.toString.call(value))) names.push([name, value.name]);
        }
      }
      const { GraphRecursionError, MemorySaver } = await import("@graphc/runtime");
      console.log(JSON.stringify({ names, error: new GraphRecursionError(3).name, saver: new MemorySaver().constructor.name }));`;
    const out = JSON.parse(await node(["--input-type=module", "-e", script], app)) as { names: [string, string][]; error: string; saver: string };
    expect(out.names.length).toBeGreaterThan(20);
    for (const [exported, name] of out.names) expect(name).toBe(exported);
    expect(out.error).toBe("GraphRecursionError");
    expect(out.saver).toBe("MemorySaver");
  });

  it("installing graphc runs no native build: no installed package has an install script or binding.gyp", () => {
    const modules = join(app, "node_modules");
    const native = filesUnder(modules).filter((f) => {
      if (f.endsWith("binding.gyp")) return true;
      if (!f.endsWith("package.json") || f.includes(join("node_modules", "node_modules"))) return false;
      const pkg = JSON.parse(readFileSync(join(modules, f), "utf8")) as { scripts?: Record<string, string>; gypfile?: boolean };
      return pkg.gypfile === true || ["preinstall", "install", "postinstall"].some((s) => pkg.scripts?.[s] !== undefined);
    });
    expect(native).toEqual([]);
    expect(existsSync(join(modules, "better-sqlite3"))).toBe(false);
  });
});

/** Names of the packages `npm ls` reports installed outside devDependencies, sorted. */
async function productionPackages(dir: string): Promise<string[]> {
  const tree = JSON.parse(await sh("npm", ["ls", "--omit=dev", "--all", "--json"], dir)) as Tree;
  const names = new Set<string>();
  const walk = (t: Tree) => {
    for (const [name, child] of Object.entries(t.dependencies ?? {})) {
      // an optional peer nobody installed (the runtime's @opentelemetry/api) is listed with no version
      if (child.version === undefined) continue;
      names.add(name);
      walk(child);
    }
  };
  walk(tree);
  return [...names].sort();
}

interface Tree {
  dependencies?: Record<string, Tree>;
  version?: string;
}

function readdirNames(dir: string): string[] {
  return filesUnder(dir).filter((f) => !f.includes("/"));
}
