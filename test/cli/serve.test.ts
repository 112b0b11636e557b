/**
 * `graphc serve` in-process: flag checks, .graph files that do not compile (diagnostics, exit 1, no server
 * started), and the message when `@graphc/server` is not installed (graphc does not depend on it). The
 * running server is tested through its HTTP API in test/server/.
 */
import { afterAll, describe, expect, it } from "vitest";
import { serveCommand } from "../../compiler/cli/serve.ts";
import { HELLO_GRAPH, HELLO_NODES, project, run } from "./harness.ts";

const p = project({
  "hello.graph": HELLO_GRAPH,
  "hello.nodes.ts": HELLO_NODES,
  "bad.graph": HELLO_GRAPH.replace("START -> greet", "START -> gret"),
});
afterAll(() => p.remove());

const io = () => {
  const out = { stdout: "", stderr: "" };
  return {
    out,
    io: {
      cwd: p.dir,
      stdout: (t: string) => (out.stdout += t),
      stderr: (t: string) => (out.stderr += t),
      isTTY: { stdout: false, stderr: false },
      env: {},
    },
  };
};

describe("graphc serve", () => {
  it("reports the diagnostics of files that do not compile, and exits 1 without serving", async () => {
    const r = await run(p.dir, ["serve", "bad.graph", "--port", "0", "--data", "data"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("graphc serve: the .graph files do not compile");
    expect(r.stderr).toContain("error[G2003]");
    expect(r.stdout).not.toContain("listening");
  });

  it("checks its flags", async () => {
    const r = await run(p.dir, ["serve", "hello.graph", "--port", "http"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--port must be an integer ≥ 0, got `http`");
  });

  it("says how to install @graphc/server when it is missing", async () => {
    const { io: cli, out } = io();
    const code = await serveCommand(cli, ["hello.graph"], { port: "0", host: "127.0.0.1", workers: "1", drain: "0" }, async () => undefined);
    expect(code).toBe(2);
    expect(out.stderr).toContain("the server is the package @graphc/server, which is not installed here");
    expect(out.stderr).toContain("npm i @graphc/server");
  });
});

describe("graphc serve on a port in use", () => {
  it("says so and exits 1 instead of crashing", async () => {
    const { createServer } = await import("node:net");
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const { port } = taken.address() as { port: number };
    try {
      const r = await run(p.dir, ["serve", "hello.graph", "--port", String(port), "--data", "data"]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`graphc serve: 127.0.0.1:${port} is already in use (choose another --port)`);
    } finally {
      taken.close();
    }
  });
});
