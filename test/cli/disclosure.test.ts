/**
 * File disclosure (issue 8, defect 1): a `subgraph … from` path or `.graph` import that resolves outside the
 * project root (absolute, `../` climbing out, a symlink leading out) is G2030, quoting the path and never the
 * file's content; non-`.graph` targets are never read; `build` never writes outside the root. The secret
 * file lives in the system temp folder, outside the temporary project (which has its own package.json).
 */
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { check, compile, nodeHost, renderPretty } from "../../compiler/index.ts";
import { HELLO_GRAPH, HELLO_NODES, project, run } from "./harness.ts";

const MARKER = "SECRET-MARKER-7f3a";
const outside = mkdtempSync(join(tmpdir(), "graphc-secret-"));
// not a graph: had it been read, its syntax errors would print these lines in code frames
const SECRET_TEXT = `${MARKER} line one\ntoken = "${MARKER}-2"\ngraph ${MARKER} {\n`;
const secretGraph = join(outside, "secret.graph");
writeFileSync(secretGraph, SECRET_TEXT);
writeFileSync(join(outside, "target.ts"), `// ${MARKER}\n`);

const parent = (from: string) => `graph Parent {
  state { name: string }
  subgraph s from ${JSON.stringify(from)}
  START -> s -> END
}
`;

const p = project({
  "package.json": "{}\n",
  "abs.graph": parent(secretGraph),
  "environ.graph": parent("/proc/self/environ"),
  "notes.txt": `${MARKER} not a graph\n`,
  "txt.graph": parent("./notes.txt"),
  "link-file.graph": parent("./inner.graph"),
  "link-dir.graph": parent("./linked/secret.graph"),
  "hello.graph": HELLO_GRAPH,
  "hello.nodes.ts": HELLO_NODES,
  "nested/ok.graph": `graph Ok {
  state { name: string, greeting: string }
  subgraph hello from "../hello.graph"
  START -> hello -> END
}
`,
});
// `../` segments from inside the project up to the secret
const climbing = relative(join(p.dir, "sub"), secretGraph).replace(/\\/g, "/");
p.write("sub/rel.graph", parent(climbing));
symlinkSync(secretGraph, join(p.dir, "inner.graph"));
symlinkSync(outside, join(p.dir, "linked"));
afterAll(() => {
  p.remove();
  rmSync(outside, { recursive: true, force: true });
});

/** the output names the path (as written) and the code, and holds no line of the secret file */
function expectRefused(output: string, path: string) {
  expect(output).toContain("G2030");
  expect(output).toContain(path);
  expect(output).not.toContain(MARKER);
}

const ESCAPES = [
  ["an absolute path", "abs.graph", secretGraph],
  ["`../` climbing out", "sub/rel.graph", climbing],
  ["/proc/self/environ", "environ.graph", "/proc/self/environ"],
  ["a symlinked file", "link-file.graph", "./inner.graph"],
  ["a symlinked folder", "link-dir.graph", "./linked/secret.graph"],
] as const;

describe("paths outside the project root", () => {
  for (const [what, file, path] of ESCAPES) {
    it(`check refuses ${what} without reading it (pretty and JSON)`, async () => {
      const pretty = await run(p.dir, ["check", file]);
      expect(pretty.code).toBe(1);
      expectRefused(pretty.stderr, path);
      const json = await run(p.dir, ["check", "--format", "json", file]);
      expect(json.code).toBe(1);
      expectRefused(json.stdout, path);
    });
  }

  it("build refuses them too and writes nothing", async () => {
    const r = await run(p.dir, ["build", "--no-typecheck", "abs.graph", "link-dir.graph"]);
    expect(r.code).toBe(1);
    expectRefused(r.stderr, "./linked/secret.graph");
    expect(r.stdout).toBe("");
    expect(readFileSync(secretGraph, "utf8")).toBe(SECRET_TEXT);
  });

  it("never reads a non-.graph target: `from \"./notes.txt\"` looks only for notes.txt.graph", async () => {
    const r = await run(p.dir, ["check", "txt.graph"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("G5006");
    expect(r.stderr).toContain("notes.txt.graph");
    expect(r.stderr).not.toContain(MARKER);
  });

  it("accepts `../` that stays inside the root", async () => {
    const r = await run(p.dir, ["check", "--no-typecheck", "nested/ok.graph"]);
    expect(r.stderr).toContain("no problems");
    expect(r.code).toBe(0);
  });

  it("--root narrows the root: an entry outside it is refused, unread", async () => {
    const r = await run(p.dir, ["check", "--root", "nested", "hello.graph"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("G2030");
    expect(r.stderr).toContain("`hello.graph` is outside the project root");
    expect(r.stderr).toContain("--root");
    expect(r.stderr).not.toContain("graph Hello");
    expect((await run(p.dir, ["check", "--root", "nope", "hello.graph"])).code).toBe(2);
  });

  it("--root widens the root: the secret's folder as root lets it be read (the rule, not a blanket ban)", async () => {
    const r = await run(p.dir, ["check", "--root", "/", "abs.graph"]);
    expect(r.stderr).not.toContain("G2030");
    expect(r.stderr).toContain(MARKER);
  });
});

describe("the API", () => {
  const abs = (f: string) => join(p.dir, f);

  it("check() and compile() refuse escapes, and rendering with the real file system shows none of the file", async () => {
    for (const [, file, path] of ESCAPES) {
      const { diagnostics } = check([abs(file)], nodeHost());
      const text = renderPretty(diagnostics, { readFile: (f) => nodeHost().readFile(f) });
      expectRefused(text, path);
      expect(diagnostics.map((x) => x.code)).toEqual(["G2030"]);
      const span = diagnostics[0]!.span;
      expect(span.file).toBe(abs(file));
      // the span covers the path string in the referring file
      expect(readFileSync(abs(file), "utf8").slice(span.start.offset, span.end.offset)).toBe(JSON.stringify(path));
      const compiled = await compile([abs(file)], { typecheck: false });
      expect(compiled.files).toEqual([]);
      expect(compiled.diagnostics.map((x) => x.code)).toEqual(["G2030"]);
    }
  });

  it("takes an explicit `root`", async () => {
    const inside = await compile([abs("nested/ok.graph")], { root: p.dir, typecheck: false });
    expect(inside.diagnostics).toEqual([]);
    const narrow = await compile([abs("nested/ok.graph")], { root: abs("nested"), typecheck: false });
    expect(narrow.diagnostics.map((x) => `${x.code} ${x.message}`)).toEqual([
      "G2030 `../hello.graph` is outside the project root, so graphc does not read it",
    ]);
  });
});

describe("the writer", () => {
  it("refuses an output whose real path leads outside the root (a symlinked .graph.ts)", async () => {
    const q = project({ "package.json": "{}\n", "hello.graph": HELLO_GRAPH, "hello.nodes.ts": HELLO_NODES });
    try {
      symlinkSync(join(outside, "target.ts"), join(q.dir, "hello.graph.ts"));
      const r = await run(q.dir, ["build", "--no-typecheck", "hello.graph"]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("refusing to write `hello.graph.ts`");
      expect(r.stdout).toBe("");
      expect(readFileSync(join(outside, "target.ts"), "utf8")).toBe(`// ${MARKER}\n`);
    } finally {
      q.remove();
    }
  });
});
