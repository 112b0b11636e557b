/** The manifest of a set of entry files read through a host (the working tree, or a git ref's files). */
import type { Diagnostic } from "../../grammar/diagnostic.ts";
import { check, hasErrors, sortDiagnostics } from "../check.ts";
import type { CompilerHost } from "../phases/2-bind/host.ts";
import { lower, type ProgramIR } from "../phases/4-lower/index.ts";
import { buildManifest } from "./manifest.ts";
import type { Manifest } from "./manifest-types.ts";

export interface ManifestResult {
  /** undefined when the files have errors */
  readonly manifest: Manifest | undefined;
  /** the lowered program the manifest was built from (`graphc diff` finds source lines in it) */
  readonly ir: ProgramIR | undefined;
  readonly diagnostics: Diagnostic[];
}

/** Parse, check and lower (no TypeScript pass: the manifest needs only the `.graph` files). */
export function manifestOf(files: readonly string[], host: CompilerHost, root?: string): ManifestResult {
  const checked = check(files, host, { root });
  if (checked.program === undefined || hasErrors(checked.diagnostics)) return { manifest: undefined, ir: undefined, diagnostics: checked.diagnostics };
  const lowered = lower(checked.program);
  const diagnostics = sortDiagnostics([...checked.diagnostics, ...lowered.diagnostics]);
  if (hasErrors(lowered.diagnostics)) return { manifest: undefined, ir: undefined, diagnostics };
  return { manifest: buildManifest(lowered.value), ir: lowered.value, diagnostics };
}
