/**
 * Golden-file helpers for emit tests: compare generated text with a checked-in file, or rewrite the file
 * when GRAPHC_BLESS=1 (review the diff before committing).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { expect } from "vitest";

export const BLESS = process.env.GRAPHC_BLESS === "1";

export function expectGolden(path: string, actual: string): void {
  if (BLESS) {
    mkdirSync(dirname(path), { recursive: true });
    if (!existsSync(path) || readFileSync(path, "utf8") !== actual) writeFileSync(path, actual);
    return;
  }
  expect(existsSync(path), `missing golden ${path} (run with GRAPHC_BLESS=1)`).toBe(true);
  expect(actual, `${path} is stale (run with GRAPHC_BLESS=1 and review the diff)`).toBe(readFileSync(path, "utf8"));
}
