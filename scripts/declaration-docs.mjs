// The editor docs the published @graphc/runtime must keep: the doc comments of the public members users
// hover (the compiled graphs' methods, the generated spec's members that hand-written specs and readers of
// generated code meet). The build shrinks declarations to fit the package's size budget (build.mjs
// `documented`, shake-declarations.mjs); `checkDocs` makes it fail rather than drop one of these
// (test/packages/declaration-docs.test.ts).
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { ts } from "ts-morph";

/**
 * module → type → members whose doc comment the published declaration carries ("*": the type's own). A
 * class's member may come from a class it extends (LeanGraph's `invoke` is StaticGraph's).
 */
export const PUBLIC_DOCS = Object.freeze({
  spec: {
    GraphSpec: ["*", "compilerVersion", "init", "input", "output", "apply", "applyOne", "clearEphemeral", "nodes", "start", "joins", "recursionLimit", "vars", "outputFields", "checkUpdate", "stateful"],
    EdgeSpec: ["edges", "joins", "branches"],
    NodeSpec: ["read", "call", "sync", "check", "ends", "subgraph", "onError"],
    NodeContext: ["*", "namespace", "store", "writer", "messages", "interrupt", "heartbeat", "run", "runSubgraph", "runSubgraphNow"],
  },
  "graph-base": { GraphBase: ["*", "withConfig", "stream", "updateState", "bulkUpdateState"] },
  graph: { CompiledGraph: ["*", "withConfig", "invoke", "stream"] },
  "static/graph": { StaticGraph: ["*", "withConfig", "invoke", "stream"], LeanGraph: ["*", "withConfig", "invoke", "stream"] },
});

const hasDoc = (node) => ts.getJSDocCommentsAndTags(node).length > 0;

/** `name`'s class or interface declaration in the module `file` of `dist` (files ending `ext`), with its module */
function declaration(dist, ext, file, name) {
  const path = join(dist, `${file}${ext}`);
  if (!existsSync(path)) return undefined;
  const source = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
  for (const s of source.statements) {
    if ((ts.isClassDeclaration(s) || ts.isInterfaceDeclaration(s)) && s.name?.text === name) return { file, node: s };
    // a type imported from a sibling module (`import { StaticGraph } from "../static/graph.js"`)
    const bindings = ts.isImportDeclaration(s) ? s.importClause?.namedBindings : undefined;
    if (bindings === undefined || !ts.isNamedImports(bindings) || !bindings.elements.some((e) => e.name.text === name)) continue;
    const from = join(dirname(file), s.moduleSpecifier.text.replace(/\.[jt]s$/, "")).split("\\").join("/");
    return declaration(dist, ext, from, name);
  }
  return undefined;
}

/** whether `member` of the type declared by `decl` (or of the classes it extends) has a doc comment */
function memberDocumented(dist, ext, decl, member) {
  if (decl.node.members.some((m) => m.name?.getText() === member && hasDoc(m))) return true;
  if (decl.node.members.some((m) => m.name?.getText() === member)) return false;
  for (const clause of decl.node.heritageClauses ?? []) {
    for (const t of clause.types) {
      const base = declaration(dist, ext, decl.file, t.expression.getText());
      if (base !== undefined && memberDocumented(dist, ext, base, member)) return true;
    }
  }
  return false;
}

/**
 * The listed docs missing from the modules in `dist`, as `module: Type.member` lines: the published
 * declarations (`ext` ".d.ts") or the sources they come from (".ts").
 */
export function missingDocs(dist, expected = PUBLIC_DOCS, ext = ".d.ts") {
  const missing = [];
  for (const [file, types] of Object.entries(expected)) {
    for (const [type, members] of Object.entries(types)) {
      const decl = declaration(dist, ext, file, type);
      for (const member of members) {
        const ok = decl !== undefined && (member === "*" ? hasDoc(decl.node) : memberDocumented(dist, ext, decl, member));
        if (!ok) missing.push(`${file}: ${type}${member === "*" ? "" : `.${member}`}`);
      }
    }
  }
  return missing;
}

/** Throws when the declarations in `dist` lack one of the listed docs. */
export function checkDocs(dist) {
  const missing = missingDocs(dist);
  if (missing.length > 0) throw new Error(`the published declarations lost editor docs: ${missing.join(", ")}`);
}
