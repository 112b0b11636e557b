/** `name` in `from` or the nearest folder above it that holds one (as Node and TypeScript look for their files). */
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

export function findUp(from: string, name: string): string | undefined {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    const file = join(dir, name);
    if (existsSync(file)) return file;
    if (dirname(dir) === dir) return undefined;
  }
}
