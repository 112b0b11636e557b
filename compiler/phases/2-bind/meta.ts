/**
 * `meta { owner: "…", version: "1.2.0", description: "…" }`: entries -> the graph's metadata. Like
 * options.ts, one function serves bind (no reporter: bad entries are left out) and 3-check/meta.ts (with a
 * reporter), so the rules live in one place. Every value is a string literal; `version` is a semantic
 * version (semver.org 2.0.0), because `graphc diff` reads its major number.
 */
import type { OptionEntry } from "../../../grammar/ast.ts";
import type { Diagnostic } from "../../../grammar/diagnostic.ts";
import { d } from "../../diagnostics/messages.ts";
import { byName } from "./options.ts";

export const META_KEYS = ["owner", "version", "description"] as const;
export type MetaKey = (typeof META_KEYS)[number];

/** what a graph says about itself; absent keys stay absent */
export type GraphMeta = { readonly [K in MetaKey]?: string };

const EXAMPLES: Record<MetaKey, string> = {
  owner: 'owner: "search-team"',
  version: 'version: "1.2.0"',
  description: 'description: "answers order questions"',
};

// semver.org's grammar: no leading zeros in numeric identifiers, optional pre-release and build metadata
const NUM = "(0|[1-9]\\d*)";
const PRE = "(?:0|[1-9]\\d*|\\d*[A-Za-z-][0-9A-Za-z-]*)";
const SEMVER = new RegExp(`^${NUM}\\.${NUM}\\.${NUM}(?:-${PRE}(?:\\.${PRE})*)?(?:\\+[0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*)?$`);

/** The major version of a semantic version, or undefined when `version` is not one. */
export function majorOf(version: string | undefined): number | undefined {
  const m = version === undefined ? null : SEMVER.exec(version);
  return m ? Number(m[1]) : undefined;
}

export function readMeta(entries: readonly OptionEntry[], report: (diag: Diagnostic) => void = () => {}): GraphMeta {
  const out: { -readonly [K in MetaKey]?: string } = {};
  for (const [key, e] of byName(entries, META_KEYS, "`meta`", report)) {
    const name = key as MetaKey;
    const v = e.value;
    if (v?.kind !== "Literal" || typeof v.value !== "string") {
      report(d.metaNotString(v?.span ?? e.span, { name, example: EXAMPLES[name] }));
      continue;
    }
    if (name === "version" && majorOf(v.value) === undefined) {
      report(d.metaBadVersion(v.span, { value: v.value }));
      continue;
    }
    out[name] = v.value;
  }
  return out;
}
