/** Programs LangGraph rejects (or silently mangles) that graphc must reject at compile time: checked one by one. */
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { check, type Diagnostic } from "graphc";

const dir = fileURLToPath(new URL("./invalid/", import.meta.url));

/** The diagnostics of `invalid/<name>.graph`. */
export function diagnosticsOf(name: string): Diagnostic[] {
  return check([relative(process.cwd(), join(dir, `${name}.graph`))]).diagnostics;
}
