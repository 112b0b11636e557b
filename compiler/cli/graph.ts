/** `graphc graph FILE [--graph NAME] [--mermaid|--dot|--svg]`: draws a graph from the lowered IR on stdout. */
import { check, hasErrors } from "../check.ts";
import { draw, drawSvg } from "../draw/index.ts";
import { normalisePath } from "../phases/2-bind/host.ts";
import { lower } from "../phases/4-lower/index.ts";
import { expandFiles } from "./files.ts";
import { cliProject, readSource } from "./fs.ts";
import { type CliIO, EXIT, UsageError } from "./io.ts";
import { printDiagnostics } from "./report.ts";

export async function graphCommand(
  io: CliIO,
  arg: string,
  opts: { graph?: string; mermaid?: boolean; dot?: boolean; svg?: boolean; root?: string },
): Promise<number> {
  if ([opts.mermaid, opts.dot, opts.svg].filter(Boolean).length > 1) throw new UsageError("choose one of --mermaid, --dot and --svg");
  const files = expandFiles(io.cwd, [arg]);
  if (files.length !== 1) throw new UsageError(`\`${arg}\` names ${files.length} files; \`graph\` draws one file`);
  const file = normalisePath(files[0]!);
  readSource(io, file);
  const { host, frameSource: read } = cliProject(io, [file], opts.root);
  const checked = check([file], host, { root: opts.root });
  // warnings go to stderr too; stdout holds only the diagram
  printDiagnostics(io, checked.diagnostics, "pretty", read);
  if (checked.program === undefined || hasErrors(checked.diagnostics)) return EXIT.errors;
  const lowered = lower(checked.program);
  if (hasErrors(lowered.diagnostics)) {
    printDiagnostics(io, lowered.diagnostics, "pretty", read);
    return EXIT.errors;
  }
  const ir = lowered.value;
  const graphs = (ir.files.find((f) => f.file === file)?.graphs ?? []).filter((g) => !g.inline);
  const names = graphs.map((g) => `\`${g.name}\``).join(", ");
  let graph = graphs[0];
  if (opts.graph !== undefined) {
    graph = graphs.find((g) => g.name === opts.graph);
    if (graph === undefined) throw new UsageError(`${file} has no graph \`${opts.graph}\` (it declares ${names || "none"})`);
  } else if (graphs.length !== 1) {
    throw new UsageError(
      graphs.length === 0 ? `${file} declares no graph` : `${file} declares ${names}; choose one with --graph NAME`,
    );
  }
  io.stdout(opts.svg ? await drawSvg(ir, graph!) : draw(ir, graph!, opts.dot ? "dot" : "mermaid"));
  return EXIT.ok;
}
