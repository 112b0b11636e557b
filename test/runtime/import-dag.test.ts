/**
 * runtime/'s import graph is a DAG (issue 9): every module's imports, type-only ones included (`import type`,
 * `export … from`, `import("./x.ts")` in types), read from the sources. A cycle fails the test and is named
 * module by module, so the narrow contracts (runtime/contracts.ts) stay what the loop and its optional parts
 * meet on, instead of each other.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const RUNTIME = fileURLToPath(new URL("../../runtime/", import.meta.url));

/** `from "./x.ts"`, `import "./x.ts"`, `import("./x.ts")`: every relative specifier of a module. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](\.\.?\/[^"']+)["']/g;

function importsOf(file: string, text: string): string[] {
  // comments may quote code (`import("./durable.ts")` in a doc comment is not an import)
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
  return [...code.matchAll(SPECIFIER)].map((m) => relative(RUNTIME, join(dirname(file), m[1]!)));
}

/** The runtime's modules and their imports, by path relative to runtime/ (the sources, not dist/). */
function runtimeGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const f of readdirSync(RUNTIME, { recursive: true, encoding: "utf8" })) {
    if (!f.endsWith(".ts") || f.endsWith(".d.ts") || f.split("/").some((s) => s === "dist" || s === "node_modules")) continue;
    graph.set(f, importsOf(join(RUNTIME, f), readFileSync(join(RUNTIME, f), "utf8")));
  }
  return graph;
}

/** Every cycle's modules in import order (one per strongly connected component), none when it is a DAG. */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (m: string): void => {
    state.set(m, "open");
    stack.push(m);
    for (const d of graph.get(m) ?? []) {
      const s = state.get(d);
      if (s === "open") found.push([...stack.slice(stack.indexOf(d)), d]);
      else if (s === undefined && graph.has(d)) visit(d);
    }
    stack.pop();
    state.set(m, "done");
  };
  for (const m of [...graph.keys()].sort()) if (!state.has(m)) visit(m);
  return found;
}

describe("runtime/ import graph", () => {
  it("reads value, type-only and inline type imports, not imports quoted in comments", () => {
    const text = [
      'import { a } from "./a.ts";',
      'import type { B } from "./b.ts";',
      'export { c } from "./c.ts";',
      'type D = typeof import("./d.ts");',
      '/** see import("./e.ts") */',
      '// import { f } from "./f.ts";',
      'import "./g.ts";',
    ].join("\n");
    expect(importsOf(join(RUNTIME, "x.ts"), text)).toEqual(["a.ts", "b.ts", "c.ts", "d.ts", "g.ts"]);
  });

  it("finds and names a cycle", () => {
    const g = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts"]],
      ["d.ts", ["a.ts"]],
    ]);
    expect(cycles(g)).toEqual([["a.ts", "b.ts", "c.ts", "a.ts"]]);
    expect(cycles(new Map([["a.ts", ["b.ts"]], ["b.ts", []]]))).toEqual([]);
  });

  it("has no cycle, type imports included", () => {
    const graph = runtimeGraph();
    expect(graph.size).toBeGreaterThan(30);
    expect(graph.get("loop.ts")).toContain("contracts.ts");
    expect(cycles(graph).map((c) => c.join(" → "))).toEqual([]);
  });
});
