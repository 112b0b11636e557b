/**
 * print/ast.ts nodes -> documents (print/doc.ts) following prettier's printing rules for the constructs
 * generated code uses (options: babel-ts, printWidth 110, everything else prettier's default). Where a
 * rule is not built here the node throws Refused, or its layout is marked `refuse`/`FAIL` so that only
 * the layouts built here can be chosen.
 */
import type { Node } from "./ast.ts";
import { type Doc, Refused, group, hardline, ifBreak, indent, indentIfBreak, join, line, lineSuffix, softline, willBreak } from "./doc.ts";
import { printString } from "./strings.ts";
import { type At, child, isBinaryish } from "./at.ts";
import { expr, objectLike, shouldInlineLogical } from "./print-expr.ts";
import { member, signature } from "./print-calls.ts";
import { shouldHugType, type, typeArguments } from "./print-types.ts";

/** A statement with its leading comments (own lines) and the comments after it in its list. */
export function printStatement(at: At): Doc {
  return withComments(at.node, statement(at));
}

export function topLevel(node: Node): At {
  return { node, key: "body" };
}

export function withComments(node: Node, doc: Doc): Doc {
  if (!node.lead && !node.trail) return doc;
  const parts: Doc[] = [];
  for (const c of node.lead ?? []) parts.push(comment(c), hardline);
  parts.push(doc);
  for (const c of node.trail ?? []) parts.push(lineSuffix([hardline, comment(c)]));
  return parts;
}

/** prettier's printComment: a line comment without trailing spaces, a `*`-lined block comment re-indented */
export function comment(text: string): Doc {
  if (text.startsWith("//")) return text.trimEnd();
  if (!text.includes("\n")) return text;
  const lines = text.split("\n");
  return join(hardline, lines.map((l, i) => (i === 0 ? l.trimEnd() : ` ${i < lines.length - 1 ? l.trim() : l.trimStart()}`)));
}

// ---------------------------------------------------------------- statements

export function statements(at: At, list: readonly Node[], key: string): Doc {
  return join(hardline, list.map((s) => printStatement(child(at, key, s))));
}

export function statement(at: At): Doc {
  const n = at.node;
  switch (n.type) {
    case "ExpressionStatement": {
      const e = n.arg!;
      if (e.type === "ObjectExpression" || e.type === "StringLiteral" || e.type === "TemplateLiteral") throw new Refused("statement start");
      if (startsWithBrace(e)) throw new Refused("statement starts with a brace");
      return [expr(child(at, "expression", e)), ";"];
    }
    case "VariableDeclaration":
      return [variableDeclaration(at), ";"];
    case "ExportNamedDeclaration":
      return ["export ", statement(child(at, "declaration", n.decl!))];
    case "ImportDeclaration":
      return importDeclaration(n);
    case "FunctionDeclaration":
      return ["function ", n.id!.name!, signature(at), " ", block(child(at, "body", n.body!))];
    case "TSTypeAliasDeclaration":
      return [assignmentLike(at, ["type ", n.id!.name!], " =", child(at, "typeAnnotation", n.value!)), ";"];
    case "TSInterfaceDeclaration":
      return ["interface ", n.id!.name!, " ", objectLike(child(at, "body", n.body!), true)];
    case "BlockStatement":
      return block(at);
    case "IfStatement":
      return ifStatement(at);
    case "ForOfStatement":
    case "ForInStatement":
      return group([
        "for (",
        variableDeclaration(child(at, "left", n.left!)),
        n.type === "ForOfStatement" ? " of " : " in ",
        expr(child(at, "right", n.right!)),
        ")",
        clause(at, n.body!),
      ]);
    case "ForStatement": {
      const u = n.arg!;
      const head: Doc = [variableDeclaration(child(at, "init", n.init!)), ";", line, expr(child(at, "test", n.test!)), ";", line, u.arg!.name!, u.op!];
      return group(["for (", group([indent([softline, head]), softline]), ")", clause(at, n.body!)]);
    }
    case "SwitchStatement":
      return switchStatement(at);
    case "ReturnStatement":
    case "ThrowStatement":
      return [n.type === "ReturnStatement" ? "return" : "throw", n.arg ? returnArgument(child(at, "argument", n.arg)) : "", ";"];
    case "BreakStatement":
      return "break;";
    case "ContinueStatement":
      return "continue;";
    default:
      throw new Refused(`statement ${n.type}`);
  }
}

export function startsWithBrace(e: Node): boolean {
  if (e.parens) return false;
  if (e.type === "ObjectExpression") return true;
  const first = e.type === "CallExpression" ? e.callee : e.type === "MemberExpression" ? e.object : isBinaryish(e) || e.type === "AssignmentExpression" ? e.left : e.type === "ConditionalExpression" ? e.test : e.type === "TSAsExpression" || e.type === "TSNonNullExpression" ? e.arg : undefined;
  return first !== undefined && startsWithBrace(first);
}

