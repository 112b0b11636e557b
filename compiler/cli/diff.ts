/**
 * `graphc diff [files...] --against REF|MANIFEST [--format text|json|github] [--root DIR]`: compares the
 * graphs' contracts now with those at a git ref (the files read from git) or in a manifest file, classes
 * each change breaking / dangerous / safe, and exits 1 when a graph has a breaking change without a major
 * version bump in its `meta { version }` (docs/contracts.md).
 */
import { existsSync } from "node:fs";
import { diffManifests } from "../contracts/diff.ts";
import { type DiffFormat, locator, renderDiff } from "../contracts/diff-render.ts";
import { validate } from "../contracts/json-validate.ts";
import { MANIFEST_SCHEMA } from "../contracts/manifest-schema.ts";
import type { Manifest } from "../contracts/manifest-types.ts";
import { manifestOf } from "../contracts/program.ts";
import type { JsonValue } from "../schema/json-schema.ts";
import { workingTreeManifest } from "./entry-files.ts";
import { readSource, resolvePath } from "./fs.ts";
import { filesAtRef, gitHost, resolveRef } from "./git-ref.ts";
import { type CliIO, EXIT, UsageError } from "./io.ts";
import { printDiagnostics } from "./report.ts";

export interface DiffOptions {
  readonly against: string;
  readonly format: DiffFormat;
  readonly root?: string | undefined;
}

export function diffCommand(io: CliIO, args: readonly string[], opts: DiffOptions): number {
  const now = workingTreeManifest(io, args, opts.root);
  if (now.manifest === undefined) return EXIT.errors;
  const before = isManifestFile(io, opts.against) ? readManifest(io, opts.against) : manifestAtRef(io, opts.against, args, opts.root);
  if (before === undefined) return EXIT.errors;
  const result = diffManifests(before, now.manifest);
  io.stdout(renderDiff(result, opts.format, locator(now.ir)));
  return result.fails ? EXIT.errors : EXIT.ok;
}

/** a `.json` path, or any existing file: a manifest; anything else is taken for a git ref */
function isManifestFile(io: CliIO, against: string): boolean {
  return against.endsWith(".json") || existsSync(resolvePath(io, against));
}

function readManifest(io: CliIO, path: string): Manifest {
  let value: JsonValue;
  try {
    value = JSON.parse(readSource(io, path)) as JsonValue;
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`\`${path}\` is not JSON: ${(e as Error).message}`);
  }
  const problems = validate(value, MANIFEST_SCHEMA);
  if (problems.length > 0) {
    const shown = problems.slice(0, 5).map((p) => `  ${p.at}: ${p.message}`).join("\n");
    throw new UsageError(`\`${path}\` is not a graphc manifest (docs/schema/manifest.schema.json):\n${shown}`);
  }
  return value as unknown as Manifest;
}

/** The manifest of the same files as they were at `ref`; undefined (reported) when they did not check then. */
function manifestAtRef(io: CliIO, ref: string, args: readonly string[], root: string | undefined): Manifest | undefined {
  const commit = resolveRef(io, ref);
  const files = filesAtRef(io, commit, args);
  const host = gitHost(io, commit);
  if (files.length === 0) return { format: "graphc-manifest/1", graphs: [] };
  const then = manifestOf(files, host, root);
  if (then.manifest === undefined) {
    io.stderr(`graphc: the files at \`${ref}\` do not check, so there is nothing to compare with:\n`);
    printDiagnostics(io, then.diagnostics, "pretty", (f) => host.readFile(f));
  }
  return then.manifest;
}
