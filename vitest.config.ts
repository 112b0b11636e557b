import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { SOURCE_ENTRIES } from "./test/source-entries.ts";

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const escape = (s: string) => s.replace(/[/.*+?^${}()|[\]\\-]/g, "\\$&");
// GRAPHC_TEST_DIST=1: the runtime's names resolve to its built, minified files (runtime/dist, `npm run build`)
// instead of its sources, so the conformance cases check what the package ships (test/consumer/consumer.test.ts)
const entry = (name: string, file: string) =>
  process.env.GRAPHC_TEST_DIST === "1" && name.startsWith("@graphc/runtime") ? file.replace(/^runtime\/(.*)\.ts$/, "runtime/dist/$1.js") : file;

export default defineConfig({
  resolve: {
    // the packages refer to each other by name (as generated code and samples do): in the repository each
    // name is its TypeScript source, so tests run on the sources without a build
    alias: Object.entries(SOURCE_ENTRIES).map(([name, file]) => ({
      find: new RegExp(`^${escape(name)}$`),
      replacement: here(`./${entry(name, file)}`),
    })),
  },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
  },
});
