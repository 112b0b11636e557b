// `npm run vsix`: packages the extension as graphc-vscode-<version>.vsix with @vscode/vsce, offline.
// `--no-dependencies`: the bundle (scripts/bundle.mjs, run by vsce through `vscode:prepublish`) already
// holds vscode-languageclient, so no node_modules go in. `--out FILE` writes elsewhere (the tests use it).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const DIR = join(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = JSON.parse(readFileSync(join(DIR, "package.json"), "utf8"));
const outAt = process.argv.indexOf("--out");
const out = outAt > 0 ? resolve(process.argv[outAt + 1]) : join(DIR, `${pkg.name}-${pkg.version}.vsix`);
const vsce = join(dirname(createRequire(import.meta.url).resolve("@vscode/vsce/package.json")), "vsce");

// the repository has no public URL yet: allow the missing `repository` field instead of inventing one
const args = [vsce, "package", "--no-dependencies", "--allow-missing-repository", "--out", out];
const r = spawnSync(process.execPath, args, { cwd: DIR, stdio: "inherit" });
if (r.status !== 0) process.exit(r.status ?? 1);
console.log(out);
