/**
 * Runs the CLI in-process (`main(argv, io)`) against a temporary project. Projects live in
 * test/_tmp-cli-* inside the repository (test/temp-dir.ts), so generated code resolves `@graphc/runtime`
 * through the package's self-reference exactly as it does for a user.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { main } from "../../compiler/cli/main.ts";
import { tempDir } from "../temp-dir.ts";

export interface Project {
  readonly dir: string;
  write(path: string, text: string): void;
  remove(): void;
}

export function project(files: Readonly<Record<string, string>>): Project {
  const { dir, remove } = tempDir("cli");
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  for (const [p, t] of Object.entries(files)) write(p, t);
  return { dir, write, remove };
}

export interface RunResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  readonly tty?: boolean;
  readonly env?: Record<string, string>;
  readonly signal?: AbortSignal;
  /** receives stderr as it is written (for watching a running `--watch`) */
  readonly onStderr?: (text: string) => void;
}

export async function run(dir: string, argv: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, {
    cwd: dir,
    stdout: (t) => (stdout += t),
    stderr: (t) => {
      stderr += t;
      options.onStderr?.(t);
    },
    isTTY: { stdout: options.tty ?? false, stderr: options.tty ?? false },
    env: options.env ?? {},
    signal: options.signal,
  });
  return { code, stdout, stderr };
}

/** A small valid graph and its node module. */
export const HELLO_GRAPH = `import { greet } from "./hello.nodes.ts"

graph Hello {
  state {
    name:     string
    greeting: string
  }
  input  { name }
  output { greeting }

  node greet({ name }) -> { greeting } = greet

  START -> greet -> END
}
`;

export const HELLO_NODES = `export function greet(s: { name: string }): { greeting: string } {
  return { greeting: \`hello \${s.name}\` };
}
`;

/** A graph with one misspelt node in an edge (an error) */
export const BROKEN_GRAPH = HELLO_GRAPH.replace("START -> greet -> END", "START -> greeet -> END");
