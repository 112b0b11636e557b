/** `graphc lsp` needs `--stdio` (the only transport): without it, a usage error (exit 2) that says so. */
import { afterAll, describe, expect, it } from "vitest";
import { project, run } from "../cli/harness.ts";

const p = project({});
afterAll(() => p.remove());

describe("graphc lsp", () => {
  it("is a usage error without --stdio", async () => {
    const r = await run(p.dir, ["lsp"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("run `graphc lsp --stdio`");
  });

  it("is listed in the help", async () => {
    const r = await run(p.dir, ["--help"]);
    expect(r.stdout).toMatch(/lsp \[options\]\s+run the language server/);
  });
});
