/**
 * Points generated code's `@graphc/runtime…` imports at one tree's runtime. The A/B scripts run two trees in
 * one process (or bundle each against its own compiled runtime): a specifier left as a package name would
 * resolve through this tree's tsconfig paths, and the other tree's program would install features into
 * this tree's runtime (generated code imports "/core" and "/install" as well as the main entry).
 */
import { SOURCE_ENTRIES } from "../test/source-entries.ts";

/**
 * `text` with each runtime specifier replaced by `at(source)`, where `source` is the entry's file in the
 * runtime folder ("index.ts", "core.ts", "install.ts", …).
 */
export function pointRuntimeImports(text: string, at: (source: string) => string): string {
  return text.replace(/(["'])(@graphc\/runtime(?:\/[a-z-]+)?)\1/g, (_whole, quote: string, name: string) => {
    const file = SOURCE_ENTRIES[name];
    if (file === undefined) throw new Error(`generated code imports ${name}, which no runtime entry provides`);
    return quote + at(file.slice("runtime/".length)) + quote;
  });
}
