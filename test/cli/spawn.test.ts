/**
 * The real command, spawned as a user runs it (bin/graphc-dev.mjs, the repository's command, through tsx): exit codes and output streams.
 * Each spawn costs about half a second, so everything else is tested in-process through main().
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { BROKEN_GRAPH, HELLO_GRAPH, HELLO_NODES, project } from "./harness.ts";

const bin = fileURLToPath(new URL("../../bin/graphc-dev.mjs", import.meta.url));
const p = project({
  "hello.graph": HELLO_GRAPH,
  "hello.nodes.ts": HELLO_NODES,
  "broken.graph": BROKEN_GRAPH,
  "messy.graph": HELLO_GRAPH.replace("START -> greet -> END", "START->greet->END"),
  // 400 errors: about 200 KB of JSON, more than a pipe holds, so graphc is still writing when `head` exits
  "many-errors/many.graph": `graph Many {\n  state {\n    a: string\n  }\n${Array.from({ length: 400 }, (_, i) => `  START -> nope${i} -> END\n`).join("")}}\n`,
});
afterAll(() => p.remove());

/** `graphc check --format json … | head -c 100` through a real shell: graphc's exit code and its stderr. */
async function pipedToHead(args: string[]): Promise<{ code: number; stderr: string }> {
  const quoted = [process.execPath, bin, ...args].map((a) => `'${a}'`).join(" ");
  await new Promise<void>((resolve, reject) => {
    const sh = spawn("sh", ["-c", `{ ${quoted} 2>head.err; echo $? >head.rc; } | head -c 100 >/dev/null`], { cwd: p.dir });
    sh.on("error", reject);
    sh.on("close", () => resolve());
  });
  const read = (f: string) => readFileSync(join(p.dir, f), "utf8");
  return { code: Number(read("head.rc")), stderr: read("head.err") };
}

/** Runs graphc with its stderr closed before it writes anything; resolves to its exit code. */
function withoutStderr(args: string[]): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: p.dir });
    child.stderr.destroy();
    child.stdout.resume();
    child.on("error", reject);
    child.on("close", resolve);
  });
}

function graphc(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env };
    delete env["FORCE_COLOR"];
    const child = spawn(process.execPath, [bin, ...args], { cwd: p.dir, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("bin/graphc-dev.mjs", () => {
  it("exits 0 / 1 / 2 for success, errors in the input and usage errors", async () => {
    const [version, check, fmt, usage] = await Promise.all([
      graphc(["--version"]),
      graphc(["check", "hello.graph", "broken.graph"]),
      graphc(["fmt", "--check"]),
      graphc(["check", "--bogus"]),
    ]);
    expect(version).toMatchObject({ code: 0, stdout: expect.stringMatching(/^\d+\.\d+\.\d+\n$/) as unknown });
    expect(check.code).toBe(1);
    expect(check.stderr).toContain("--> broken.graph:13:12");
    // not a terminal: no colour codes
    expect(check.stderr).not.toContain("\u001b[");
    expect(fmt).toMatchObject({ code: 1, stdout: "messy.graph\n" });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("unknown option '--bogus'");
  });
});

describe("a reader that goes away (EPIPE)", () => {
  it("ends the output quietly: no crash, no stack trace, the command's own exit code", async () => {
    const [head, noStderr] = await Promise.all([
      pipedToHead(["check", "--format", "json", "--no-typecheck", "many-errors/many.graph"]),
      withoutStderr(["check", "--no-typecheck", "hello.graph"]),
    ]);
    // exit 1 is the input's errors; an unhandled EPIPE would print "Error: write EPIPE" and its stack
    expect(head).toEqual({ code: 1, stderr: "" });
    // a clean check exits 0; an unhandled EPIPE on stderr would make it 1
    expect(noStderr).toBe(0);
  });
});
