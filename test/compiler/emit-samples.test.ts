/**
 * Every sample compiles without errors (TypeScript check of its node functions included), its generated code
 * matches the golden copy in test/fixtures/emit/_samples/ (`.golden`: the text of `x.graph.ts`, which
 * imports the sample's modules from beside the `.graph` file), and one native `tsc --noEmit` run with the
 * strict repository settings accepts all generated code: the samples' and the emit fixtures' goldens.
 *
 * The samples are copied to test/_tmp-emit/ (git-ignored) so this test never writes into samples/.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { compile, type CompileResult } from "../../compiler/index.ts";
import { expectGolden } from "./emit-golden.ts";

const TMP = "test/_tmp-emit";
const COPY = `${TMP}/samples`;
const GOLDEN = "test/fixtures/emit/_samples";

const sampleDirs = readdirSync("samples", { withFileTypes: true })
  .filter((d) => d.isDirectory() && !d.name.startsWith("_"))
  .map((d) => d.name)
  .sort();
const graphFiles = sampleDirs.flatMap((dir) =>
  readdirSync(`samples/${dir}`)
    .filter((f) => f.endsWith(".graph"))
    .sort()
    .map((f) => `${dir}/${f}`),
);

let result: CompileResult;
beforeAll(async () => {
  rmSync(COPY, { recursive: true, force: true });
  mkdirSync(COPY, { recursive: true });
  for (const dir of sampleDirs) {
    // the samples' own build output is left behind: this test generates its own
    cpSync(`samples/${dir}`, `${COPY}/${dir}`, { recursive: true, filter: (src) => !/\.graph\.ts(\.map)?$|\/data$/.test(src) });
  }
  result = await compile(graphFiles.map((f) => `${COPY}/${f}`));
  for (const f of result.files) {
    writeFileSync(f.path, f.text);
    writeFileSync(`${f.path}.map`, JSON.stringify(f.map));
  }
}, 120_000);

describe("samples", () => {
  it("exist", () => {
    expect(graphFiles.length).toBeGreaterThan(0);
  });

  it("compile without errors", () => {
    const errors = result.diagnostics.filter((d) => d.severity === "error");
    expect(errors.map((d) => `${d.code} ${d.span.file}:${d.span.start.line} ${d.message}`)).toEqual([]);
  });

  it("match their golden generated code", () => {
    for (const f of result.files) {
      expectGolden(`${GOLDEN}/${f.path.slice(COPY.length + 1)}.golden`, f.text);
    }
    // every golden belongs to a current sample
    const expected = new Set(result.files.map((f) => `${f.path.slice(COPY.length + 1)}.golden`));
    for (const dir of sampleDirs) {
      if (!existsSync(`${GOLDEN}/${dir}`)) continue;
      for (const g of readdirSync(`${GOLDEN}/${dir}`)) {
        if (!expected.has(`${dir}/${g}`)) {
          if (process.env.GRAPHC_BLESS === "1") rmSync(`${GOLDEN}/${dir}/${g}`);
          else expect.fail(`stale golden ${GOLDEN}/${dir}/${g} (run with GRAPHC_BLESS=1)`);
        }
      }
    }
  });

  it("type-check with the strictest settings in one native tsc run (with the emit fixtures' goldens)", () => {
    writeFileSync(
      `${TMP}/tsconfig.json`,
      JSON.stringify({
        extends: "../../tsconfig.json",
        // the repository's strict flags plus the rest of the strictest common set users have (docs/packages.md)
        compilerOptions: {
          noPropertyAccessFromIndexSignature: true,
          erasableSyntaxOnly: true,
          isolatedModules: true,
          noImplicitOverride: true,
        },
        include: ["samples/**/*.graph.ts", "../fixtures/emit/_expected/*.graph.ts"],
        exclude: [],
      }),
    );
    let output = "";
    try {
      execFileSync(process.execPath, ["node_modules/typescript/bin/tsc", "--noEmit", "-p", `${TMP}/tsconfig.json`], {
        encoding: "utf8",
      });
    } catch (e) {
      output = String((e as { stdout?: string }).stdout ?? e);
    }
    // errors elsewhere (the runtime's own files) are the repository tsc's business, not this test's
    const ours = output.split("\n").filter((l) => l.startsWith(`${COPY}/`) || l.startsWith("test/fixtures/emit/"));
    expect(ours).toEqual([]);
    // and tsc itself ran: anything it printed is an error report
    expect(output.split("\n").every((l) => l === "" || /^\S+\(\d+,\d+\): error TS\d+/.test(l) || /^\s/.test(l))).toBe(true);
  }, 120_000);
});
