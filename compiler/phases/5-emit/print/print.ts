/**
 * print/ast.ts nodes -> documents (print/doc.ts) following prettier's printing rules for the constructs
 * generated code uses (options: babel-ts, printWidth 110, everything else prettier's default). Where a
 * rule is not built here the node throws Refused, or its layout is marked `refuse`/`FAIL` so that only
 * the layouts built here can be chosen.
 */
import type { Node } from "./ast.ts";
import {
  type Doc, FAIL, Refused, breakParent, conditionalGroup, group, hardline, ifBreak, indent, indentIfBreak, join, line, lineSuffix,
  refuse, softline, willBreak, align,
} from "./doc.ts";
import { printString } from "./strings.ts";

/** A node and its parent and the parent's field that holds it: what prettier's rules look at. */
interface At {
  readonly node: Node;
  readonly parent?: At;
  readonly key: string;
}

const PREC: Record<string, number> = {
  "??": 1, "||": 2, "&&": 3, "|": 4, "^": 5, "&": 6, "==": 7, "!=": 7, "===": 7, "!==": 7,
  "<": 8, ">": 8, "<=": 8, ">=": 8, in: 8, instanceof: 8, "<<": 9, "+": 10, "-": 10, "*": 11, "/": 11, "%": 11, "**": 12,
};
const EQUALITY = new Set(["==", "!=", "===", "!=="]);
const BINARYISH = new Set(["BinaryExpression", "LogicalExpression"]);

function isBinaryish(n: Node | undefined): boolean {
  return n !== undefined && BINARYISH.has(n.type);
}
function child(at: At, key: string, node: Node): At {
  return { node, parent: at, key };
}

/** A statement with its leading comments (own lines) and the comments after it in its list. */
export function printStatement(at: At): Doc {
  return withComments(at.node, statement(at));
}

export function topLevel(node: Node): At {
  return { node, key: "body" };
}

