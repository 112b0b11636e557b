/**
 * `graphc import chatdev WORKFLOW.yaml [--out DIR] [--chatdev-root DIR] [--root DIR]`: writes the workflow
 * (and its file subgraphs) as `.graph` files with typed node modules; prints what the translation changes or
 * leaves out on stderr. Nothing is written when there is an error. Existing `.graph` and node files are
 * replaced (re-import after editing the YAML); the support module `chatdev.ts`, once written, is the user's.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { importChatDev, renderProblem } from "../import/chatdev/index.ts";
import { nodeHost } from "../phases/2-bind/host.ts";
import { projectRoot } from "../phases/2-bind/project-root.ts";
import { type CliIO, EXIT, UsageError } from "./io.ts";

export function importCommand(io: CliIO, kind: string, file: string, opts: { out?: string; chatdevRoot?: string; root?: string }): number {
  if (kind !== "chatdev") throw new UsageError(`unknown import source \`${kind}\` (graphc imports: chatdev)`);
  const entry = resolve(io.cwd, file);
  if (!existsSync(entry) || !statSync(entry).isFile()) throw new UsageError(`no such workflow file: ${file}`);
  const root = opts.root !== undefined ? resolve(io.cwd, opts.root) : projectRoot([entry], nodeHost()).dirs[0] ?? dirname(entry);
  const outDir = resolve(io.cwd, opts.out ?? dirname(entry));
  const result = importChatDev(entry, { read: readIfFile }, {
    outDir,
    root,
    chatdevRoot: opts.chatdevRoot === undefined ? undefined : resolve(io.cwd, opts.chatdevRoot),
  });
  for (const p of result.problems) io.stderr(`${renderProblem({ ...p, file: relative(io.cwd, p.file) || p.file })}\n`);
  if (result.files.length === 0) return EXIT.errors;
  mkdirSync(outDir, { recursive: true });
  for (const f of result.files) {
    if (f.keepExisting && existsSync(f.path)) continue;
    writeFileSync(f.path, f.text);
    io.stdout(`wrote ${relative(io.cwd, f.path)}\n`);
  }
  return EXIT.ok;
}

function readIfFile(path: string): string | undefined {
  try {
    return statSync(path).isFile() ? readFileSync(path, "utf8") : undefined;
  } catch {
    return undefined;
  }
}
