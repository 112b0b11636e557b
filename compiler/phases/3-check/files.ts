/**
 * File-level rules: a `.graph` file that declares neither a graph nor a type has nothing to compile or to
 * import (an empty file, one holding only comments, or only imports). A warning, not an error: it breaks
 * nothing, but `graphc check` must not call it "no problems" silently. A file of only `type` aliases is a
 * type library (other files import from it) and is fine; so is a file of interfaces.
 */
import { fileStart } from "../2-bind/bind.ts";
import { d } from "../../diagnostics/messages.ts";
import type { CheckContext } from "./context.ts";

export function checkFiles(ctx: CheckContext): void {
  for (const file of ctx.program.files.values()) {
    const items = file.ast.items;
    if (items.some((i) => i.kind === "Graph" || i.kind === "TypeAlias" || i.kind === "Interface")) continue;
    ctx.diagnostics.push(d.fileDeclaresNothing(fileStart(file.path), { file: file.path, empty: file.text.trim() === "" }));
  }
}
