import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  resolve: {
    // the package refers to itself by name (as generated code and samples do)
    alias: [
      { find: /^graphc\/runtime\/sqlite$/, replacement: here("./runtime/adapters/sqlite.ts") },
      { find: /^graphc\/runtime\/postgres$/, replacement: here("./runtime/adapters/postgres.ts") },
      { find: /^graphc\/runtime$/, replacement: here("./runtime/index.ts") },
      { find: /^graphc$/, replacement: here("./compiler/index.ts") },
    ],
  },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
  },
});
