/**
 * Send packets are typed by their node (compiler/phases/5-emit/graph-types.ts, the generated `GSend`): a
 * send function's packets must name one of the graph's nodes and carry an arg of that node's read type, so
 * that a misspelt node or field is G3093 at build time. Both TypeScript passes decide the same.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempDir } from "../temp-dir.ts";

const BIN = join(import.meta.dirname, "..", "..", "bin", "graphc-dev.mjs");

/** each send function: its code, and the text its G3093 ends with (undefined: it fits) */
const FNS: Record<string, { code: string; error?: string }> = {
  fits: { code: `export const fits = (s: { items: string[] }) => s.items.map((item) => new Send("work", { item }));` },
  // the arg misspells the field the node reads
  misspelt: {
    code: `export const misspelt = (s: { items: string[] }) => s.items.map((item) => new Send("work", { itme: item }));`,
    error: "Property 'item' is missing in type '{ itme: string; }' but required in type 'FanMisspeltWorkRead'.",
  },
  // the arg's field has the wrong type
  wrongType: {
    code: `export const wrongType = (s: { items: string[] }) => s.items.map((item) => new Send("work", { item: item.length }));`,
    error: "Type 'number' is not assignable to type 'string'.",
  },
  // a node the graph does not have
  noSuchNode: {
    code: `export const noSuchNode = (s: { items: string[] }) => s.items.map((item) => new Send("wrok", { item }));`,
    error: `Send<{ item: string; }, "wrok">`,
  },
  // a node name computed at run time cannot be checked: the packet must say which it is
  dynamic: {
    code: `export const dynamic = (s: { items: string[] }) => s.items.map((item) => new Send(s.items[0]!, { item }));`,
    error: "Send<{ item: string; }, string>",
  },
  declared: {
    code: `export const declared = (s: { items: string[] }) => s.items.map((item) => new Send(s.items[0]!, { item }) as FanDeclaredSend);`,
  },
};

const graph = (fn: string) => {
  const G = `Fan${fn[0]!.toUpperCase()}${fn.slice(1)}`;
  return `graph ${G} {
  state { items: string[] = [], done: string[] = [] reduce append }
  private WorkIn { item: string }
  node plan() -> { items } = plan
  node work(WorkIn) -> { done } = work
  START -> plan -> send(${fn})
  work -> END
}
`;
};
const SOURCE = `import { plan, work, ${Object.keys(FNS).join(", ")} } from "./app.nodes.ts"\n\n${Object.keys(FNS).map(graph).join("\n")}`;
const NODES = `import { Send } from "@graphc/runtime";
import type { FanDeclaredSend } from "./app.graph.ts";
export const plan = () => ({ items: ["a", "b"] });
export const work = (s: { item: string }) => ({ done: [s.item] });
${Object.values(FNS).map((f) => f.code).join("\n")}
`;

const tmp = tempDir("typed-send");
afterAll(() => tmp.remove());
writeFileSync(join(tmp.dir, "app.graph"), SOURCE);
writeFileSync(join(tmp.dir, "app.nodes.ts"), NODES);

/** send function → its G3093 message */
function errors(env: Record<string, string>): Record<string, string> {
  const r = spawnSync(process.execPath, [BIN, "check", "--format", "json", "app.graph"], {
    cwd: tmp.dir,
    env: { ...process.env, ...env },
    encoding: "utf8",
  });
  const found: Record<string, string> = {};
  for (const x of JSON.parse(r.stdout) as { code: string; message: string }[]) {
    expect(x.code).toBe("G3093");
    found[/send function `(\w+)`/.exec(x.message)![1]!] = x.message;
  }
  return found;
}

function check(found: Record<string, string>): void {
  expect(Object.keys(found).sort()).toEqual(Object.keys(FNS).filter((f) => FNS[f]!.error !== undefined).sort());
  for (const [fn, message] of Object.entries(found)) expect(message, fn).toContain(FNS[fn]!.error);
}

describe("Send packets typed by their node", () => {
  it("the native TypeScript pass rejects a misspelt node or field, and a node name it cannot know", () => {
    check(errors({ GRAPHC_TYPESCRIPT: "" }));
  }, 120_000);

  it("the JavaScript TypeScript pass says the same", () => {
    check(errors({ GRAPHC_TYPESCRIPT: "js" }));
  }, 120_000);
});
