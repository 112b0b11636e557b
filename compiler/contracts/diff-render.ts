/**
 * Prints a diff: `text` (grouped by graph, `file:line` per change), `json` (the DiffResult with lines), or
 * `github` (workflow commands: `::error` for a breaking change that fails, `::warning` for an announced
 * breaking change and a dangerous one, `::notice` for a safe one, each at its line in the new source).
 */
import type { ProgramIR } from "../phases/4-lower/ir.ts";
import type { Change, DiffResult, GraphDiff } from "./diff-types.ts";

export type DiffFormat = "text" | "json" | "github";

/** Line of a change's subject in the new sources (the graph's line when the subject is gone). */
export type Locate = (g: GraphDiff, c: Change) => number | undefined;

export function locator(ir: ProgramIR | undefined): Locate {
  const graphs = new Map((ir?.files ?? []).flatMap((f) => f.graphs).filter((g) => !g.inline).map((g) => [`${g.file}#${g.name}`, g]));
  return (d, c) => {
    const g = graphs.get(`${d.file}#${d.name}`);
    if (g === undefined) return undefined;
    const s = c.subject;
    const span =
      s.kind === "field" ? g.fields.find((f) => f.name === s.name)?.span : s.kind === "node" ? g.nodes.find((n) => n.name === s.name)?.span : s.kind === "var" ? g.vars.find((v) => v.name === s.name)?.span : undefined;
    return (span ?? g.span).start.line;
  };
}

export function renderDiff(result: DiffResult, format: DiffFormat, locate: Locate): string {
  if (format === "json") return `${JSON.stringify(jsonOf(result, locate), null, 2)}\n`;
  if (format === "github") return result.graphs.flatMap((g) => g.changes.map((c) => githubLine(g, c, locate))).join("");
  return textOf(result, locate);
}

function counts(result: DiffResult): Record<Change["level"], number> {
  const n = { breaking: 0, dangerous: 0, safe: 0 };
  for (const g of result.graphs) for (const c of g.changes) n[c.level]++;
  return n;
}

function versions(g: GraphDiff): string {
  if (g.from === g.to) return g.to === undefined ? "no version" : `version ${g.to}`;
  return `version ${g.from ?? "none"} → ${g.to ?? "none"}`;
}

function textOf(result: DiffResult, locate: Locate): string {
  let out = "";
  for (const g of result.graphs) {
    out += `${g.name} (${g.file}, ${versions(g)})\n`;
    for (const c of g.changes) {
      const line = locate(g, c);
      out += `  ${c.level.padEnd(9)}  ${c.message}${line === undefined ? "" : `  [${g.file}:${line}]`}\n`;
    }
    if (g.fails && !g.removed) out += `  = breaking changes need a major version bump: meta { version: "${nextMajor(g.from)}" }\n`;
    else if (g.majorBumped && g.changes.some((c) => c.level === "breaking")) out += `  = breaking changes announced by the major version bump\n`;
  }
  const n = counts(result);
  const graphs = result.graphs.length;
  out += graphs === 0 ? "no contract changes\n" : `${n.breaking} breaking, ${n.dangerous} dangerous, ${n.safe} safe change${n.breaking + n.dangerous + n.safe === 1 ? "" : "s"} in ${graphs} graph${graphs === 1 ? "" : "s"}${result.fails ? ": failing" : ""}\n`;
  return out;
}

function nextMajor(version: string | undefined): string {
  const major = version === undefined ? undefined : /^(\d+)\./.exec(version)?.[1];
  return major === undefined ? "1.0.0" : `${Number(major) + 1}.0.0`;
}

function jsonOf(result: DiffResult, locate: Locate) {
  return {
    fails: result.fails,
    summary: counts(result),
    graphs: result.graphs.map((g) => ({ ...g, changes: g.changes.map((c) => ({ ...c, line: locate(g, c) ?? null })) })),
  };
}

/** GitHub workflow command escaping: data escapes %, CR, LF; property values also `:` and `,`. */
const escapeData = (s: string) => s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
const escapeProperty = (s: string) => escapeData(s).replace(/:/g, "%3A").replace(/,/g, "%2C");

function githubLine(g: GraphDiff, c: Change, locate: Locate): string {
  const command = c.level === "breaking" ? (g.fails ? "error" : "warning") : c.level === "dangerous" ? "warning" : "notice";
  const line = locate(g, c);
  const props = [`file=${escapeProperty(g.file)}`, ...(line === undefined ? [] : [`line=${line}`]), `title=${escapeProperty(`graphc diff: ${c.level} (${c.kind})`)}`];
  return `::${command} ${props.join(",")}::${escapeData(`${g.name}: ${c.message}`)}\n`;
}
