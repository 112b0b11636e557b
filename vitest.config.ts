import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { SOURCE_ENTRIES } from "./test/source-entries.ts";

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const escape = (s: string) => s.replace(/[/.*+?^${}()|[\]\\-]/g, "\\$&");

export default defineConfig({
  resolve: {
    // the packages refer to each other by name (as generated code and samples do): in the repository each
    // name is its TypeScript source, so tests run on the sources without a build
    alias: Object.entries(SOURCE_ENTRIES).map(([name, file]) => ({
      find: new RegExp(`^${escape(name)}$`),
      replacement: here(`./${file}`),
    })),
  },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
  },
});