export function block(at: At): Doc {
  const stmts = at.node.stmts!;
  if (stmts.length === 0) return "{}";
  return ["{", indent([hardline, statements(at, stmts, "body")]), hardline, "}"];
}

/** prettier's adjustClause: a block stays on the line, anything else is indented on the next */
export function clause(at: At, body: Node): Doc {
  const key = "body";
  if (body.type === "BlockStatement") return [" ", printStatement(child(at, key, body))];
  return indent([line, printStatement(child(at, key, body))]);
}

export function ifStatement(at: At): Doc {
  const n = at.node;
  const cons = n.cons!;
  const consDoc = cons.type === "BlockStatement" ? [" ", printStatement(child(at, "consequent", cons))] : indent([line, printStatement(child(at, "consequent", cons))]);
  const test = n.test!;
  const testDoc = expr(child(at, "test", test));
  // prettier 3 hugs a negated operator expression: `if (!(` … `))`
  const hug = test.type === "UnaryExpression" && test.op === "!" && isBinaryish(test.arg);
  const parts: Doc[] = [group(["if (", hug ? testDoc : group([indent([softline, testDoc]), softline]), ")", consDoc])];
  if (n.alt) {
    if (cons.trail || n.alt.lead) throw new Refused("comment before else");
    parts.push(cons.type === "BlockStatement" ? " " : hardline, "else");
    const alt = n.alt;
    const altDoc = alt.type === "BlockStatement" || alt.type === "IfStatement" ? [" ", printStatement(child(at, "alternate", alt))] : indent([line, printStatement(child(at, "alternate", alt))]);
    parts.push(group(altDoc));
  }
  return group(parts);
}

export function switchStatement(at: At): Doc {
  const n = at.node;
  const cases = n.cases!.map((c) => {
    const cat = child(at, "cases", c);
    const head: Doc = c.test ? ["case ", expr(child(cat, "test", c.test))] : "default";
    const stmts = c.stmts!;
    let body: Doc = "";
    if (stmts.length === 1 && stmts[0]!.type === "BlockStatement") body = [" ", printStatement(child(cat, "consequent", stmts[0]!))];
    else if (stmts.length > 0) body = indent([hardline, statements(cat, stmts, "consequent")]);
    return withComments(c, [head, ":", body]);
  });
  return ["switch (", expr(child(at, "discriminant", n.test!)), ") {", cases.length > 0 ? indent([hardline, join(hardline, cases)]) : "", hardline, "}"];
}

export function returnArgument(at: At): Doc {
  const arg = at.node;
  if (arg.lead) throw new Refused("comment in return");
  if (isBinaryish(arg)) return group([" ", ifBreak("("), indent([softline, expr(at)]), softline, ifBreak(")")]);
  return [" ", expr(at)];
}

export function importDeclaration(n: Node): Doc {
  const specs = n.specs!.map((s) => withComments(s, [s.isType ? "type " : "", s.name!]));
  const head = n.isType ? "import type " : "import ";
  const source = printString(n.source!.raw!);
  if (specs.length === 0) return [head, "{} from ", source, ";"];
  if (n.specs!.some((s) => s.lead || s.trail)) throw new Refused("comment in an import");
  return [head, group(["{", indent([line, join([",", line], specs)]), ifBreak(","), line, "}"]), " from ", source, ";"];
}

export function variableDeclaration(at: At): Doc {
  const n = at.node;
  const decls = n.decls!;
  if (decls.length !== 1) throw new Refused("several declarators");
  const d = decls[0]!;
  const dat = child(at, "declarations", d);
  const id = d.id!;
  const left: Doc = [n.kind!, " ", id.name!, id.ann ? [": ", type(child(child(dat, "id", id), "typeAnnotation", id.ann))] : ""];
  if (!d.init) return group(left);
  return group(assignmentLike(dat, left, " =", child(dat, "init", d.init)));
}

// ---------------------------------------------------------------- assignments

/**
 * prettier's printAssignment: the layout of `left op right` chosen from the right side's kind
 * (chooseLayout), for the layouts generated code reaches.
 */
export function assignmentLike(at: At, left: Doc, op: string, right: At): Doc {
  const rightDoc = right.key === "typeAnnotation" ? type(right) : expr(right);
  if (at.node.type === "TSTypeAliasDeclaration" && right.node.type === "TSUnionType" && !shouldHugType(right.node)) {
    // prettier 3: on the line of `=` if it fits, else alone on the next line (one member a line: refused)
    return group([group(left), op, group(indent([line, rightDoc]))]);
  }
  const layout = chooseLayout(at, left, right.node);
  switch (layout) {
    case "break-after-operator":
      return group([group(left), op, group(indent([line, rightDoc]))]);
    case "never-break-after-operator":
      return group([group(left), op, " ", rightDoc]);
    case "break-lhs":
      return group([left, op, " ", group(rightDoc)]);
    case "fluid": {
      const id = Symbol("assignment");
      return group([group(left), op, group(indent(line), false, id), indentIfBreak(rightDoc, id)]);
    }
  }
}

