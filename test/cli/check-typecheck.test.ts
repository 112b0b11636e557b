/**
 * `graphc check` runs every check `build` runs (issue 14): the TypeScript pass over node functions included
 * (`--no-typecheck` skips it); a runtime that does not resolve, or a CommonJS package, is one error with its
 * fix, not a dozen cascades; an empty `.graph` file is a warning.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { check, memoryHost } from "../../compiler/index.ts";
import { LEAN_RUNTIME_MODULE, packageOf, RUNTIME_MODULE, RUNTIME_PACKAGE } from "../../compiler/phases/5-emit/runtime-api.ts";
import { HELLO_GRAPH, HELLO_NODES, project, run } from "./harness.ts";

const WRONG_GRAPH = `import { greet, pick, missing } from "./wrong.nodes.ts"

graph Wrong {
  state { name: string, greeting: string = "" }
  node greet({ name }) -> { greeting } = greet
  node gone({ name }) -> { greeting } = missing
  START -> greet -> gone -> route(pick) { x: END }
}
`;
const WRONG_NODES = `/** returns a number for a string field */
export function greet(s: { name: string }) { return { greeting: s.name.length }; }
/** returns a key the router's cases do not list */
export function pick(): "y" { return "y"; }
`;

const p = project({
  "wrong.graph": WRONG_GRAPH,
  "wrong.nodes.ts": WRONG_NODES,
  "empty.graph": "",
  "comments.graph": "// nothing yet\n",
});
afterAll(() => p.remove());

const codes = (stderr: string) => [...stderr.matchAll(/^(error|warning)\[(G\d{4})\]/gm)].map((m) => m[2]);

describe("graphc check and the TypeScript pass", () => {
  it("reports what build reports: node (G3092), router (G3093) and other TypeScript errors (G3094)", async () => {
    const checked = await run(p.dir, ["check", "wrong.graph"]);
    expect(checked.code).toBe(1);
    expect(codes(checked.stderr).sort()).toEqual(["G3092", "G3093", "G3094"]);
    const built = await run(p.dir, ["build", "--check", "wrong.graph"]);
    expect(codes(built.stderr).sort()).toEqual(codes(checked.stderr).sort());
    const json = JSON.parse((await run(p.dir, ["check", "--format", "json", "wrong.graph"])).stdout) as { code: string }[];
    expect(json.map((d) => d.code).sort()).toEqual(["G3092", "G3093", "G3094"]);
  });

  it("--no-typecheck skips it", async () => {
    const r = await run(p.dir, ["check", "--no-typecheck", "wrong.graph"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("no problems");
  });
});

describe("a runtime that does not resolve", () => {
  // outside this repository `graphc/runtime` resolves to nothing, as in a project that has not installed it
  const dir = mkdtempSync(join(tmpdir(), "graphc-noruntime-"));
  writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
  writeFileSync(join(dir, "hello.graph"), HELLO_GRAPH);
  writeFileSync(join(dir, "hello.nodes.ts"), HELLO_NODES);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("is one error naming the module and the package to install, for check and build", async () => {
    for (const argv of [["check"], ["build", "--check"]]) {
      const r = await run(dir, [...argv, "hello.graph"]);
      expect(r.code).toBe(1);
      expect(codes(r.stderr)).toEqual(["G3095"]);
      // the module the generated file imports: a graph without node policies imports the runtime's core
      expect(r.stderr).toContain(`\`${LEAN_RUNTIME_MODULE}\``);
      expect(r.stderr).toContain(`npm install ${RUNTIME_PACKAGE}`);
      expect(r.stderr).not.toContain("implicitly has an 'any' type");
      expect(r.stderr).toContain("1 error\n");
    }
  }, 60_000);

  it("names the package the runtime module belongs to, whatever the module is called", () => {
    expect(packageOf("@graphc/runtime")).toBe("@graphc/runtime");
    expect(packageOf("@graphc/runtime/core")).toBe("@graphc/runtime");
    expect(packageOf("graphc/runtime")).toBe("graphc");
    expect(RUNTIME_PACKAGE).toBe(packageOf(RUNTIME_MODULE));
  });
});

describe("a CommonJS package", () => {
  // generated code is an ES module: in a package without "type": "module" TypeScript reported TS1295/TS1287
  // at every import and export of it, one G3094 per line; it is one error with the fix instead
  const dir = mkdtempSync(join(tmpdir(), "graphc-cjs-"));
  writeFileSync(join(dir, "hello.graph"), HELLO_GRAPH);
  writeFileSync(join(dir, "hello.nodes.ts"), HELLO_NODES);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("is one error naming package.json and the fix, for check and build; nothing is written", async () => {
    writeFileSync(join(dir, "package.json"), '{ "name": "cjs-app" }\n');
    for (const argv of [["check"], ["build"]]) {
      const r = await run(dir, [...argv, "hello.graph"]);
      expect(r.code).toBe(1);
      expect(codes(r.stderr)).toEqual(["G3096"]);
      expect(r.stderr).toContain("`package.json` makes `.ts` files there CommonJS");
      expect(r.stderr).toContain('add `"type": "module"`');
      expect(r.stderr).toContain("1 error\n");
    }
    expect(existsSync(join(dir, "hello.graph.ts"))).toBe(false);
  }, 60_000);

  it("is not reported under bundler resolution, where the package's type does not decide", async () => {
    // a folder of its own: graphc reads a folder's tsconfig.json once per process
    const bundled = mkdtempSync(join(tmpdir(), "graphc-cjs-bundler-"));
    try {
      writeFileSync(join(bundled, "package.json"), '{ "name": "cjs-app" }\n');
      writeFileSync(join(bundled, "tsconfig.json"), '{ "compilerOptions": { "module": "esnext", "moduleResolution": "bundler" } }\n');
      writeFileSync(join(bundled, "hello.graph"), HELLO_GRAPH);
      writeFileSync(join(bundled, "hello.nodes.ts"), HELLO_NODES);
      // outside this repository the runtime is not installed: the next error in line
      expect(codes((await run(bundled, ["check", "hello.graph"])).stderr)).toEqual(["G3095"]);
    } finally {
      rmSync(bundled, { recursive: true, force: true });
    }
  }, 60_000);

  it('is fixed by "type": "module"', async () => {
    writeFileSync(join(dir, "package.json"), '{ "name": "cjs-app", "type": "module" }\n');
    expect(codes((await run(dir, ["check", "hello.graph"])).stderr)).toEqual(["G3095"]);
  }, 60_000);
});

describe("files that declare nothing", () => {
  it("an empty file and a comments-only file are warnings (G4020): exit 0, not `no problems`", async () => {
    const r = await run(p.dir, ["check", "empty.graph", "comments.graph"]);
    expect(r.code).toBe(0);
    expect(codes(r.stderr)).toEqual(["G4020", "G4020"]);
    expect(r.stderr).toContain("`empty.graph` is empty");
    expect(r.stderr).toContain("`comments.graph` declares no graph and no type");
    expect(r.stderr).not.toContain("no problems");
  });

  it("a file of only imports is one too; a file of only types is a type library and is not", () => {
    const host = memoryHost({ "imports.graph": 'import { f } from "./f.ts"\n', "types.graph": "type Id = string\n" });
    expect(check(["imports.graph"], host).diagnostics.map((x) => x.code)).toEqual(["G4020"]);
    expect(check(["types.graph"], host).diagnostics).toEqual([]);
  });
});
