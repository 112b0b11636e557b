/**
 * G3098 (ts-check.ts `missingName`): a module the `.graph` file takes node functions from imports a name the
 * generated module does not export — misspelt, or left behind by renaming a node. TypeScript gives the name
 * its error type, which fits every check of the generated code, so without G3098 the build was clean and
 * the functions typed with it went unchecked. Both TypeScript passes (native, and ts-morph with
 * `GRAPHC_TYPESCRIPT=js`) report it at the `.graph` import of the module, once per module.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildFiles } from "../../compiler/index.ts";
import { tempDir } from "../temp-dir.ts";

const BIN = join(import.meta.dirname, "..", "..", "bin", "graphc-dev.mjs");

const tmp = tempDir("generated-names");
afterAll(() => tmp.remove());

// `send` was renamed `work` in app.graph; the node module still imports the old names
const APP = `import { plan, work, fanOut } from "./app.nodes.ts"
import { stamp } from "./shared.nodes.ts"

graph App {
  state { items: string[] = [], done: string[] = [] reduce append, item: string = "" }
  node plan({ items }) -> { items } = plan
  node work({ item }) -> { done } = work
  node stamp({ done }) -> { done } = stamp
  START -> plan -> send(fanOut)
  work -> stamp -> END
}
`;
const APP_NODES = (read: string) => `import type { AppPlanRead, AppPlanUpdate, ${read}, AppState, AppSends } from "./app.graph.ts";
import { Send } from "@graphc/runtime";
import { helper } from "./util.ts";
export const plan = (s: AppPlanRead): AppPlanUpdate => ({ items: s.items });
export const work = (s: ${read}) => ({ done: [helper(s.item)] });
export const fanOut = (s: AppState): AppSends[] => s.items.map((item) => new Send("work", { item }));
`;
// imported by both graph files: its missing name is reported once
const OTHER = `import { stamp } from "./shared.nodes.ts"

graph Other {
  state { done: string[] = [] reduce append }
  node stamp({ done }) -> { done } = stamp
  START -> stamp -> END
}
`;
const SHARED = `import type { AppStampUpdate, OtherStampRead } from "./other.graph.ts";
export const stamp = (s: OtherStampRead): AppStampUpdate => ({ done: [String(s.done.length)] });
`;
// a name missing from a module that is not generated code is TypeScript's to report, not graphc's
const UTIL = `import { nothing } from "./nowhere-else.ts";
export const helper = (x: string): string => x + String(nothing);
`;

writeFileSync(join(tmp.dir, "app.graph"), APP);
writeFileSync(join(tmp.dir, "other.graph"), OTHER);
writeFileSync(join(tmp.dir, "app.nodes.ts"), APP_NODES("AppSendRead"));
writeFileSync(join(tmp.dir, "shared.nodes.ts"), SHARED);
writeFileSync(join(tmp.dir, "util.ts"), UTIL);
writeFileSync(join(tmp.dir, "nowhere-else.ts"), "export const something = 1;\n");

interface Json {
  code: string;
  message: string;
  file: string;
  range: { start: { line: number; character: number } };
}

function check(env: Record<string, string>): { code: string; message: string; at: string }[] {
  const r = spawnSync(process.execPath, [BIN, "check", "--format", "json", "app.graph", "other.graph"], {
    cwd: tmp.dir,
    env: { ...process.env, ...env },
    encoding: "utf8",
  });
  expect(r.status, r.stderr).toBe(1);
  return (JSON.parse(r.stdout) as Json[]).map((x) => ({
    code: x.code,
    message: x.message,
    at: `${x.file.replace(/^.*\//, "")}:${x.range.start.line + 1}:${x.range.start.character + 1}`,
  }));
}

const EXPECTED = [
  {
    code: "G3098",
    message:
      "`app.nodes.ts` imports a name the generated code does not export: Module '\"./app.graph.ts\"' has no exported member 'AppSendRead'. (TS2305, app.nodes.ts:1:43)",
    at: "app.graph:1:1",
  },
  {
    code: "G3098",
    message:
      "`app.nodes.ts` imports a name the generated code does not export: '\"./app.graph.ts\"' has no exported member named 'AppSends'. Did you mean 'AppSend'? (TS2724, app.nodes.ts:1:66)",
    at: "app.graph:1:1",
  },
  {
    code: "G3098",
    message:
      "`shared.nodes.ts` imports a name the generated code does not export: Module '\"./other.graph.ts\"' has no exported member 'AppStampUpdate'. (TS2305, shared.nodes.ts:1:15)",
    at: "app.graph:2:1",
  },
];

describe("G3098: a node module imports a name the generated code does not export", () => {
  it("the native TypeScript pass reports each such name once, at the .graph import of the module", () => {
    expect(check({ GRAPHC_TYPESCRIPT: "" })).toEqual(EXPECTED);
  }, 120_000);

  it("the JavaScript TypeScript pass says the same", () => {
    expect(check({ GRAPHC_TYPESCRIPT: "js" })).toEqual(EXPECTED);
  }, 120_000);

  it("a rebuild after the module is fixed is clean (the module's errors are not kept)", async () => {
    const files = [join(tmp.dir, "app.graph"), join(tmp.dir, "other.graph")];
    const codes = async () => (await buildFiles(files, { typecheck: true, cwd: tmp.dir })).diagnostics.map((x) => x.code);
    expect(await codes()).toEqual(["G3098", "G3098", "G3098"]);
    writeFileSync(join(tmp.dir, "app.nodes.ts"), APP_NODES("AppWorkRead").replace("AppSends", "AppSend"));
    writeFileSync(join(tmp.dir, "shared.nodes.ts"), SHARED.replace("AppStampUpdate", "OtherStampUpdate"));
    expect(await codes()).toEqual([]);
    // with the names right, TypeScript checks the function again: a wrong one is G3092 as before
    writeFileSync(join(tmp.dir, "app.nodes.ts"), APP_NODES("AppWorkRead").replace("AppSends", "AppSend").replace("[helper(s.item)]", "helper(s.item).length"));
    expect(await codes()).toEqual(["G3092"]);
  }, 120_000);
});