type Layout = "break-after-operator" | "never-break-after-operator" | "break-lhs" | "fluid";

export function chooseLayout(at: At, left: Doc, right: Node): Layout {
  const n = at.node;
  if (n.type === "VariableDeclarator" && n.id!.ann && isComplexTypeAnnotation(n.id!.ann)) return "break-lhs";
  if (n.type === "TSTypeAliasDeclaration") {
    // a type alias: unions break on their own (a leading `|` per member), object types hug
    if (right.type === "TSUnionType" || right.type === "TSConditionalType") return "break-lhs";
  }
  // prettier: a key narrower than tabWidth + 3 columns is not worth a line break after it
  const hasShortKey = n.type === "ObjectProperty" && !n.computed && typeof left === "string" && left.length < 2 + 3;
  if (shouldBreakAfterOperator(right, hasShortKey)) return "break-after-operator";
  if (right.type === "TemplateLiteral" || hasShortKey || (right.type === "Identifier" && (right.name === "true" || right.name === "false")) || right.type === "NumericLiteral") {
    return "never-break-after-operator";
  }
  if (right.type === "CallExpression" && right.callee!.type === "Identifier" && right.callee!.name === "require") return "never-break-after-operator";
  if (isPoorlyBreakableMemberOrCallChain(right)) return "break-after-operator";
  return "fluid";
}

export function shouldBreakAfterOperator(right: Node, hasShortKey: boolean): boolean {
  if (isBinaryish(right) && !shouldInlineLogical(right)) return true;
  if (right.type === "ConditionalExpression") return isBinaryish(right.test) && !shouldInlineLogical(right.test!);
  if (hasShortKey) return false;
  let node = right;
  if (node.type === "UnaryExpression" || node.type === "TSNonNullExpression") node = node.arg!;
  return node.type === "StringLiteral" || isMemberExpressionChain(node);
}

export function isMemberExpressionChain(n: Node): boolean {
  if (n.type !== "MemberExpression") return false;
  if (n.object!.type === "Identifier") return true;
  return isMemberExpressionChain(n.object!);
}

/** prettier: a chain of member accesses and calls with no or one short argument each */
export function isPoorlyBreakableMemberOrCallChain(n: Node, deep = false): boolean {
  if (n.type === "TSNonNullExpression") return isPoorlyBreakableMemberOrCallChain(n.arg!, true);
  if (n.type === "MemberExpression") return isPoorlyBreakableMemberOrCallChain(n.object!, true);
  if (n.type === "CallExpression") {
    const args = n.args!;
    const poor = args.length === 0 || (args.length === 1 && isLoneShortArgument(args[0]!));
    if (!poor) return false;
    const targs = n.typeArgs;
    if (targs && (targs.length > 1 || (targs.length === 1 && ["TSUnionType", "TSIntersectionType", "TSTypeLiteral"].includes(targs[0]!.type)))) return false;
    if (targs && willBreak(typeArguments(n.callee!, targs))) return false;
    return isPoorlyBreakableMemberOrCallChain(n.callee!, true);
  }
  return deep && n.type === "Identifier";
}

export function isLoneShortArgument(n: Node): boolean {
  // prettier: a quarter of the print width for names and strings
  const threshold = 110 * 0.25;
  if (n.type === "Identifier") return n.name!.length <= threshold;
  if (n.type === "StringLiteral") return printString(n.raw!).length <= threshold;
  if (n.type === "NumericLiteral") return true;
  if (n.type === "UnaryExpression" && (n.op === "-" || n.op === "+") && n.arg!.type === "NumericLiteral") return true;
  if (n.type === "TemplateLiteral") return n.exprs!.length === 0 && n.quasis![0]!.length <= threshold;
  if ((n.type === "ObjectExpression" && n.props!.length > 0) || (n.type === "ArrayExpression" && n.elems!.length > 0)) return false;
  if (n.type === "ObjectExpression" || n.type === "ArrayExpression" || n.type === "UnaryExpression") throw new Refused("lone argument");
  return false;
}

/** prettier's hasComplexTypeAnnotation: a declared type with several type arguments, one an object type */
export function isComplexTypeAnnotation(ann: Node): boolean {
  const args = ann.type === "TSTypeReference" ? ann.typeArgs : undefined;
  return args !== undefined && args.length > 1 && args.some((a) => a.type === "TSTypeLiteral");
}
