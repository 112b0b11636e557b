/**
 * The TypeScript side of a `.graph` file's imports, read from the module's source (syntax only, no
 * checker: a lookup per hover or jump must stay instant): where an exported function is declared, and its
 * signature as written. Modules resolve like the emitter's relative imports: the specifier as written, or
 * with `.js` read as `.ts`.
 */
import { readFileSync, statSync } from "node:fs";
import { posix } from "node:path";
import type { ts as TS } from "ts-morph";
import { ts } from "../ts-api.ts";

export interface TsExport {
  readonly path: string;
  /** 0-based line and character of the declared name */
  readonly line: number;
  readonly character: number;
  readonly endCharacter: number;
  /** `(s: HelloGreetRead): HelloGreetUpdate` as written, or the declared type */
  readonly signature: string;
}

/** The file a relative module specifier of `graphFile` names, if it exists. */
export function resolveModule(module: string, graphFile: string): string | undefined {
  if (!module.startsWith(".") && !module.startsWith("/")) return undefined;
  const base = posix.resolve(posix.dirname(graphFile), module);
  const candidates = [base, base.replace(/\.js$/, ".ts"), base.replace(/\.mjs$/, ".mts"), `${base}.ts`, posix.join(base, "index.ts")];
  return candidates.find((c) => {
    try {
      return statSync(c).isFile();
    } catch {
      return false;
    }
  });
}

const parsed = new Map<string, { mtime: number; sf: TS.SourceFile }>();

function sourceFile(path: string): TS.SourceFile | undefined {
  try {
    const mtime = statSync(path).mtimeMs;
    const hit = parsed.get(path);
    if (hit?.mtime === mtime) return hit.sf;
    const sf = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.ES2022, true);
    parsed.set(path, { mtime, sf });
    return sf;
  } catch {
    return undefined;
  }
}

/** Names a module exports (for completion inside `import { … }`). */
export function exportedNames(path: string): string[] {
  const sf = sourceFile(path);
  if (!sf) return [];
  const out: string[] = [];
  for (const st of sf.statements) {
    if (!exported(st)) {
      if (ts.isExportDeclaration(st) && st.exportClause && ts.isNamedExports(st.exportClause))
        for (const e of st.exportClause.elements) out.push(e.name.text);
      continue;
    }
    if (ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name)) out.push(d.name.text);
    } else if ((ts.isFunctionDeclaration(st) || ts.isTypeAliasDeclaration(st) || ts.isInterfaceDeclaration(st) || ts.isClassDeclaration(st)) && st.name)
      out.push(st.name.text);
  }
  return out;
}

/** The declaration of export `name` in `path` (following `export { local as name }` within the file). */
export function findExport(path: string, name: string): TsExport | undefined {
  const sf = sourceFile(path);
  if (!sf) return undefined;
  let local = name;
  for (const st of sf.statements) {
    if (ts.isExportDeclaration(st) && !st.moduleSpecifier && st.exportClause && ts.isNamedExports(st.exportClause))
      for (const e of st.exportClause.elements) if (e.name.text === name) local = (e.propertyName ?? e.name).text;
  }
  for (const st of sf.statements) {
    if (ts.isFunctionDeclaration(st) && st.name?.text === local) return at(sf, path, st.name, functionSignature(sf, st));
    if ((ts.isTypeAliasDeclaration(st) || ts.isInterfaceDeclaration(st) || ts.isClassDeclaration(st)) && st.name?.text === local)
      return at(sf, path, st.name, "");
    if (ts.isVariableStatement(st))
      for (const d of st.declarationList.declarations)
        if (ts.isIdentifier(d.name) && d.name.text === local) return at(sf, path, d.name, variableSignature(sf, d));
  }
  return undefined;
}

function exported(st: TS.Statement): boolean {
  return ts.canHaveModifiers(st) && (ts.getModifiers(st) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
}

function at(sf: TS.SourceFile, path: string, id: TS.Identifier, signature: string): TsExport {
  const start = sf.getLineAndCharacterOfPosition(id.getStart(sf));
  return { path, line: start.line, character: start.character, endCharacter: start.character + id.text.length, signature };
}

type FnLike = TS.FunctionDeclaration | TS.FunctionExpression | TS.ArrowFunction;

/** `(params): ret` of a function as written, the body left out */
function fnText(sf: TS.SourceFile, f: FnLike): string {
  const params = f.parameters.map((p) => p.getText(sf)).join(", ");
  const ret = f.type ? `: ${f.type.getText(sf)}` : "";
  const prefix = (ts.getModifiers(f) ?? []).some((m) => m.kind === ts.SyntaxKind.AsyncKeyword) ? "async " : "";
  return `${prefix}(${params})${ret}`;
}

function functionSignature(sf: TS.SourceFile, f: TS.FunctionDeclaration): string {
  return `function ${f.name?.text ?? ""}${fnText(sf, f)}`;
}

function variableSignature(sf: TS.SourceFile, d: TS.VariableDeclaration): string {
  const name = d.name.getText(sf);
  if (d.type) return `const ${name}: ${d.type.getText(sf)}`;
  const init = d.initializer;
  if (init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init))) return `const ${name} = ${fnText(sf, init)}`;
  return `const ${name}`;
}
