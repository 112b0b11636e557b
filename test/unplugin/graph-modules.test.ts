/**
 * The compile cache behind every bundler (unplugin/graph-modules.ts): what each graph module depends on,
 * when a module is reused and when it is recompiled, and the generated files it keeps beside the graphs.
 */
import { appendFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { GraphModules, type CompiledGraph, type LoadOutcome } from "../../unplugin/graph-modules.ts";
import { resolveOptions } from "../../unplugin/options.ts";
import { copyApp } from "./app.ts";

const app = copyApp("graph-modules");
afterAll(() => app.remove());
const at = (f: string) => join(app.dir, f);

function compiled(outcome: LoadOutcome): CompiledGraph {
  if (!outcome.ok) throw new Error(outcome.errors.map((e) => e.message).join("\n"));
  return outcome.graph;
}

describe("GraphModules", () => {
  // no TypeScript pass: what is cached does not depend on it, and it is the slow part
  const modules = new GraphModules(resolveOptions({ cwd: app.dir, typecheck: false, writeGenerated: false }));

  it("each graph depends on its file, its node modules and the graphs it imports; a nested graph on neither its importer nor more", async () => {
    const appGraph = compiled(await modules.load(at("app.graph")));
    expect([...appGraph.deps].sort()).toEqual([at("app.graph"), at("nodes.ts"), at("research.graph")]);
    const research = compiled(await modules.load(at("research.graph")));
    expect([...research.deps].sort()).toEqual([at("nodes.ts"), at("research.graph")]);
  });

  it("reuses a module while its dependencies are unchanged; an edit recompiles the graphs it can change and no other", async () => {
    const appGraph = compiled(await modules.load(at("app.graph")));
    const research = compiled(await modules.load(at("research.graph")));
    expect(compiled(await modules.load(at("app.graph")))).toBe(appGraph);

    appendFileSync(at("app.graph"), "\n// edited\n");
    const appAgain = compiled(await modules.load(at("app.graph")));
    expect(appAgain).not.toBe(appGraph);
    expect(compiled(await modules.load(at("research.graph")))).toBe(research);

    // a node module is a dependency too
    appendFileSync(at("nodes.ts"), "\n// edited\n");
    expect(compiled(await modules.load(at("research.graph")))).not.toBe(research);
    expect(compiled(await modules.load(at("app.graph")))).not.toBe(appAgain);
  });

  it("imports @graphc/runtime/core in a module whose graphs are all lean-eligible, with streaming installed unless runtime: \"lean\"", async () => {
    const lean = new GraphModules(resolveOptions({ cwd: app.dir, typecheck: false, writeGenerated: false, runtime: "lean" }));
    const leanCode = compiled(await lean.load(at("research.graph"))).js.code;
    expect(leanCode).toContain('from "@graphc/runtime/core"');
    expect(leanCode).not.toContain("@graphc/runtime/install");
    // app.graph has a subgraph node: the full runtime, either way
    expect(compiled(await lean.load(at("app.graph"))).js.code).toMatch(/from "@graphc\/runtime";/);
    expect(compiled(await modules.load(at("app.graph"))).js.code).toMatch(/from "@graphc\/runtime";/);
    // the default: streaming (Command input comes with a Command)
    const full = compiled(await modules.load(at("research.graph"))).js.code;
    expect(full).toContain('from "@graphc/runtime/core"');
    expect(full).toMatch(/import \{ installStreaming \} from "@graphc\/runtime\/install";/);
    expect(full).toMatch(/^installStreaming\(\);$/m);
  });

  it("writes no x.graph.ts with writeGenerated: false, and the file graphc build writes with the default", async () => {
    expect(existsSync(at("app.graph.ts"))).toBe(false);
    const writing = new GraphModules(resolveOptions({ cwd: app.dir, typecheck: false }));
    compiled(await writing.load(at("app.graph")));
    expect(existsSync(at("app.graph.ts")) && existsSync(at("app.graph.ts.map")) && existsSync(at("research.graph.ts"))).toBe(true);
  });
});
