/**
 * "@graphc/runtime" installs streaming and Command input, not node policies: those come with a graph that
 * has them, whose generated module calls `installPolicies()` (so a program without policies does not bundle
 * the policy part: test/runtime/bundle-size.test.ts). A hand-written spec with policies calls it itself.
 * Vitest runs each test file in its own module graph: nothing here was installed by another file (the last
 * test installs the policies, through the generated module).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { Command, GraphValueError, compileGraph, type GraphSpec } from "@graphc/runtime";
import { buildFiles } from "../../compiler/index.ts";
import { countNode, countSpec } from "./count-spec.ts";
import { tempDir } from "../temp-dir.ts";

const retried: GraphSpec = countSpec("Entry", [countNode("Entry", "a", ["b"], { retry: { maxAttempts: 2, initialInterval: 1, jitter: false } }), countNode("Entry", "b", [])]);

const tmp = tempDir("index-entry");
afterAll(() => tmp.remove());

describe('"@graphc/runtime"', () => {
  it("installs stream() and Command input: both run without any install call", async () => {
    const g = compileGraph(countSpec("Plain", [countNode("Plain", "a", ["b"]), countNode("Plain", "b", [])]));
    const chunks: unknown[] = [];
    for await (const c of g.stream({ count: 0 })) chunks.push(c);
    expect(chunks).toHaveLength(2);
    expect(await g.invoke(new Command({ goto: "b" }))).toEqual({ count: 1, log: ["b"] });
  });

  it("does not install node policies: a hand-written spec with them gets the error naming installPolicies", async () => {
    const err = await compileGraph(retried)
      .invoke({ count: 0 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GraphValueError);
    expect((err as Error).message).toContain('call installPolicies() from "@graphc/runtime/install"');
  });

  it("the generated module of a graph with policies installs them itself: its retried node runs", async () => {
    writeFileSync(
      join(tmp.dir, "flaky.graph"),
      `import { flaky } from "./flaky.nodes.ts"\n\ngraph Flaky {\n  state { tries: number = 0 }\n` +
        `  node flaky({ tries }) -> { tries } = flaky { retry { attempts: 3, backoff: 1ms, jitter: false } }\n  START -> flaky -> END\n}\n`,
    );
    writeFileSync(
      join(tmp.dir, "flaky.nodes.ts"),
      `let calls = 0;\nexport function flaky(s: { tries: number }): { tries: number } {\n  if (++calls < 3) throw new Error("not yet");\n  return { tries: s.tries + calls };\n}\n`,
    );
    const { outputs, diagnostics } = await buildFiles([join(tmp.dir, "flaky.graph")], { typecheck: false, importExt: "ts" });
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    for (const o of outputs) writeFileSync(o.path, o.text);
    expect(outputs[0]!.text).toContain("installPolicies();");
    const { Flaky } = (await import(pathToFileURL(join(tmp.dir, "flaky.graph.ts")).href)) as { Flaky: ReturnType<typeof compileGraph> };
    expect(await Flaky.invoke({})).toEqual({ tries: 3 });
  });
});
