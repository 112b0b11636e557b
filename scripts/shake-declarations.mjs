// Tree-shakes a package's emitted declarations: keeps the .d.ts files, and inside them the top-level
// statements, that the package's `exports` reach through exports, imports and type references; deletes the
// rest (the runtime's loop, tasks and durable execution, and the internal helpers that public modules
// export to the runtime's other modules), and the doc comments no editor shows. Declaration maps are
// rewritten to the lines that remain, so "go to definition" still lands on the source line.
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { ts } from "ts-morph";
import { MANGLED } from "./mangle-props.mjs";
import { decodeMappings, encodeMappings } from "./vlq.mjs";

/** the names a top-level statement declares */
function declaredNames(s) {
  if (ts.isVariableStatement(s)) return s.declarationList.declarations.map((d) => d.name.getText());
  return s.name !== undefined && ts.isIdentifier(s.name) ? [s.name.text] : [];
}

const isExported = (s) => (ts.getCombinedModifierFlags(s) & ts.ModifierFlags.Export) !== 0;

/** One parsed .d.ts: statements by declared name, imports by local name, the statements kept so far. */
function parse(path) {
  const text = readFileSync(path, "utf8");
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const locals = new Map();
  const imports = new Map();
  for (const s of source.statements) {
    for (const name of declaredNames(s)) locals.set(name, [...(locals.get(name) ?? []), s]);
    if (ts.isImportDeclaration(s) && s.importClause !== undefined) {
      const { name, namedBindings } = s.importClause;
      if (name !== undefined) imports.set(name.text, s);
      if (namedBindings !== undefined && ts.isNamedImports(namedBindings)) {
        for (const e of namedBindings.elements) imports.set(e.name.text, s);
      }
      if (namedBindings !== undefined && ts.isNamespaceImport(namedBindings)) imports.set(namedBindings.name.text, s);
    }
  }
  return { path, text, source, locals, imports, kept: new Set() };
}

/** `"./x.js"` from `file` → the path of x.d.ts */
const target = (file, specifier) => join(dirname(file.path), specifier.replace(/\.js$/, ".d.ts"));

/**
 * Keeps what `entries` (absolute .d.ts paths) reach in `dist`, deleting everything else. Conservative: a
 * name is resolved by its text in the file that mentions it (a property named like a declaration keeps
 * that declaration), and a kept import or re-export keeps all of its names.
 */
export function shakeDeclarations(dist, entries) {
  const files = new Map();
  const file = (path) => {
    if (!files.has(path)) files.set(path, parse(path));
    return files.get(path);
  };
  const todo = [];
  const keep = (f, s) => {
    if (!f.kept.has(s)) {
      f.kept.add(s);
      todo.push([f, s]);
    }
  };
  // an exported name of a file: its declaration, or the re-export that forwards it
  const need = (f, name) => {
    for (const s of f.locals.get(name) ?? []) keep(f, s);
    for (const s of f.source.statements) {
      if (!ts.isExportDeclaration(s)) continue;
      const named = s.exportClause !== undefined && ts.isNamedExports(s.exportClause);
      if (named ? s.exportClause.elements.some((e) => e.name.text === name) : s.moduleSpecifier !== undefined) keep(f, s);
    }
  };
  for (const entry of entries) {
    const f = file(entry);
    for (const s of f.source.statements) keep(f, s);
  }
  while (todo.length > 0) {
    const [f, s] = todo.pop();
    if (ts.isExportDeclaration(s) && s.moduleSpecifier !== undefined) {
      const from = file(target(f, s.moduleSpecifier.text));
      if (s.exportClause === undefined || !ts.isNamedExports(s.exportClause)) {
        for (const t of from.source.statements) if (isExported(t) || ts.isExportDeclaration(t)) keep(from, t);
      } else for (const e of s.exportClause.elements) need(from, (e.propertyName ?? e.name).text);
      continue;
    }
    if (ts.isImportDeclaration(s)) {
      const from = file(target(f, s.moduleSpecifier.text));
      const bindings = s.importClause?.namedBindings;
      if (bindings !== undefined && ts.isNamedImports(bindings)) {
        for (const e of bindings.elements) need(from, (e.propertyName ?? e.name).text);
      } else for (const t of from.source.statements) keep(from, t);
      continue;
    }
    const visit = (node) => {
      if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
        const from = file(target(f, node.argument.literal.text));
        if (node.qualifier !== undefined) need(from, ts.isIdentifier(node.qualifier) ? node.qualifier.text : node.qualifier.left.getText());
      } else if (ts.isIdentifier(node)) {
        for (const t of f.locals.get(node.text) ?? []) keep(f, t);
        const imported = f.imports.get(node.text);
        if (imported !== undefined) keep(f, imported);
      }
      ts.forEachChild(node, visit);
    };
    // `export { a as b }` without `from` names local declarations
    ts.forEachChild(s, visit);
  }
  for (const name of readdirSync(dist, { recursive: true, encoding: "utf8" })) {
    const path = join(dist, name);
    if (!name.endsWith(".d.ts")) continue;
    const f = files.get(path);
    if (f === undefined) {
      rmSync(path);
      rmSync(`${path}.map`, { force: true });
    } else dropLines(f);
  }
}

