/**
 * Programs LangGraph rejects while building (or runs, silently dropping something) that graphc rejects at
 * compile time, checked one by one (only the checker runs: their TS imports are never resolved).
 */
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { check, type Diagnostic } from "graphc";

const dir = fileURLToPath(new URL("./invalid/", import.meta.url));

/** The diagnostics of `invalid/<name>.graph`. */
export function diagnosticsOf(name: string): Diagnostic[] {
  return check([relative(process.cwd(), join(dir, `${name}.graph`))]).diagnostics;
}

/** The codes of the errors of `invalid/<name>.graph` (each program holds exactly one mistake). */
export function errorCodes(name: string): string[] {
  return diagnosticsOf(name)
    .filter((d) => d.severity === "error")
    .map((d) => d.code);
}
