/**
 * `graphc diff` over a fixture repository with a history: a temporary git repo gets one commit per kind of
 * change, and each is compared with earlier refs (and with a manifest file), in every output format.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { run } from "../cli/harness.ts";

const V1 = `import { ask, tidy } from "./n.ts"

graph Orders {
  meta { owner: "search-team", version: "1.0.0" }
  vars { model: string = "small" }
  state {
    question: string | null
    answer:   string = ""
    notes:    string[] = []  reduce append
    tries:    number = 0
  }
  input  { question }
  output { answer, notes }

  node ask({ question }) -> { answer, notes } = ask
  node tidy({ answer }) -> { answer } = tidy
  START -> ask -> tidy -> END
}
`;

/** each step of the history: a commit message and the edit it makes to the previous text */
const SAFE = (t: string) =>
  t
    .replace("  output { answer, notes }", "  output { answer, notes, tries }")
    .replace("    tries:    number = 0\n", "    tries:    number = 0\n    lang:     string = \"en\"\n")
    .replace("  input  { question }", "  input  { question, lang }");
const DANGEROUS = (t: string) => t.replace('answer:   string = ""', 'answer:   string = "?"').replace("  START ->", "  interrupt before tidy\n  START ->");
const BREAKING = (t: string) =>
  t
    .replace("question: string | null", "question: string")
    .replace("output { answer, notes, tries }", "output { answer, tries }")
    .replace("reduce append", "reduce union")
    .replace("  input  { question, lang }", "  input  { question, lang, user }")
    .replace("    lang:", "    user:     string\n    lang:");
const MAJOR = (t: string) => t.replace('version: "1.0.0"', 'version: "2.0.0"');

