// Bundles the extension (src/extension.ts and vscode-languageclient) into one CommonJS file,
// dist/extension.cjs, the `main` VS Code loads; `vscode` is provided by the editor at run time.
// Also copies the repository's LICENSE beside it, for the .vsix. Run by `vscode:prepublish` (vsce) and
// by scripts/build.mjs.
import { copyFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const DIR = join(dirname(fileURLToPath(import.meta.url)), "..");

export async function bundleExtension() {
  await build({
    entryPoints: [join(DIR, "src", "extension.ts")],
    outfile: join(DIR, "dist", "extension.cjs"),
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    external: ["vscode"],
    minify: true,
    logLevel: "warning",
  });
  copyFileSync(join(DIR, "..", "LICENSE"), join(DIR, "LICENSE"));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundleExtension();
