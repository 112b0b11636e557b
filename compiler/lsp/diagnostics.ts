/**
 * Diagnostics as you type: every change schedules one run after a short quiet period (debounce), runs
 * never overlap, and a run whose texts changed meanwhile is not published (the next one is already
 * scheduled). Each run publishes for every file of the program — an empty list clears a file that had
 * problems — and for files that left the program.
 */
import { DiagnosticSeverity, type Connection, type Diagnostic as LspDiagnostic } from "vscode-languageserver";
import type { Diagnostic } from "../../grammar/diagnostic.ts";
import { pathToUri, spanToRange } from "./paths.ts";
import type { Workspace } from "./workspace.ts";

export function toLsp(x: Diagnostic): LspDiagnostic {
  return {
    range: spanToRange(x.span),
    severity: x.severity === "error" ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
    code: x.code,
    source: "graphc",
    // the hint is the most useful line of a graphc diagnostic: editors show only `message`
    message: x.hint === undefined ? x.message : `${x.message}\nhelp: ${x.hint}`,
    relatedInformation: x.related.map((r) => ({ location: { uri: pathToUri(r.span.file), range: spanToRange(r.span) }, message: r.message })),
    data: { ...(x.label !== undefined ? { label: x.label } : {}), ...(x.hint !== undefined ? { hint: x.hint } : {}) },
  };
}

export class DiagnosticsPublisher {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private published = new Set<string>();

  constructor(
    private readonly connection: Connection,
    private readonly workspace: Workspace,
    private readonly debounceMs: number,
  ) {}

  schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.run();
    }, this.debounceMs);
  }

  private async run(): Promise<void> {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.publish().catch((e: unknown) => this.connection.console.error(`graphc: ${String(e)}`));
    await this.running;
    this.running = undefined;
    if (this.again) {
      this.again = false;
      await this.run();
    }
  }

  private async publish(): Promise<void> {
    const { analysis, diagnostics } = await this.workspace.diagnose();
    if (analysis.generation !== this.workspace.current) return void this.schedule();
    const files = new Map<string, Diagnostic[]>();
    for (const f of analysis.checked.program?.files.keys() ?? []) files.set(f, []);
    for (const e of analysis.entries) files.set(e, files.get(e) ?? []);
    for (const x of diagnostics) files.set(x.span.file, [...(files.get(x.span.file) ?? []), x]);
    for (const gone of this.published) if (!files.has(gone)) files.set(gone, []);
    this.published = new Set();
    for (const [file, list] of files) {
      if (list.length > 0) this.published.add(file);
      await this.connection.sendDiagnostics({ uri: pathToUri(file), diagnostics: list.map(toLsp) });
    }
  }
}