/**
 * The doc comments a user never sees in the editor: the file's own (the module's design notes, which no
 * hover shows) and those of private members (emitted as bare names). They stay in the shipped sources,
 * where the declaration maps lead.
 */
function unseenComments(f) {
  const comments = [];
  const first = f.source.statements[0];
  if (first !== undefined) {
    const leading = ts.getLeadingCommentRanges(f.text, first.getFullStart()) ?? [];
    // the last comment before a declaration is its doc comment
    const declaration = !ts.isImportDeclaration(first) && !ts.isExportDeclaration(first);
    comments.push(...(declaration ? leading.slice(0, -1) : leading));
  }
  const visit = (node) => {
    const member = ts.isPropertyDeclaration(node) || ts.isMethodDeclaration(node) || ts.isGetAccessor(node) || ts.isSetAccessor(node);
    if (member && (ts.getCombinedModifierFlags(node) & ts.ModifierFlags.Private) !== 0) {
      comments.push(...(ts.getLeadingCommentRanges(f.text, node.getFullStart()) ?? []));
    }
    ts.forEachChild(node, visit);
  };
  visit(f.source);
  return comments;
}

/**
 * The private members of `f`'s classes that say nothing a user can use: tsc writes each as a bare name
 * (`private heads;`) so that the class stays nominal, and one private or protected member does that; a
 * member whose name the bundle mangles (mangle-props.mjs) does not even have that name at run time. Those
 * are dropped but one per class, when nothing else keeps the class nominal.
 */
function redundantPrivates(f) {
  const mangled = new Set(MANGLED);
  const out = [];
  for (const s of f.source.statements) {
    if (!ts.isClassDeclaration(s) || !f.kept.has(s)) continue;
    const hidden = (m) => (ts.getCombinedModifierFlags(m) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) !== 0;
    const droppable = s.members.filter((m) => hidden(m) && (ts.getCombinedModifierFlags(m) & ts.ModifierFlags.Private) !== 0 && m.name !== undefined && mangled.has(m.name.getText()));
    const nominal = s.members.some((m) => hidden(m) && !droppable.includes(m));
    out.push(...(nominal ? droppable : droppable.slice(1)));
  }
  return out;
}

/**
 * Deletes from `f` the lines of its statements not kept (with their doc comments) and of its comments no
 * user sees, indents with tabs and drops `declare` after `export`, in the file and in its declaration map.
 */
function dropLines(f) {
  const lineOf = (pos) => f.source.getLineAndCharacterOfPosition(pos).line;
  const lines = f.text.split("\n");
  const dropped = new Set();
  const drop = (from, to) => {
    const start = f.source.getLineAndCharacterOfPosition(from);
    const end = f.source.getLineAndCharacterOfPosition(to);
    // only whole lines (tsc writes each statement and doc comment on lines of its own)
    if (lines[start.line].slice(0, start.character).trim() !== "" || lines[end.line].slice(end.character).trim() !== "") return;
    for (let line = start.line; line <= end.line; line++) dropped.add(line);
  };
  for (const s of f.source.statements) {
    if (f.kept.has(s)) continue;
    const comments = ts.getLeadingCommentRanges(f.text, s.getFullStart()) ?? [];
    drop(comments.length > 0 ? comments[0].pos : s.getStart(), s.getEnd());
  }
  for (const c of unseenComments(f)) drop(c.pos, c.end);
  for (const m of redundantPrivates(f)) drop(m.getStart(), m.getEnd());
  const map = JSON.parse(readFileSync(`${f.path}.map`, "utf8"));
  const mappings = decodeMappings(map.mappings);
  const kept = [];
  const keptMappings = [];
  lines.forEach((line, i) => {
    if (dropped.has(i)) return;
    // tsc indents by four spaces: a tab each is a quarter of the bytes; and in a .d.ts everything is
    // ambient, so `export declare` says no more than `export` (DefinitelyTyped's style). The map's columns
    // move with the text.
    const indent = /^(?: {4})*/.exec(line)[0].length;
    const declare = indent === 0 && line.startsWith("export declare ") ? "declare ".length : 0;
    const cut = (indent / 4) * 3 + declare;
    kept.push(declare > 0 ? `export ${line.slice("export declare ".length)}` : "\t".repeat(indent / 4) + line.slice(indent));
    keptMappings.push((mappings[i] ?? []).map(([column, ...rest]) => [Math.max(column >= indent + declare ? column - cut : 0, 0), ...rest]));
  });
  writeFileSync(f.path, kept.join("\n"));
  // a map's lines end with the last mapped one (the source map comment has none)
  while (keptMappings.length > 0 && keptMappings[keptMappings.length - 1].length === 0) keptMappings.pop();
  map.mappings = encodeMappings(keptMappings);
  writeFileSync(`${f.path}.map`, JSON.stringify(map));
}
