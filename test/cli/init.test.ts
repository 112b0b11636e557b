/**
 * `graphc init [dir]`: the files it writes and the folders it refuses. That the scaffold installs, builds
 * and passes its own test is shown by test/consumer/consumer.test.ts, against the packed packages.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { check } from "../../compiler/check.ts";
import { packageName } from "../../compiler/cli/init.ts";
import { nodeHost } from "../../compiler/phases/2-bind/host.ts";
import { project, run } from "./harness.ts";

const p = project({ "busy/notes.txt": "mine" });
afterAll(() => p.remove());

describe("graphc init", () => {
  it("scaffolds package.json scripts, a NodeNext tsconfig, a graph with its node functions, a program and a test", async () => {
    const r = await run(p.dir, ["init", "My Graphs"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("next: cd My Graphs && npm install && npm test");
    const dir = join(p.dir, "My Graphs");
    for (const f of ["tsconfig.json", ".gitignore", "README.md", "src/hello.graph", "src/hello.nodes.ts", "src/main.ts", "test/hello.test.ts"]) {
      expect(existsSync(join(dir, f)), f).toBe(true);
    }
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Record<string, Record<string, string>>;
    expect(pkg["name"]).toBe("my-graphs");
    expect(Object.keys(pkg["dependencies"]!)).toEqual(["@graphc/runtime"]);
    expect(Object.keys(pkg["devDependencies"]!).sort()).toEqual(["@types/node", "graphc", "typescript"]);
    expect(pkg["scripts"]!["test"]).toBe("npm run build && node --test dist/test/hello.test.js");
  });

  it("writes a graph that checks cleanly", () => {
    const { diagnostics } = check([join(p.dir, "My Graphs", "src", "hello.graph")], nodeHost());
    expect(diagnostics).toEqual([]);
  });

  it("refuses a folder that already holds files (exit 2), and writes nothing into it", async () => {
    const r = await run(p.dir, ["init", "busy"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("busy is not empty (notes.txt)");
    expect(existsSync(join(p.dir, "busy", "package.json"))).toBe(false);
  });

  it("derives a valid npm package name from the folder", () => {
    expect(packageName("My Graphs")).toBe("my-graphs");
    expect(packageName("_x.y")).toBe("x.y");
    expect(packageName("!!!")).toBe("graphc-app");
  });
});