const dir = mkdtempSync(join(tmpdir(), "graphc-diff-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: dir, encoding: "utf8" });
const write = (path: string, text: string) => {
  mkdirSync(join(dir, path, ".."), { recursive: true });
  writeFileSync(join(dir, path), text);
};
const commit = (tag: string) => {
  git("add", "-A");
  git("commit", "-q", "-m", tag);
  git("tag", tag);
};

let text = V1;
git("init", "-q");
write("graphs/orders.graph", text);
write("graphs/n.ts", "export {}\n");
commit("v1");
for (const [tag, edit] of [["safe", SAFE], ["dangerous", DANGEROUS], ["breaking", BREAKING], ["major", MAJOR]] as const) {
  text = edit(text);
  write("graphs/orders.graph", text);
  commit(tag);
}
git("checkout", "-q", "v1");

/** `graphc diff graphs --against REF` with the work tree checked out at `at` */
async function diffAt(at: string, against: string, format = "json") {
  git("checkout", "-q", at);
  const r = await run(dir, ["diff", "graphs", "--against", against, "--format", format]);
  return { ...r, json: format === "json" && r.stdout !== "" ? (JSON.parse(r.stdout) as DiffJson) : undefined };
}
interface DiffJson {
  fails: boolean;
  summary: Record<string, number>;
  graphs: { name: string; fails: boolean; majorBumped: boolean; changes: { level: string; kind: string; line: number | null }[] }[];
}
const kinds = (j: DiffJson | undefined) => j!.graphs.flatMap((g) => g.changes.map((c) => `${c.level} ${c.kind}`)).sort();

describe("graphc diff --against a git ref", () => {
  it("finds nothing between a commit and itself", async () => {
    const r = await diffAt("v1", "v1", "text");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("no contract changes\n");
  });

  it("classes additions as safe and exits 0", async () => {
    const r = await diffAt("safe", "v1");
    expect(r.code).toBe(0);
    // `lang` is new in state and input: reported once, as the input it is to callers
    expect(kinds(r.json)).toEqual(["safe input-field-added", "safe output-field-added"]);
  });

  it("classes a changed default and a new interrupt as dangerous, still exit 0", async () => {
    const r = await diffAt("dangerous", "safe");
    expect(r.code).toBe(0);
    expect(kinds(r.json)).toEqual(["dangerous default-changed", "dangerous interrupt-added"]);
  });

  it("fails on breaking changes without a major version bump", async () => {
    const r = await diffAt("breaking", "dangerous");
    expect(r.code).toBe(1);
    expect(kinds(r.json)).toEqual(
      ["breaking input-field-added-required", "breaking input-field-narrowed", "breaking output-field-removed", "breaking reducer-changed"].sort(),
    );
    expect(r.json!.graphs[0]).toMatchObject({ name: "Orders", fails: true, majorBumped: false });
  });

  it("accepts the same breaking changes once the major version went up", async () => {
    const r = await diffAt("major", "dangerous");
    expect(r.code).toBe(0);
    expect(r.json!.graphs[0]).toMatchObject({ fails: false, majorBumped: true });
    expect(kinds(r.json)).toContain("breaking output-field-removed");
    expect(kinds(r.json)).toContain("safe version-changed");
  });

  it("compares the uncommitted work tree too, and prints text with source lines", async () => {
    git("checkout", "-q", "major");
    write("graphs/orders.graph", text.replace("  output { answer, tries }", "  output { tries }"));
    const r = await run(dir, ["diff", "graphs", "--against", "HEAD"]);
    git("checkout", "-q", "--", ".");
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("Orders (graphs/orders.graph, version 2.0.0)");
    expect(r.stdout).toMatch(/breaking +output field `answer` removed .*\[graphs\/orders\.graph:3\]/);
    expect(r.stdout).toContain('= breaking changes need a major version bump: meta { version: "3.0.0" }');
    expect(r.stdout).toContain("1 breaking, 0 dangerous, 0 safe change in 1 graph: failing");
  });

  it("writes GitHub annotations at the changed lines", async () => {
    const r = await diffAt("breaking", "dangerous", "github");
    const lines = r.stdout.trim().split("\n");
    expect(lines).toHaveLength(4);
    const fieldLine = text.split("\n").findIndex((l) => l.includes("question: string")) + 1;
    expect(lines).toContain(
      `::error file=graphs/orders.graph,line=${fieldLine},title=graphc diff%3A breaking (input-field-narrowed)::Orders: input field \`question\` narrowed: \`string | null\` → \`string\``,
    );
    const accepted = await diffAt("major", "dangerous", "github");
    expect(accepted.stdout).not.toContain("::error");
    expect(accepted.stdout).toContain("::warning file=graphs/orders.graph");
  });

  it("reads the old files from the ref when run in a subfolder", async () => {
    git("checkout", "-q", "safe");
    const r = await run(join(dir, "graphs"), ["diff", "--against", "v1", "--format", "json"]);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as DiffJson).graphs.map((g) => g.name)).toEqual(["Orders"]);
  });

  it("reports a graph that did not exist at the ref as added, and a deleted one as breaking", async () => {
    git("checkout", "-q", "v1");
    write("graphs/extra.graph", V1.replace("graph Orders", "graph Extra"));
    const added = await run(dir, ["diff", "graphs", "--against", "v1", "--format", "json"]);
    rmSync(join(dir, "graphs/extra.graph"));
    expect(added.code).toBe(0);
    expect(kinds(JSON.parse(added.stdout) as DiffJson)).toEqual(["safe graph-added"]);
    git("checkout", "-q", "v1");
    write("graphs/other.graph", V1.replace("graph Orders", "graph Other"));
    rmSync(join(dir, "graphs/orders.graph"));
    const removed = await run(dir, ["diff", "graphs", "--against", "v1", "--format", "json"]);
    git("checkout", "-q", "--", ".");
    rmSync(join(dir, "graphs/other.graph"));
    expect(removed.code).toBe(1);
    expect(kinds(JSON.parse(removed.stdout) as DiffJson)).toEqual(["breaking graph-removed", "safe graph-added"]);
  });

  it("is a usage error for an unknown ref, and an error when the old files do not check", async () => {
    git("checkout", "-q", "v1");
    const unknown = await run(dir, ["diff", "graphs", "--against", "no-such-ref"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("`no-such-ref` is neither a manifest file nor a git commit here");
    write("graphs/orders.graph", V1.replace("-> tidy ->", "-> tidyy ->"));
    commit("broken");
    git("checkout", "-q", "v1");
    const broken = await run(dir, ["diff", "graphs", "--against", "broken"]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain("the files at `broken` do not check");
    expect(broken.stderr).toContain("error[G2003]");
  });
});

describe("graphc diff --against a manifest file", () => {
  it("gives the same verdict as the ref the manifest was written at", async () => {
    git("checkout", "-q", "dangerous");
    expect((await run(dir, ["manifest", "graphs", "--out", "old.json"])).code).toBe(0);
    const viaFile = await diffAt("breaking", "old.json");
    const viaRef = await diffAt("breaking", "dangerous");
    expect(viaFile.code).toBe(1);
    expect(viaFile.stdout).toBe(viaRef.stdout);
    rmSync(join(dir, "old.json"));
  });

  it("refuses a file that is not a manifest", async () => {
    git("checkout", "-q", "v1");
    write("bad.json", JSON.stringify({ format: "graphc-manifest/1", graphs: [{ name: "X" }] }));
    const r = await run(dir, ["diff", "graphs", "--against", "bad.json"]);
    rmSync(join(dir, "bad.json"));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("`bad.json` is not a graphc manifest");
    expect(r.stderr).toContain("/graphs/0: missing required property `file`");
  });
});

describe("graphc diff on the samples", () => {
  it("finds no breaking change between the samples and the last commit", async () => {
    const repo = join(import.meta.dirname, "../..");
    const r = await run(repo, ["diff", "samples", "--against", "HEAD", "--format", "json"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as DiffJson).fails).toBe(false);
  });
});
