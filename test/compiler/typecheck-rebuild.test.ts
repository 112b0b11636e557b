/**
 * Rebuilds in one process (`graphc build --watch`, an IDE) keep what the TypeScript pass learnt where it
 * still holds: a generated file whose text, line table and imports did not change keeps its diagnostics.
 * These tests change one thing at a time and check that what it affects is seen on the next build: the
 * `.graph` file alone, a child `.graph` file that an unchanged parent file imports, the user's module, the
 * `.graph` file and the module together, and a module created after a build that could not find it.
 */
import { mkdirSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { compile } from "../../compiler/index.ts";
import { nativeChecks } from "../../compiler/phases/5-emit/ts-native.ts";

const DIR = "test/_tmp-emit/typecheck-rebuild";

const CHILD = (type: string) => `graph Child {
  state { text: ${type} }
  node keep({ text }) -> { text } = keep
  START -> keep -> END
}
import { keep } from "./rebuild.nodes.ts"
`;
const PARENT = `import { Child } from "./child.graph"
import { toChild, count } from "./rebuild.nodes.ts"
graph Parent {
  state { a: string, n: number = 0 }
  node count({ a }) -> { n } = count
  subgraph child = Child { in = toChild  out { } }
  START -> count -> child -> END
}
`;
const NODES = `export function keep<T>(s: { text: T }) { return { text: s.text }; }
export function toChild(s: { a: string }) { return { text: s.a }; }
export function count(s: { a: string }) { return { n: s.a.length }; }
`;

/** `count` typed with the child's state: fits the parent's `n: number` only while the child's `text` is a number */
const COUNT_VIA_CHILD = `import type { ChildState } from "./child.graph.ts";
export function count(s: { a: string }): { n: ChildState["text"] } { return { n: s.a.length as never }; }`;

const SOLO = `import { count } from "./rebuild.nodes.ts"
graph Solo {
  state { a: string, n: number = 0 }
  node count({ a }) -> { n } = count
  START -> count -> END
}
`;

const build = async () => (await compile([`${DIR}/parent.graph`])).diagnostics.filter((d) => d.severity === "error").map((d) => `${d.code} ${d.span.file.split("/").at(-1)}:${d.span.start.line}`);

beforeAll(() => {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  writeFileSync(`${DIR}/child.graph`, CHILD("string"));
  writeFileSync(`${DIR}/parent.graph`, PARENT);
  writeFileSync(`${DIR}/rebuild.nodes.ts`, NODES);
});

describe("rebuilds in one process", () => {
  it("see an edit of the .graph file alone", async () => {
    expect(await build()).toEqual([]);
    expect(await build()).toEqual([]);
    writeFileSync(`${DIR}/parent.graph`, PARENT.replace("n: number = 0", `n: string = ""`));
    expect(await build()).toEqual(["G3092 parent.graph:5"]);
    writeFileSync(`${DIR}/parent.graph`, PARENT);
    expect(await build()).toEqual([]);
  });

  it("re-check an unchanged generated file when a file it imports changed", async () => {
    // the parent's generated text does not change; the child's input type does, and `toChild` no longer fits it
    writeFileSync(`${DIR}/child.graph`, CHILD("number"));
    expect(await build()).toEqual(["G5090 parent.graph:6"]);
    writeFileSync(`${DIR}/child.graph`, CHILD("string"));
    expect(await build()).toEqual([]);
  });

  it("see an edit of the user's module", async () => {
    writeFileSync(`${DIR}/rebuild.nodes.ts`, NODES.replace("return { n: s.a.length }", "return { n: s.a }"));
    expect(await build()).toEqual(["G3092 parent.graph:5"]);
    writeFileSync(`${DIR}/rebuild.nodes.ts`, NODES);
    expect(await build()).toEqual([]);
  });

  it("see an edit of the .graph file and of the user's module between the same two builds", async () => {
    // both change and fit each other; then the module alone goes back and no longer fits the edited file
    writeFileSync(`${DIR}/parent.graph`, PARENT.replace("n: number = 0", `n: string = ""`));
    writeFileSync(`${DIR}/rebuild.nodes.ts`, NODES.replace("return { n: s.a.length }", "return { n: s.a }"));
    expect(await build()).toEqual([]);
    writeFileSync(`${DIR}/rebuild.nodes.ts`, NODES);
    expect(await build()).toEqual(["G3092 parent.graph:5"]);
    writeFileSync(`${DIR}/parent.graph`, PARENT);
    expect(await build()).toEqual([]);
  });

  it("re-check an unchanged generated file whose user module imports a changed one", async () => {
    // solo.graph.ts never changes and imports no other generated file; the module it takes `count` from
    // types the result with the child's state, which each edit of child.graph changes
    writeFileSync(`${DIR}/solo.graph`, SOLO);
    writeFileSync(`${DIR}/rebuild.nodes.ts`, NODES.replace("export function count(s: { a: string }) { return { n: s.a.length }; }", COUNT_VIA_CHILD));
    writeFileSync(`${DIR}/child.graph`, CHILD("number"));
    const solo = async () =>
      (await compile([`${DIR}/solo.graph`, `${DIR}/child.graph`])).diagnostics.filter((d) => d.severity === "error").map((d) => `${d.code} ${d.span.file.split("/").at(-1)}:${d.span.start.line}`);
    expect(await solo()).toEqual([]);
    writeFileSync(`${DIR}/child.graph`, CHILD("string"));
    expect(await solo()).toEqual(["G3092 solo.graph:4"]);
    writeFileSync(`${DIR}/child.graph`, CHILD("number"));
    expect(await solo()).toEqual([]);
    writeFileSync(`${DIR}/rebuild.nodes.ts`, NODES);
    writeFileSync(`${DIR}/child.graph`, CHILD("string"));
    expect(await build()).toEqual([]);
  });

  it("see a node function turn async, and keep the answer while only a .graph file changes", async () => {
    const syncOfCount = async () => {
      const text = (await compile([`${DIR}/parent.graph`])).files.find((f) => f.path.endsWith("parent.graph.ts"))!.text;
      return /name: "count",[\s\S]*?sync: (true|false)/.exec(text)?.[1];
    };
    expect(await syncOfCount()).toBe("true");
    writeFileSync(`${DIR}/parent.graph`, PARENT.replace("n: number = 0", "n: number = 1"));
    expect(await syncOfCount()).toBe("true");
    writeFileSync(`${DIR}/rebuild.nodes.ts`, NODES.replace("export function count(", "export async function count("));
    expect(await syncOfCount()).toBe("false");
    writeFileSync(`${DIR}/parent.graph`, PARENT);
    expect(await syncOfCount()).toBe("false");
    writeFileSync(`${DIR}/rebuild.nodes.ts`, NODES);
    expect(await syncOfCount()).toBe("true");
  });

  it("check again only the generated file an edit changed (the runtime's resolution asked of the module each file imports)", async () => {
    // solo.graph is lean-eligible (its generated file imports "@graphc/runtime/core"): asking whether
    // "@graphc/runtime" resolves took a probe file, a new snapshot, and so a check of every file, each build
    writeFileSync(`${DIR}/solo.graph`, SOLO);
    const both = async () => (await compile([`${DIR}/solo.graph`, `${DIR}/parent.graph`])).diagnostics.filter((d) => d.severity === "error");
    expect(await both()).toEqual([]);
    nativeChecks.files = 0;
    writeFileSync(`${DIR}/solo.graph`, SOLO.replace("n: number = 0", "n: number = 1"));
    expect(await both()).toEqual([]);
    expect(nativeChecks.files).toBe(1);
    writeFileSync(`${DIR}/solo.graph`, SOLO);
  });

  it("see a module created after a build that could not find it", async () => {
    unlinkSync(`${DIR}/rebuild.nodes.ts`);
    expect(await build()).toContain("G3094 parent.graph:2");
    writeFileSync(`${DIR}/rebuild.nodes.ts`, NODES);
    expect(await build()).toEqual([]);
  });
});
