/**
 * `graphc manifest [files...] [--out FILE] [--check] [--root DIR]`: the JSON manifest of every graph
 * (docs/contracts.md) on stdout or into FILE; `--check` writes nothing and exits 1 when FILE is not
 * up to date (for CI).
 */
import { canonicalJson } from "../contracts/canonical-json.ts";
import type { JsonValue } from "../schema/json-schema.ts";
import { workingTreeManifest } from "./entry-files.ts";
import { readOutput, writeIfChanged } from "./fs.ts";
import { type CliIO, EXIT, UsageError } from "./io.ts";

export interface ManifestOptions {
  readonly out?: string | undefined;
  readonly check?: boolean | undefined;
  readonly root?: string | undefined;
}

export function manifestCommand(io: CliIO, args: readonly string[], opts: ManifestOptions): number {
  if (opts.check && opts.out === undefined) throw new UsageError("--check needs --out FILE (the manifest to compare with)");
  const result = workingTreeManifest(io, args, opts.root);
  if (result.manifest === undefined) return EXIT.errors;
  const text = canonicalJson(result.manifest as unknown as JsonValue);
  if (opts.out === undefined) {
    io.stdout(text);
    return EXIT.ok;
  }
  if (opts.check) {
    if (readOutput(io, opts.out) === text) return EXIT.ok;
    io.stderr(`${opts.out} is out of date: run \`graphc manifest ${args.join(" ")} --out ${opts.out}\`\n`);
    return EXIT.errors;
  }
  writeIfChanged(io, opts.out, text);
  io.stdout(`wrote ${opts.out} (${result.manifest.graphs.length} graph${result.manifest.graphs.length === 1 ? "" : "s"})\n`);
  return EXIT.ok;
}
