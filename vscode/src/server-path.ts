/**
 * Which `graphc` runs the language server: the `graphc.serverPath` setting when it is set, else the
 * graphc installed in the workspace (`node_modules/graphc`, looked up from each workspace folder towards
 * the file-system root, as Node resolves packages), else none — the extension then says how to get one.
 * The workspace's own copy is preferred over a global one so the server checks files with the compiler
 * version the project builds with.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, extname, isAbsolute, join, resolve } from "node:path";

export interface ResolvedServer {
  /** a JavaScript entry (run with Node) or an executable */
  readonly path: string;
  readonly via: "setting" | "workspace";
}

/** The graphc bin entry of the package.json in `dir`, when that package is graphc. */
function graphcBin(dir: string): string | undefined {
  const pkgPath = join(dir, "package.json");
  if (!existsSync(pkgPath)) return undefined;
  let pkg: { name?: unknown; bin?: unknown };
  try {
    pkg = JSON.parse(readFileSync(pkgPath, "utf8")) as { name?: unknown; bin?: unknown };
  } catch {
    return undefined;
  }
  if (pkg.name !== "graphc") return undefined;
  const bin = typeof pkg.bin === "string" ? pkg.bin : (pkg.bin as Record<string, unknown> | undefined)?.["graphc"];
  return typeof bin === "string" ? join(dir, bin) : undefined;
}

export function resolveServer(setting: string | undefined, workspaceFolders: readonly string[]): ResolvedServer | undefined {
  const configured = setting?.trim() ?? "";
  if (configured !== "") {
    const base = workspaceFolders[0] ?? process.cwd();
    return { path: isAbsolute(configured) ? configured : resolve(base, configured), via: "setting" };
  }
  for (const folder of workspaceFolders) {
    // the graphc repository itself: its own bin
    const own = graphcBin(folder);
    if (own !== undefined && existsSync(own)) return { path: own, via: "workspace" };
    for (let dir = resolve(folder); ; dir = dirname(dir)) {
      const bin = graphcBin(join(dir, "node_modules", "graphc"));
      if (bin !== undefined && existsSync(bin)) return { path: bin, via: "workspace" };
      if (dirname(dir) === dir) break;
    }
  }
  return undefined;
}

export interface ServerCommand {
  readonly command: string;
  readonly args: string[];
  readonly env?: Record<string, string>;
  readonly shell?: boolean;
}

/**
 * The process to start: a `.js`/`.mjs`/`.cjs` entry runs under `nodePath` (in VS Code the editor's own
 * runtime, made to act as Node by ELECTRON_RUN_AS_NODE, so no Node install is needed); anything else is
 * run directly (a `.cmd` shim on Windows needs a shell). The flags are passed here rather than through
 * the client's transport option, which would also append `--clientProcessId=…`.
 */
export function serverCommand(server: ResolvedServer, nodePath: string, platform: NodeJS.Platform = process.platform): ServerCommand {
  const args = ["lsp", "--stdio"];
  if ([".js", ".mjs", ".cjs"].includes(extname(server.path))) {
    return { command: nodePath, args: [server.path, ...args], env: { ELECTRON_RUN_AS_NODE: "1" } };
  }
  return platform === "win32" ? { command: server.path, args, shell: true } : { command: server.path, args };
}
