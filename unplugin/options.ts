/** The plugin's options (the same for every bundler). */
export interface GraphcPluginOptions {
  /**
   * Type-check the node functions against the generated types (graphc's TypeScript pass, as `graphc build`
   * does); a mismatch is a build error at the `.graph` line. Default true. It is most of a compile's
   * time (about a second): turn it off in a dev server if your editor or `tsc --watch` checks anyway.
   */
  readonly typecheck?: boolean | undefined;
  /**
   * After every successful compile, write `x.graph.ts` (and its `.map`) beside each `.graph` file, exactly
   * what `graphc build` writes (an unchanged file is not rewritten). TypeScript reads it for
   * `import { G } from "./x.graph"` and for the node modules' `import type … from "./x.graph.js"`.
   * Default true; false leaves the disk alone (then run `graphc build --watch` for types).
   */
  readonly writeGenerated?: boolean | undefined;
  /**
   * The folder graphc looks up the nearest tsconfig.json from (import extensions, `paths` for the
   * TypeScript pass) and shows diagnostics' paths relative to. Default: Vite's `root`, webpack's and
   * Rspack's `context`, esbuild's `absWorkingDir`, else the working directory.
   */
  readonly cwd?: string | undefined;
  /** graphc's `--root`: the only folder `.graph` files are read from (default: the nearest package.json or tsconfig.json folder) */
  readonly root?: string | undefined;
  /**
   * graphc's `--runtime`: "lean" makes a graph module whose graphs are all lean-eligible import
   * "@graphc/runtime/core" (nothing installed: the smallest bundle; docs/cli.md). Default "full".
   */
  readonly runtime?: "full" | "lean" | undefined;
}

export interface ResolvedOptions {
  readonly typecheck: boolean;
  readonly writeGenerated: boolean;
  cwd: string;
  readonly root: string | undefined;
  readonly runtime: "full" | "lean" | undefined;
}

export function resolveOptions(options: GraphcPluginOptions | undefined): ResolvedOptions {
  return {
    typecheck: options?.typecheck ?? true,
    writeGenerated: options?.writeGenerated ?? true,
    cwd: options?.cwd ?? process.cwd(),
    root: options?.root,
    runtime: options?.runtime,
  };
}
