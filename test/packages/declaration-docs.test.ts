/**
 * The published runtime keeps the editor docs of its public members (scripts/declaration-docs.mjs): the
 * build refuses declarations without them, and the sources must carry them as doc comments (a line comment
 * never reaches the declarations).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { tempDir } from "../temp-dir.ts";

interface Docs {
  PUBLIC_DOCS: Readonly<Record<string, Record<string, readonly string[]>>>;
  missingDocs(dist: string, expected?: Docs["PUBLIC_DOCS"], ext?: string): string[];
  checkDocs(dist: string): void;
}

const ROOT = join(import.meta.dirname, "..", "..");
const { PUBLIC_DOCS, missingDocs, checkDocs } = (await import(pathToFileURL(join(ROOT, "scripts", "declaration-docs.mjs")).href)) as Docs;

describe("editor docs of the published declarations", () => {
  it("the runtime's sources document every listed member with a doc comment", () => {
    expect(PUBLIC_DOCS.spec?.GraphSpec).toContain("apply");
    expect(PUBLIC_DOCS["static/graph"]?.StaticGraph).toEqual(expect.arrayContaining(["*", "invoke", "withConfig", "stream"]));
    expect(missingDocs(join(ROOT, "runtime"), PUBLIC_DOCS, ".ts")).toEqual([]);
  });

  it("finds a member without its doc comment, and a doc inherited through an imported base class", () => {
    const tmp = tempDir("declaration-docs");
    try {
      const dist = join(tmp.dir, "dist");
      mkdirSync(join(dist, "lean"), { recursive: true });
      writeFileSync(join(dist, "base.d.ts"), "/** A base. */\nexport class Base {\n\t/** Runs. */\n\tinvoke(): void;\n\tclearCache(): void;\n}\n");
      writeFileSync(
        join(dist, "lean", "graph.d.ts"),
        'import { Base } from "../base.js";\n/** A graph. */\nexport class LeanGraph extends Base {\n\twithConfig(): this;\n}\n',
      );
      writeFileSync(join(dist, "spec.d.ts"), "export interface Spec {\n\t// a line comment is no doc\n\treadonly name: string;\n\t/** the nodes */\n\treadonly nodes: string[];\n}\n");
      const expected = { "lean/graph": { LeanGraph: ["*", "invoke", "withConfig", "clearCache"] }, spec: { Spec: ["*", "nodes", "name"], Gone: ["*"] } };
      expect(missingDocs(dist, expected)).toEqual(["lean/graph: LeanGraph.withConfig", "lean/graph: LeanGraph.clearCache", "spec: Spec", "spec: Spec.name", "spec: Gone"]);
      // the real list against this dist: the build throws, naming what is missing
      expect(() => checkDocs(dist)).toThrow(/lost editor docs: spec: GraphSpec, spec: GraphSpec\.compilerVersion/);
    } finally {
      tmp.remove();
    }
  });
});
