/**
 * The real command, spawned as a user runs it (bin/graphc-dev.mjs, the repository's command, through tsx): exit codes and output streams.
 * Each spawn costs about half a second, so everything else is tested in-process through main().
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { BROKEN_GRAPH, HELLO_GRAPH, HELLO_NODES, project } from "./harness.ts";

const bin = fileURLToPath(new URL("../../bin/graphc-dev.mjs", import.meta.url));
const p = project({
  "hello.graph": HELLO_GRAPH,
  "hello.nodes.ts": HELLO_NODES,
  "broken.graph": BROKEN_GRAPH,
  "messy.graph": HELLO_GRAPH.replace("START -> greet -> END", "START->greet->END"),
});
afterAll(() => p.remove());

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
