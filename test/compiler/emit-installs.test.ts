/**
 * A file whose graphs are all lean-eligible imports "@graphc/runtime/core" and, with the default runtime
 * ("full"), installs streaming from "@graphc/runtime/install" itself (5-emit/file.ts): not Command input,
 * which a `Command` brings when it is made (runtime/command-class.ts), no node policies, which such graphs
 * have none of, and no full graph, which only a saver or a tracer needs. The install function is aliased
 * when the user's file takes its name, and the module's graph streams, takes a Command as input and runs
 * with maxConcurrency with nothing else imported (this test file imports no runtime entry that installs
 * anything).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildFiles } from "graphc";
import { Command } from "../../runtime/core.ts";
import { features } from "../../runtime/features.ts";
import { tempDir, type TempDir } from "../temp-dir.ts";

const GRAPH = `import { installStreaming, other } from "./nodes.ts"

graph App {
  state {
    count: number = 0
  }
  node a({ count }) -> { count } = installStreaming
  node b({ count }) -> { count } = other
  START -> a -> b -> END
}
`;

const NODES = `export function installStreaming(s: { count: number }): { count: number } {
  return { count: s.count + 1 };
}
export function other(s: { count: number }): { count: number } {
  return { count: s.count + 10 };
}
`;

type App = {
  invoke(input: unknown, config?: object): Promise<unknown>;
  stream(input: unknown, options?: object): AsyncIterable<unknown>;
};

describe("installs of a lean-eligible file built with the default runtime", () => {
  let tmp: TempDir;
  let text = "";
  let App: App;
  beforeAll(async () => {
    tmp = tempDir("installs");
    writeFileSync(join(tmp.dir, "app.graph"), GRAPH);
    writeFileSync(join(tmp.dir, "nodes.ts"), NODES);
    const { outputs, diagnostics } = await buildFiles([join(tmp.dir, "app.graph")], { typecheck: false, importExt: "ts" });
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    for (const o of outputs) writeFileSync(o.path, o.text);
    text = outputs.find((o) => o.path.endsWith("app.graph.ts"))!.text;
    expect(features.stream).toBeUndefined();
    ({ App } = (await import(pathToFileURL(join(tmp.dir, "app.graph.ts")).href)) as { App: App });
  }, 60_000);
  afterAll(() => tmp.remove());

  it("imports core and the install functions, aliased past the user's names, and calls them", () => {
    expect(text).toContain('} from "@graphc/runtime/core";');
    expect(text).toContain('import { installStreaming as installStreaming_2 } from "@graphc/runtime/install";');
    expect(text).toContain('import { installStreaming, other } from "./nodes.ts";');
    expect(text).toMatch(/^installStreaming_2\(\);$/m);
    expect(text).not.toContain("installSmallRuns");
  });

  it("installs streaming, not Command input (a Command brings it), node policies nor the full graph", async () => {
    expect(features.stream).toBeDefined();
    expect(features.smallInput).toBeUndefined();
    expect(features.leanWrites).toBeUndefined();
    expect(features.input).toBeUndefined();
    expect(features.graph).toBeUndefined();
    expect(features.policy).toBeUndefined();
    expect(features.durable).toBeUndefined();
    const chunks: unknown[] = [];
    for await (const c of App.stream({ count: 0 }, { streamMode: "values" })) chunks.push(c);
    expect(chunks).toEqual([{ count: 0 }, { count: 1 }, { count: 11 }]);
    // a Command as input and maxConcurrency run on the graph's own loop: making the Command installed its part
    expect(await App.invoke(new Command({ update: { count: 5 }, goto: "b" }))).toEqual({ count: 15 });
    expect(features.smallInput).toBeDefined();
    await expect(App.invoke(new Command({ resume: 1 }))).rejects.toThrow("Cannot use Command(resume=...) without checkpointer");
    expect(await App.invoke({ count: 0 }, { maxConcurrency: 1 })).toEqual({ count: 11 });
    // breakpoints without a saver need the full graph, which nothing installed: the error names the import
    await expect(App.invoke({ count: 0 }, { interruptBefore: ["b"] })).rejects.toThrow(/interruptBefore\/interruptAfter needs a part of the runtime.*"@graphc\/runtime"/);
    // a tracer of the user's own needs the full graph, which nothing installed: the error names the import
    await expect(App.invoke({ count: 0 }, { tracing: { start: () => ({}) } })).rejects.toThrow(/tracing needs a part of the runtime.*"@graphc\/runtime"/);
    expect(features.graph).toBeUndefined();
  });
});
