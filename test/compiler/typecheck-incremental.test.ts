/**
 * The TypeScript pass across builds of one process (the language server's build per keystroke, `--watch`):
 * a draft whose text did not change is checked again when a draft it imports changed, so an error that
 * comes from another file's change is still found, and goes away again when that change is undone.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compile } from "../../compiler/index.ts";
import { tempDir } from "../temp-dir.ts";

const t = tempDir("ts-incremental");
afterAll(() => t.remove());

// the node module takes its parameter type from another graph's generated code: a change there leaves
// user.graph's generated text as it was
const TYPES = (type: string) => `type Name = ${type}\n`;
const USER = `import { keep } from "./user.nodes.ts"

graph User {
  state { item: { name: string } }
  node keep({ item }) -> { item } = keep
  START -> keep -> END
}
`;
const NODES = `import type { Name } from "./types.graph.ts";
export function keep(s: { item: { name: Name } }) { return { item: s.item }; }
`;

const build = async (type: string) => {
  writeFileSync(join(t.dir, "types.graph"), TYPES(type));
  const { diagnostics } = await compile([join(t.dir, "user.graph"), join(t.dir, "types.graph")], { cwd: t.dir });
  return diagnostics.map((d) => `${d.code} ${d.span.file.endsWith("user.graph") ? "user" : "types"}:${d.span.start.line}`);
};

describe("incremental TypeScript pass", () => {
  it("re-checks an unchanged draft when a draft it imports changed", async () => {
    writeFileSync(join(t.dir, "user.graph"), USER);
    writeFileSync(join(t.dir, "user.nodes.ts"), NODES);
    expect(await build("string")).toEqual([]);
    // user.graph's generated code is the same text, but `keep` no longer fits it
    expect(await build("number")).toEqual(["G3092 user:5"]);
    expect(await build("number")).toEqual(["G3092 user:5"]);
    expect(await build("string")).toEqual([]);
  }, 120_000);
});
