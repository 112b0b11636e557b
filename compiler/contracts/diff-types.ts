/** What `graphc diff` finds between two manifests (diff.ts), before it is printed (diff-render.ts). */

/** GraphQL Inspector's classes: breaking fails CI, dangerous deserves a look, safe is informational. */
export type ChangeLevel = "breaking" | "dangerous" | "safe";

/** What a change is about, so a printer can point at its line in the new source. */
export type Subject =
  | { readonly kind: "graph" }
  | { readonly kind: "field"; readonly name: string }
  | { readonly kind: "node"; readonly name: string }
  | { readonly kind: "var"; readonly name: string };

export interface Change {
  readonly level: ChangeLevel;
  /** stable kebab-case id of the rule, e.g. `input-field-removed` (docs/contracts.md lists them) */
  readonly kind: string;
  readonly message: string;
  readonly subject: Subject;
}

export interface GraphDiff {
  readonly name: string;
  readonly file: string;
  readonly from?: string | undefined;
  readonly to?: string | undefined;
  /** meta.version's major number went up: breaking changes are announced and do not fail */
  readonly majorBumped: boolean;
  /** breaking changes without a major version bump (or the graph was removed) */
  readonly fails: boolean;
  /** the graph exists only in the old manifest (no new source to point at) */
  readonly removed: boolean;
  readonly changes: readonly Change[];
}

export interface DiffResult {
  /** graphs with at least one change, sorted by file then name */
  readonly graphs: readonly GraphDiff[];
  readonly fails: boolean;
}
