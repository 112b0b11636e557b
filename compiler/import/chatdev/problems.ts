/**
 * What `graphc import chatdev` reports: errors (nothing is written), and notes on what the translation
 * changes or leaves out (ChatDev features with no counterpart), each at a file and line of the YAML.
 */
export interface ImportProblem {
  readonly severity: "error" | "warning";
  readonly file: string;
  readonly line: number;
  /** the YAML path (`graph.nodes[2].config`), empty for the whole file */
  readonly path: string;
  readonly message: string;
}

export class ImportProblems {
  readonly list: ImportProblem[] = [];

  error(file: string, line: number, path: string, message: string): void {
    this.list.push({ severity: "error", file, line, path, message });
  }

  warning(file: string, line: number, path: string, message: string): void {
    this.list.push({ severity: "warning", file, line, path, message });
  }

  get hasErrors(): boolean {
    return this.list.some((p) => p.severity === "error");
  }
}

/** `file:line: warning: message (at graph.nodes[2])` */
export function renderProblem(p: ImportProblem): string {
  return `${p.file}:${p.line}: ${p.severity}: ${p.message}${p.path === "" ? "" : ` (at ${p.path})`}`;
}
