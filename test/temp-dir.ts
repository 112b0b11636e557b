/**
 * A fresh folder for one test file's run: `test/_tmp-<name>-XXXXXX`, git-ignored (`**\/_tmp*\/`) and inside
 * the repository, so code generated into it resolves `@graphc/runtime` (the package's self-reference) and
 * node_modules exactly as a user's does.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const TEST_DIR = fileURLToPath(new URL(".", import.meta.url));

export interface TempDir {
  readonly dir: string;
  remove(): void;
}

export function tempDir(name: string): TempDir {
  const dir = mkdtempSync(join(TEST_DIR, `_tmp-${name}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
