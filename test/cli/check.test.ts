/** `graphc check` and the CLI frame (exit codes, file arguments, colour), run in-process. */
import { afterAll, describe, expect, it } from "vitest";
import { BROKEN_GRAPH, HELLO_GRAPH, HELLO_NODES, project, run } from "./harness.ts";

const p = project({
  "hello.graph": HELLO_GRAPH,
  "hello.nodes.ts": HELLO_NODES,
  "sub/broken.graph": BROKEN_GRAPH.replace("./hello.nodes.ts", "../hello.nodes.ts"),
  "node_modules/dep/ignored.graph": "this is not even a graph",
  ".hidden/ignored.graph": "neither is this",
  "docs/readme.txt": "no graphs here",
});
afterAll(() => p.remove());

const ANSI = /\u001b\[/;

describe("graphc check", () => {
  it("exits 0 on a clean file and says so", async () => {
    const r = await run(p.dir, ["check", "hello.graph"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("checked 1 file: no problems");
  });

  it("exits 1 on an error and prints a code frame with the location and a hint", async () => {
    const r = await run(p.dir, ["check", "sub/broken.graph"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/error\[G\d{4}\]: .*greeet/);
    expect(r.stderr).toContain("--> sub/broken.graph:13:12");
    expect(r.stderr).toContain("START -> greeet -> END");
    expect(r.stderr).toContain("did you mean `greet`?");
    expect(r.stderr).not.toMatch(ANSI);
  });

  it("checks every .graph file under the working directory by default, skipping node_modules and dot-dirs", async () => {
    const r = await run(p.dir, ["check"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("sub/broken.graph");
    expect(r.stderr).not.toContain("ignored.graph");
  });

  it("accepts directories and globs", async () => {
    expect((await run(p.dir, ["check", "sub"])).code).toBe(1);
    expect((await run(p.dir, ["check", "*.graph"])).code).toBe(0);
    expect((await run(p.dir, ["check", "**/broken.{graph,txt}"])).code).toBe(1);
  });

  it("prints LSP-style JSON on stdout with --format json", async () => {
    const r = await run(p.dir, ["check", "--format", "json", "sub/broken.graph"]);
    expect(r.code).toBe(1);
    const diags = JSON.parse(r.stdout) as { code: string; file: string; severity: number; range: { start: { line: number; character: number } } }[];
    const d = diags.find((x) => x.severity === 1)!;
    expect(d.file).toBe("sub/broken.graph");
    expect(d.code).toMatch(/^G\d{4}$/);
    expect(d.range.start).toEqual({ line: 12, character: 11 });
    expect(JSON.parse((await run(p.dir, ["check", "--format", "json", "hello.graph"])).stdout)).toEqual([]);
  });

  it("uses colour on a terminal only, and never with NO_COLOR", async () => {
    expect((await run(p.dir, ["check", "sub/broken.graph"], { tty: true })).stderr).toMatch(ANSI);
    expect((await run(p.dir, ["check", "sub/broken.graph"], { tty: true, env: { NO_COLOR: "1" } })).stderr).not.toMatch(ANSI);
    expect((await run(p.dir, ["check", "sub/broken.graph"], { env: { FORCE_COLOR: "1" } })).stderr).toMatch(ANSI);
  });
});

describe("usage errors exit 2", () => {
  const cases: [string, string[], RegExp][] = [
    ["an unknown command", ["frobnicate"], /unknown command/],
    ["an unknown flag", ["check", "--nope"], /unknown option '--nope'/],
    ["a bad --format", ["check", "--format", "xml"], /xml.*invalid|invalid.*xml/i],
    ["a missing file", ["check", "missing.graph"], /cannot read `missing.graph`/],
    ["a glob matching nothing", ["check", "nothing/**/*.graph"], /no \.graph files match `nothing\/\*\*\/\*\.graph`/],
    ["a directory without .graph files", ["check", "docs"], /no \.graph files match `docs`/],
    ["no command at all", [], /Usage: graphc/],
  ];
  for (const [what, argv, message] of cases) {
    it(what, async () => {
      const r = await run(p.dir, argv);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
    });
  }

  it("--help and --version exit 0", async () => {
    const help = await run(p.dir, ["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("check");
    const version = await run(p.dir, ["--version"]);
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});
