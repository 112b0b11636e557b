/**
 * `graphc worker` and `graphc serve --postgres`: the usage errors, in-process (the commands themselves run
 * as real processes in test/server/postgres/cluster.test.ts).
 */
import { afterAll, describe, expect, it } from "vitest";
import { project, run } from "./harness.ts";

const p = project({ "a.graph": "graph A { state { x: number } input { x } output { x } node n({ x }) -> { x } = n START -> n -> END }\n" });
afterAll(() => p.remove());

describe("graphc worker", () => {
  it("needs --postgres (exit 2, nothing started)", async () => {
    const r = await run(p.dir, ["worker", "a.graph"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("graphc worker needs --postgres <url>");
  });

  it("rejects a --concurrency or --heartbeat-ms that is not a positive integer", async () => {
    for (const [flag, value] of [
      ["--concurrency", "0"],
      ["--heartbeat-ms", "soon"],
    ] as const) {
      const r = await run(p.dir, ["worker", "a.graph", "--postgres", "postgres://127.0.0.1:1/none", flag, value]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`${flag} must be a positive integer, got \`${value}\``);
    }
  });
});