function withComments(node: Node, doc: Doc): Doc {
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

function statements(at: At, list: readonly Node[], key: string): Doc {
  return join(hardline, list.map((s) => printStatement(child(at, key, s))));
}

function statement(at: At): Doc {
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

function startsWithBrace(e: Node): boolean {
  if (e.parens) return false;
  if (e.type === "ObjectExpression") return true;
  const first = e.type === "CallExpression" ? e.callee : e.type === "MemberExpression" ? e.object : isBinaryish(e) || e.type === "AssignmentExpression" ? e.left : e.type === "ConditionalExpression" ? e.test : e.type === "TSAsExpression" || e.type === "TSNonNullExpression" ? e.arg : undefined;
  return first !== undefined && startsWithBrace(first);
}

function block(at: At): Doc {
  const stmts = at.node.stmts!;
  if (stmts.length === 0) return "{}";
  return ["{", indent([hardline, statements(at, stmts, "body")]), hardline, "}"];
}

/** prettier's adjustClause: a block stays on the line, anything else is indented on the next */
function clause(at: At, body: Node): Doc {
  const key = "body";
  if (body.type === "BlockStatement") return [" ", printStatement(child(at, key, body))];
  return indent([line, printStatement(child(at, key, body))]);
}

function ifStatement(at: At): Doc {
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

function switchStatement(at: At): Doc {
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

function returnArgument(at: At): Doc {
  const arg = at.node;
  if (arg.lead) throw new Refused("comment in return");
  if (isBinaryish(arg)) return group([" ", ifBreak("("), indent([softline, expr(at)]), softline, ifBreak(")")]);
  return [" ", expr(at)];
}

function importDeclaration(n: Node): Doc {
  const specs = n.specs!.map((s) => withComments(s, [s.isType ? "type " : "", s.name!]));
  const head = n.isType ? "import type " : "import ";
  const source = printString(n.source!.raw!);
  if (specs.length === 0) return [head, "{} from ", source, ";"];
  if (n.specs!.some((s) => s.lead || s.trail)) throw new Refused("comment in an import");
  return [head, group(["{", indent([line, join([",", line], specs)]), ifBreak(","), line, "}"]), " from ", source, ";"];
}

function variableDeclaration(at: At): Doc {
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
function assignmentLike(at: At, left: Doc, op: string, right: At): Doc {
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

function chooseLayout(at: At, left: Doc, right: Node): Layout {
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

function shouldBreakAfterOperator(right: Node, hasShortKey: boolean): boolean {
  if (isBinaryish(right) && !shouldInlineLogical(right)) return true;
  if (right.type === "ConditionalExpression") return isBinaryish(right.test) && !shouldInlineLogical(right.test!);
  if (hasShortKey) return false;
  let node = right;
  if (node.type === "UnaryExpression" || node.type === "TSNonNullExpression") node = node.arg!;
  return node.type === "StringLiteral" || isMemberExpressionChain(node);
}

function isMemberExpressionChain(n: Node): boolean {
  if (n.type !== "MemberExpression") return false;
  if (n.object!.type === "Identifier") return true;
  return isMemberExpressionChain(n.object!);
}

/** prettier: a chain of member accesses and calls with no or one short argument each */
function isPoorlyBreakableMemberOrCallChain(n: Node, deep = false): boolean {
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

function isLoneShortArgument(n: Node): boolean {
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
function isComplexTypeAnnotation(ann: Node): boolean {
  const args = ann.type === "TSTypeReference" ? ann.typeArgs : undefined;
  return args !== undefined && args.length > 1 && args.some((a) => a.type === "TSTypeLiteral");
}

// ---------------------------------------------------------------- expressions

export function expr(at: At): Doc {
  const n = at.node;
  if (n.lead || n.trail) throw new Refused("comment on an expression");
  const doc = exprInner(at);
  return needsParens(at) ? ["(", doc, ")"] : doc;
}

function needsParens(at: At): boolean {
  const n = at.node;
  const p = at.parent?.node;
  if (!p) return false;
  const key = at.key;
  const isObjectOfMember = p.type === "MemberExpression" && key === "object";
  const isCallee = (p.type === "CallExpression" || p.type === "NewExpression") && key === "callee";
  switch (n.type) {
    case "AssignmentExpression":
      if (p.type === "ExpressionStatement") return false;
      if (isObjectOfMember || isCallee) return true;
      throw new Refused("assignment inside an expression");
    case "ArrowFunctionExpression":
    case "ConditionalExpression":
      if (isObjectOfMember || isCallee || p.type === "UnaryExpression" || p.type === "AwaitExpression" || p.type === "TSNonNullExpression" || p.type === "TSAsExpression" || isBinaryish(p)) return true;
      if (p.type === "ConditionalExpression" && key === "test") return true;
      return false;
    case "TSAsExpression":
    case "TSSatisfiesExpression":
      if (isObjectOfMember || isCallee || p.type === "UnaryExpression" || p.type === "AwaitExpression" || p.type === "TSNonNullExpression") return true;
      if (isBinaryish(p) || (p.type === "ConditionalExpression" && key === "test") || p.type === "TSAsExpression") throw new Refused("as inside an operator");
      return false;
    case "AwaitExpression":
      if (isObjectOfMember || isCallee || p.type === "UnaryExpression" || p.type === "TSNonNullExpression" || p.type === "TSAsExpression") return true;
      if (isBinaryish(p) || p.type === "ConditionalExpression") throw new Refused("await inside an operator");
      return false;
    case "UnaryExpression":
      if (isObjectOfMember || isCallee || p.type === "TSNonNullExpression") return true;
      if (p.type === "UnaryExpression" && (n.op === "-" || n.op === "+") && p.op === n.op) return true;
      if (p.type === "BinaryExpression" && p.op === "**" && key === "left") return true;
      return false;
    case "BinaryExpression":
    case "LogicalExpression": {
      if (isObjectOfMember || isCallee || p.type === "UnaryExpression" || p.type === "AwaitExpression" || p.type === "TSNonNullExpression" || p.type === "TSAsExpression" || p.type === "TSSatisfiesExpression") return true;
      if (!isBinaryish(p)) return false;
      const po = p.op!;
      const no = n.op!;
      if ((po === "??") !== (no === "??")) return true;
      if (po === "||" && no === "&&") throw new Refused("&& inside ||");
      const pp = PREC[po]!;
      const np = PREC[no]!;
      if (pp > np) return true;
      if (key === "right" && pp === np) return true;
      if (pp === np && !shouldFlatten(po, no)) return true;
      if (pp < np && no === "%") return po === "+" || po === "-";
      if (["|", "^", "&", "<<", ">>", ">>>"].includes(po)) return true;
      return false;
    }
    case "ObjectExpression":
      return p.type === "ArrowFunctionExpression" && key === "body";
    case "NewExpression":
    case "CallExpression":
      if (p.type === "NewExpression" && key === "callee") throw new Refused("call in new");
      return false;
    default:
      return false;
  }
}

function shouldFlatten(parentOp: string, nodeOp: string): boolean {
  if (PREC[nodeOp] !== PREC[parentOp]) return false;
  if (parentOp === "**") return false;
  if (EQUALITY.has(parentOp) && EQUALITY.has(nodeOp)) return false;
  if ((nodeOp === "%" && (parentOp === "*" || parentOp === "/")) || (parentOp === "%" && (nodeOp === "*" || nodeOp === "/"))) return false;
  if (nodeOp !== parentOp && (nodeOp === "*" || nodeOp === "/") && (parentOp === "*" || parentOp === "/")) return false;
  if (["<<", ">>", ">>>"].includes(parentOp) && ["<<", ">>", ">>>"].includes(nodeOp)) return false;
  return true;
}

function exprInner(at: At): Doc {
  const n = at.node;
  switch (n.type) {
    case "Identifier":
      return n.name!;
    case "StringLiteral":
      return printString(n.raw!);
    case "NumericLiteral":
      return n.raw!;
    case "TemplateLiteral":
      return template(at);
    case "ArrayExpression":
      return array(at);
    case "ObjectExpression":
      return objectLike(at, false);
    case "SpreadElement":
      return ["...", expr(child(at, "argument", n.arg!))];
    case "UnaryExpression": {
      const arg = expr(child(at, "argument", n.arg!));
      return /[a-z]/.test(n.op!) ? [n.op!, " ", arg] : [n.op!, arg];
    }
    case "AwaitExpression":
      return ["await ", expr(child(at, "argument", n.arg!))];
    case "TSNonNullExpression":
      return [expr(child(at, "expression", n.arg!)), "!"];
    case "TSAsExpression":
    case "TSSatisfiesExpression":
      return [expr(child(at, "expression", n.arg!)), n.type === "TSAsExpression" ? " as " : " satisfies ", type(child(at, "typeAnnotation", n.ann!))];
    case "AssignmentExpression":
      if (n.left!.type !== "Identifier" && n.left!.type !== "MemberExpression") throw new Refused("assignment target");
      return assignmentLike(at, expr(child(at, "left", n.left!)), ` ${n.op}`, child(at, "right", n.right!));
    case "BinaryExpression":
    case "LogicalExpression":
      return binaryish(at);
    case "ConditionalExpression":
      return conditional(at);
    case "MemberExpression":
      return member(at);
    case "CallExpression":
    case "NewExpression":
      return call(at);
    case "ArrowFunctionExpression":
      return arrow(at, false);
    default:
      throw new Refused(`expression ${n.type}`);
  }
}

function template(at: At): Doc {
  const n = at.node;
  const parts: Doc[] = ["`"];
  n.quasis!.forEach((q, i) => {
    parts.push(q);
    if (i < n.exprs!.length) parts.push("${", refuse(group(expr(child(at, "expressions", n.exprs![i]!)))), "}");
  });
  parts.push("`");
  // prettier prints a template's expressions on one line whatever their width
  return flatOnly(parts);
}

/** a document printed flat however long: refused where it holds a forced break */
function flatOnly(doc: Doc): Doc {
  if (willBreak(doc)) throw new Refused("break in a template");
  return { kind: "group", contents: doc, brk: false, states: [doc, doc] } as Doc;
}

function array(at: At): Doc {
  const elems = at.node.elems!;
  if (elems.length === 0) return "[]";
  if (elems.some((e) => e.lead || e.trail)) {
    // own-line comments between elements: prettier breaks the array
    const printed = elems.map((e) => withComments(e, group(exprNoComments(child(at, "elements", e)))));
    return group(["[", indent([softline, join([",", line], printed)]), ifBreak(","), softline, "]"], true);
  }
  const printed = elems.map((e) => group(expr(child(at, "elements", e))));
  const shouldBreak =
    elems.length > 1 &&
    elems.every((e, i, all) => (e.type === "ObjectExpression" || e.type === "ArrayExpression") && (e.type === "ObjectExpression" ? e.props!.length : e.elems!.length) > 1 && (i === all.length - 1 || all[i + 1]!.type === e.type));
  if (elems.every((e) => e.type === "NumericLiteral")) throw new Refused("number array (fill)");
  return group(["[", indent([softline, join([",", line], printed)]), ifBreak(","), softline, "]"], shouldBreak);
}

function exprNoComments(at: At): Doc {
  const n = at.node;
  const { lead, trail } = n;
  delete n.lead;
  delete n.trail;
  try {
    return expr(at);
  } finally {
    if (lead) n.lead = lead;
    if (trail) n.trail = trail;
  }
}

/** An object literal, object type or interface body (prettier's printObject). */
export function objectLike(at: At, isInterface: boolean): Doc {
  const n = at.node;
  const props = n.props!;
  const isType = n.type === "TSTypeLiteral";
  if (props.length === 0) return "{}";
  const sep = isType || isInterface ? ";" : ",";
  const parts: Doc[] = [];
  props.forEach((p, i) => {
    const pat = child(at, isType ? "members" : "properties", p);
    const printed = withComments(p, group(isType || isInterface ? member_(pat) : property(pat)));
    if (i > 0) parts.push(sep, line);
    parts.push(printed);
  });
  const shouldBreak = isInterface || n.nlAfterBrace === true;
  const content: Doc = ["{", indent([line, ...parts]), ifBreak(sep), line, "}"];
  // an object type that is a function's only parameter's type is not grouped (it hugs)
  if (isType && at.key === "typeAnnotation" && at.parent?.node.type === "Identifier" && at.parent.key === "params" && at.parent.parent?.node.params!.length === 1) return content;
  return group(content, shouldBreak);
}

function property(at: At): Doc {
  const p = at.node;
  if (p.type === "SpreadElement") return ["...", expr(child(at, "argument", p.arg!))];
  const key = propertyKey(at);
  if (p.shorthand) return key;
  return assignmentLike(at, key, ":", child(at, "value", p.value!));
}

function propertyKey(at: At): Doc {
  const key = at.node.key!;
  if (at.node.computed) {
    if (key.type !== "Identifier") throw new Refused("computed key");
    return ["[", key.name!, "]"];
  }
  if (key.type === "Identifier") return key.name!;
  // prettier unquotes keys only when every quoted key of the object can be unquoted; refused here
  const parent = at.parent!.node;
  const quoted = parent.props!.filter((p) => p.key?.type === "StringLiteral");
  if (quoted.length > 0) throw new Refused("quoted key");
  return printString(key.raw!);
}

function member_(at: At): Doc {
  const m = at.node;
  if (m.type === "TSIndexSignature") {
    const param = m.params![0]!;
    return [m.readonly ? "readonly " : "", "[", param.name!, ": ", type(child(child(at, "parameters", param), "typeAnnotation", param.ann!)), "]: ", type(child(at, "typeAnnotation", m.ann!))];
  }
  return [m.readonly ? "readonly " : "", propertyKey(at), m.optional ? "?" : "", ": ", type(child(at, "typeAnnotation", m.ann!))];
}

// binary expressions: prettier's printBinaryishExpression

function shouldInlineLogical(n: Node): boolean {
  if (n.type !== "LogicalExpression") return false;
  const r = n.right!;
  return (r.type === "ObjectExpression" && r.props!.length > 0) || (r.type === "ArrayExpression" && r.elems!.length > 0);
}

function binaryish(at: At): Doc {
  const n = at.node;
  const p = at.parent!.node;
  const key = at.key;
  const insideParens = key !== "body" && (p.type === "IfStatement" || p.type === "WhileStatement" || p.type === "SwitchStatement");
  const parts = binaryParts(at, insideParens);
  if (insideParens) return parts;
  if (((p.type === "CallExpression" || p.type === "NewExpression") && key === "callee") || p.type === "UnaryExpression" || (p.type === "MemberExpression" && !p.computed)) {
    return group([indent([softline, ...parts]), softline]);
  }
  const gp = at.parent!.parent?.node;
  const shouldNotIndent =
    p.type === "ReturnStatement" ||
    p.type === "ThrowStatement" ||
    (p.type === "ArrowFunctionExpression" && key === "body") ||
    (p.type === "ForStatement" && key !== "body") ||
    (p.type === "ConditionalExpression" && gp?.type !== "ReturnStatement" && gp?.type !== "ThrowStatement" && gp?.type !== "CallExpression" && gp?.type !== "NewExpression") ||
    p.type === "TemplateLiteral";
  const shouldIndentIfInlining = p.type === "AssignmentExpression" || p.type === "VariableDeclarator" || p.type === "ObjectProperty";
  const samePrecedenceSubExpression = isBinaryish(n.left) && shouldFlatten(n.op!, n.left!.op!);
  if (shouldNotIndent || (shouldInlineLogical(n) && !samePrecedenceSubExpression) || (!shouldInlineLogical(n) && shouldIndentIfInlining)) {
    return group(parts);
  }
  if (parts.length === 0) return "";
  const firstGroup = parts.findIndex((d) => typeof d !== "string" && !Array.isArray(d) && d.kind === "group");
  const head = parts.slice(0, firstGroup === -1 ? 1 : firstGroup + 1);
  const rest = parts.slice(head.length);
  return group([...head, indent(rest)]);
}

function binaryParts(at: At, insideParens: boolean): Doc[] {
  const n = at.node;
  let parts: Doc[];
  const left = child(at, "left", n.left!);
  if (isBinaryish(n.left) && shouldFlatten(n.op!, n.left!.op!) && !needsParens(left)) parts = binaryParts(left, insideParens);
  else parts = [group(expr(left))];
  const inline = shouldInlineLogical(n);
  const right: Doc = inline ? [n.op!, " ", expr(child(at, "right", n.right!))] : [n.op!, line, expr(child(at, "right", n.right!))];
  const p = at.parent!.node;
  const shouldGroup = !(insideParens && n.type === "LogicalExpression") && p.type !== n.type && n.left!.type !== n.type && n.right!.type !== n.type;
  parts.push(" ", shouldGroup ? group(right) : right);
  return parts;
}

/**
 * prettier's printTernary (not the experimental style): `test`, then `? consequent` and `: alternate` on
 * lines of their own when broken, each branch aligned two columns past its operator; a conditional in
 * an alternate continues the chain without a group or indent of its own.
 */
function conditional(at: At): Doc {
  const n = at.node;
  const p = at.parent!.node;
  if (n.cons!.type === "ConditionalExpression" || [n.test, n.cons, n.alt].some((x) => x!.type === "ObjectExpression" || x!.type === "ArrowFunctionExpression")) {
    throw new Refused("conditional shape");
  }
  const nested = p.type === "ConditionalExpression";
  if (nested && at.key !== "alternate") throw new Refused("conditional in a test");
  if (p.type === "MemberExpression" || ((p.type === "CallExpression" || p.type === "NewExpression") && at.key === "callee")) throw new Refused("conditional before a member");
  const test = expr(child(at, "test", n.test!));
  const parts: Doc = [line, "? ", align(2, expr(child(at, "consequent", n.cons!))), line, ": ", align(2, expr(child(at, "alternate", n.alt!)))];
  if (nested) return [align(2, test), parts];
  return group([test, indent(parts)]);
}

// member expressions and calls

function member(at: At): Doc {
  const n = at.node;
  const objectDoc = expr(child(at, "object", n.object!));
  const lookup = memberLookup(at);
  let first: At | undefined = at.parent;
  while (first && (first.node.type === "MemberExpression" || first.node.type === "TSNonNullExpression")) first = first.parent;
  const fp = first?.node;
  const shouldInline =
    (fp !== undefined && (fp.type === "NewExpression" || (fp.type === "AssignmentExpression" && fp.left!.type !== "Identifier"))) ||
    n.computed ||
    (n.object!.type === "Identifier" && !(at.parent?.node.type === "MemberExpression"));
  return [objectDoc, shouldInline ? lookup : group(indent([softline, lookup]))];
}

function memberLookup(at: At): Doc {
  const n = at.node;
  const opt = n.optional ? "?." : "";
  if (!n.computed) return [opt || ".", n.property!.name!];
  const prop = n.property!;
  if (prop.type === "NumericLiteral") return [opt, "[", prop.raw!, "]"];
  return group([opt, "[", indent([softline, expr(child(at, "property", prop))]), softline, "]"]);
}

function call(at: At): Doc {
  const n = at.node;
  const callee = n.callee!;
  if (callee.type === "Identifier" && ["describe", "it", "test", "xit", "xdescribe", "xtest", "fit", "fdescribe", "beforeEach", "afterEach", "beforeAll", "afterAll", "useEffect", "useMemo", "useCallback"].includes(callee.name!)) {
    throw new Refused("test or hook call");
  }
  const targs: Doc = n.typeArgs ? typeArguments(at, n.typeArgs) : "";
  if (n.type === "NewExpression") return ["new ", expr(child(at, "callee", callee)), targs, callArguments(at)];
  if (callee.type === "MemberExpression" || (callee.type === "TSNonNullExpression" && callee.arg!.type === "MemberExpression")) return memberChain(at);
  const contents: Doc = [expr(child(at, "callee", callee)), targs, callArguments(at)];
  return callee.type === "CallExpression" ? group(contents) : contents;
}

/** prettier's printMemberChain, for chains that print on one line (more than that is refused) */
function memberChain(at: At): Doc {
  // the chain's links, innermost first
  const links: At[] = [];
  let cur = at;
  for (;;) {
    links.unshift(cur);
    const n = cur.node;
    const inner = n.type === "CallExpression" ? n.callee! : n.type === "MemberExpression" ? n.object! : n.type === "TSNonNullExpression" ? n.arg! : undefined;
    if (!inner) break;
    const key = n.type === "CallExpression" ? "callee" : n.type === "MemberExpression" ? "object" : "expression";
    const next = child(cur, key, inner);
    if (!(inner.type === "CallExpression" || inner.type === "MemberExpression" || inner.type === "TSNonNullExpression") || needsParens(next)) {
      links.unshift(next);
      break;
    }
    cur = next;
  }
  const root = links[0]!;
  const rest = links.slice(1);
  const printLink = (l: At): Doc => {
    const n = l.node;
    if (n.type === "CallExpression") return [n.typeArgs ? typeArguments(l, n.typeArgs) : "", callArguments(l)];
    if (n.type === "TSNonNullExpression") return "!";
    return memberLookup(l);
  };
  // groups[0]: the root, then calls and literal index accesses on it; then (root not a call) member accesses followed by another
  let i = 0;
  const isLiteralIndex = (n: Node): boolean => n.type === "MemberExpression" && n.computed === true && (n.property!.type === "StringLiteral" || n.property!.type === "NumericLiteral");
  for (; i < rest.length; i++) {
    const n = rest[i]!.node;
    if (n.type === "TSNonNullExpression" || n.type === "CallExpression" || isLiteralIndex(n)) continue;
    break;
  }
  if (root.node.type !== "CallExpression") {
    for (; i + 1 < rest.length; i++) {
      const a = rest[i]!.node;
      const b = rest[i + 1]!.node;
      if ((a.type === "MemberExpression" || a.type === "TSNonNullExpression") && (b.type === "MemberExpression" || b.type === "TSNonNullExpression")) continue;
      break;
    }
  }
  const groups: At[][] = [];
  let currentGroup: At[] = [];
  let seenCall = false;
  for (; i < rest.length; i++) {
    const n = rest[i]!.node;
    if (seenCall && (n.type === "MemberExpression" || n.type === "TSNonNullExpression")) {
      if (isLiteralIndex(n)) {
        currentGroup.push(rest[i]!);
        continue;
      }
      groups.push(currentGroup);
      currentGroup = [];
      seenCall = false;
    }
    if (n.type === "CallExpression") seenCall = true;
    currentGroup.push(rest[i]!);
  }
  if (currentGroup.length > 0) groups.push(currentGroup);
  const rootDoc = expr(root);
  const head: Doc[] = [rootDoc];
  const firstCount = rest.length - groups.flat().length;
  for (const l of rest.slice(0, firstCount)) head.push(printLink(l));
  const oneLine: Doc = [...head, ...groups.map((g) => g.map(printLink))];
  // prettier: with at most two groups (three when the first merges) the chain prints as one line
  if (groups.length + 1 <= 2) return group(oneLine);
  const calls = rest.filter((l) => l.node.type === "CallExpression").length;
  if (calls > 2 || willBreak(oneLine)) throw new Refused("member chain");
  return conditionalGroup([oneLine, FAIL]);
}

/** prettier's printCallArguments */
function callArguments(at: At): Doc {
  const args = at.node.args!;
  if (args.length === 0) return "()";
  const printed = args.map((a, i) => {
    const d = expr(child(at, "arguments", a));
    return i === args.length - 1 ? [d] : [d, ",", line];
  });
  const allBroken = (): Doc => group(["(", indent([line, ...printed, ","]), line, ")"], true);
  if (isFunctionComposition(args)) return allBroken();
  const last = args.at(-1)!;
  const penultimate = args.at(-2);
  const groupLast = couldExpandArg(last) && (!penultimate || penultimate.type !== last.type) && !(args.length === 2 && penultimate!.type === "ArrowFunctionExpression" && last.type === "ArrayExpression");
  const groupFirst = !groupLast && args.length === 2 && (args[0]!.type === "ArrowFunctionExpression" && args[0]!.body!.type === "BlockStatement") && args[1]!.type !== "ArrowFunctionExpression" && !couldExpandArg(args[1]!);
  if (groupFirst) throw new Refused("first argument hug");
  if (groupLast) {
    if (printed.slice(0, -1).some(willBreak)) return allBroken();
    const lastAt = child(at, "arguments", last);
    const expandedLast = last.type === "ArrowFunctionExpression" ? arrow(lastAt, true) : expr(lastAt);
    if (last.type === "ArrowFunctionExpression" && last.body!.type !== "BlockStatement") throw new Refused("expression-bodied arrow as last argument");
    const before = printed.slice(0, -1);
    return [
      printed.some(willBreak) ? breakParent : "",
      conditionalGroup([["(", ...before, expandedLast, ")"], ["(", ...before, group(expandedLast, true), ")"], allBroken()]),
    ];
  }
  return group(["(", indent([softline, ...printed]), ifBreak(","), softline, ")"], printed.some(willBreak));
}

/** prettier's isFunctionCompositionArgs: two function arguments, or a call argument that takes one */
function isFunctionComposition(args: readonly Node[]): boolean {
  if (args.length <= 1) return false;
  let fns = 0;
  for (const a of args) {
    if (a.type === "ArrowFunctionExpression" && a.body!.type === "BlockStatement") {
      if (++fns > 1) return true;
    } else if ((a.type === "CallExpression" || a.type === "NewExpression") && a.args!.some((x) => x.type === "ArrowFunctionExpression")) return true;
  }
  return false;
}

function couldExpandArg(n: Node): boolean {
  if (n.type === "ObjectExpression") return n.props!.length > 0;
  if (n.type === "ArrayExpression") return n.elems!.length > 0;
  if (n.type === "TSAsExpression") return couldExpandArg(n.arg!);
  if (n.type === "ArrowFunctionExpression") {
    const b = n.body!;
    if (n.ret && n.ret.type === "TSTypeReference" && !(b.type === "BlockStatement" && b.stmts!.length > 0)) return false;
    return ["BlockStatement", "ArrowFunctionExpression", "ObjectExpression", "ArrayExpression", "TSAsExpression", "CallExpression", "NewExpression", "ConditionalExpression"].includes(b.type);
  }
  return false;
}

// functions

/**
 * parameters and return type: prettier's group([params, returnType]), the parameters grouped apart only
 * when there is one and the return type is an object type or breaks (shouldGroupFunctionParameters)
 */
function signature(at: At, arrow = "", expandArg = false): Doc {
  const n = at.node;
  const params = n.params!;
  const ret: Doc = n.ret ? [arrow === " => " ? arrow : ": ", type(child(at, "returnType", n.ret))] : arrow;
  const grouped = params.length === 1 && n.ret !== undefined && (n.ret.type === "TSTypeLiteral" || willBreak(ret));
  const p = parameters(at, expandArg);
  return group([grouped ? group(p) : p, ret]);
}

function parameters(at: At, expandArg = false): Doc {
  const params = at.node.params!;
  if (params.length === 0) return "()";
  const printed = params.map((p, i) => {
    const pat = child(at, "params", p);
    const doc: Doc = [p.name!, p.optional ? "?" : "", p.ann ? [": ", type(child(pat, "typeAnnotation", p.ann))] : ""];
    return i === params.length - 1 ? doc : [doc, ",", line];
  });
  const only = params.length === 1 ? params[0]! : undefined;
  const hug = only?.ann !== undefined && (only.ann.type === "TSTypeLiteral");
  if (hug) return ["(", ...printed, ")"];
  if (expandArg) {
    if (printed.some(willBreak)) throw new Refused("expanded parameters");
    return refuse(group(["(", ...printed, ")"]));
  }
  return ["(", indent([softline, ...printed]), ifBreak(","), softline, ")"];
}

function arrow(at: At, expandLastArg: boolean): Doc {
  const n = at.node;
  const body = n.body!;
  if (body.type === "ArrowFunctionExpression") return arrowChain(at);
  const sig = signature(at, "", expandLastArg);
  const bodyAt = child(at, "body", body);
  if (body.type === "BlockStatement") return group([sig, " =>", " ", block(bodyAt)]);
  const bodyDoc = expr(bodyAt);
  if (body.type === "ObjectExpression" || body.type === "ArrayExpression") return group([sig, " =>", " ", bodyDoc]);
  if (body.type === "TemplateLiteral" || body.type === "ConditionalExpression" || body.type === "SequenceExpression") throw new Refused("arrow body");
  const trailingSpace = expandLastArg ? softline : "";
  const trailingComma = expandLastArg ? ifBreak(",") : "";
  return group([sig, " =>", group([indent([line, bodyDoc]), trailingComma, trailingSpace])]);
}

/**
 * prettier's printArrowChain for `(a) => (b) => { … }` on the right of a declaration: the signatures on
 * one line (broken: refused), the block body after the last one
 */
function arrowChain(at: At): Doc {
  const p = at.parent?.node;
  if (p?.type !== "VariableDeclarator" || at.key !== "init") throw new Refused("arrow chain here");
  const sigs: Doc[] = [];
  let cur = at;
  for (;;) {
    const n = cur.node;
    sigs.push(signature(cur));
    const body = n.body!;
    if (body.type !== "ArrowFunctionExpression") {
      if (body.type !== "BlockStatement") throw new Refused("arrow chain body");
      return group([group(refuse(indent([softline, join([" =>", line], sigs)]))), " =>", " ", block(child(cur, "body", body))]);
    }
    cur = child(cur, "body", body);
  }
}

// ---------------------------------------------------------------- types

export function type(at: At): Doc {
  const n = at.node;
  const doc = typeInner(at);
  if (n.parens) {
    // prettier keeps the parentheses a type needs and drops the others
    const p = at.parent?.node;
    const needs = (n.type === "TSUnionType" || n.type === "TSFunctionType" || n.type === "TSIntersectionType") && (p?.type === "TSArrayType" || p?.type === "TSIndexedAccessType" || (n.type !== "TSIntersectionType" && p?.type === "TSIntersectionType") || p?.type === "TSTypeOperator");
    if (!needs) throw new Refused("type in parentheses");
    if (n.type === "TSUnionType") return group(["(", indent([softline, doc]), softline, ")"]);
    return ["(", doc, ")"];
  }
  return doc;
}

function typeInner(at: At): Doc {
  const n = at.node;
  switch (n.type) {
    case "TSKeyword":
      return n.name!;
    case "TSLiteralType": {
      const a = n.arg!;
      return a.type === "StringLiteral" ? printString(a.raw!) : a.type === "NumericLiteral" ? a.raw! : a.name!;
    }
    case "TSTypeReference":
      return [n.name!, n.typeArgs ? typeArguments(at) : ""];
    case "TSConst":
      return "const";
    case "TSTypeQuery":
      return ["typeof ", n.name!];
    case "TSArrayType":
      return [type(child(at, "elementType", n.arg!)), "[]"];
    case "TSIndexedAccessType":
      return [type(child(at, "objectType", n.object!)), "[", type(child(at, "indexType", n.property!)), "]"];
    case "TSTypeOperator":
      if (n.op === "unique" && !(n.arg!.type === "TSKeyword" && n.arg!.name === "symbol")) throw new Refused("unique");
      return [n.op!, " ", type(child(at, "typeAnnotation", n.arg!))];
    case "TSTypeLiteral":
      return objectLike(at, false);
    case "TSUnionType":
      return union(at);
    case "TSIntersectionType":
      return intersection(at);
    case "TSFunctionType":
      return signature(at, " => ");
    case "TSTupleType": {
      const elems = n.elems!;
      if (elems.length === 0) return "[]";
      return group(["[", indent([softline, join([",", line], elems.map((e) => type(child(at, "elementTypes", e))))]), ifBreak(","), softline, "]"]);
    }
    default:
      throw new Refused(`type ${n.type}`);
  }
}

const SIMPLE_KEYWORDS = new Set(["string", "number", "boolean", "unknown", "any", "never", "void", "undefined", "object", "symbol", "bigint"]);

function isSimpleType(n: Node): boolean {
  if (n.parens) return false;
  return (n.type === "TSTypeReference" && !n.typeArgs) || (n.type === "TSKeyword" && SIMPLE_KEYWORDS.has(n.name!));
}
function isObjectType(n: Node): boolean {
  return n.type === "TSTypeLiteral";
}
function shouldHugType(n: Node): boolean {
  if (isSimpleType(n) || isObjectType(n)) return true;
  if (n.type === "TSUnionType") {
    const voids = n.types!.filter((t) => t.type === "TSKeyword" && (t.name === "void" || t.name === "null")).length;
    if (n.types!.length - 1 === voids && n.types!.some(isObjectType)) return true;
  }
  return false;
}

function typeArguments(at: At | Node, list?: Node[]): Doc {
  if (!("node" in at)) at = { node: at, key: "callee" };
  const args = list ?? at.node.typeArgs!;
  const printed = args.map((a) => type(child(at, "params", a)));
  if (args.length === 0) return "<>";
  if (args.length === 1 && (shouldHugType(args[0]!) || args[0]!.type === "TSKeyword")) {
    if (args[0]!.type === "TSKeyword" && !SIMPLE_KEYWORDS.has(args[0]!.name!)) throw new Refused("type argument keyword");
    return ["<", printed[0]!, ">"];
  }
  return group(["<", indent([softline, join([",", line], printed)]), softline, ">"]);
}

function union(at: At): Doc {
  const n = at.node;
  const p = at.parent!.node;
  const pkey = at.key;
  const shouldIndent = !(p.type === "TSTypeReference" && pkey === "params") && p.type !== "TSTupleType" && !(p.type === "TSTypeAliasDeclaration" && false);
  if (p.type === "TSTupleType") throw new Refused("union in a tuple");
  const hug = shouldHugType(n);
  const printed = n.types!.map((t) => {
    const d = type(child(at, "types", t));
    return hug ? d : align(2, d);
  });
  if (hug) return join(" | ", printed);
  const code: Doc = [ifBreak([shouldIndent ? line : "", "| "]), join([line, "| "], printed)];
  if (n.parens) return refuse(code);
  // flat only: prettier 3's broken unions (one member a line, or the union alone on the next line) are
  // built only for a type alias's right side (assignmentLike)
  return group(refuse(shouldIndent ? indent(code) : code));
}

function intersection(at: At): Doc {
  const n = at.node;
  // prettier's printIntersectionType: object and non-object members alternate with their own rules; flat only here
  const printed = n.types!.map((t) => type(child(at, "types", t)));
  const objects = n.types!.filter(isObjectType).length;
  if (objects > 1 || (objects === 1 && n.types!.length > 2)) throw new Refused("intersection shape");
  return refuse(group(join(" & ", printed)));
}
