/**
 * Expressions as prettier prints them (print.ts for statements and assignments): parentheses,
 * literals, objects and arrays, operators, conditionals.
 */
import type { Node } from "./ast.ts";
import { type Doc, Refused, group, ifBreak, indent, join, line, refuse, softline, willBreak, align } from "./doc.ts";
import { printString } from "./strings.ts";
import { type At, EQUALITY, PREC, child, isBinaryish } from "./at.ts";
import { assignmentLike, withComments } from "./print.ts";
import { arrow, call, member } from "./print-calls.ts";
import { type } from "./print-types.ts";

// ---------------------------------------------------------------- expressions

export function expr(at: At): Doc {
  const n = at.node;
  if (n.lead || n.trail) throw new Refused("comment on an expression");
  const doc = exprInner(at);
  return needsParens(at) ? ["(", doc, ")"] : doc;
}

export function needsParens(at: At): boolean {
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
      // prettier's parser rebalances `a && (b && c)` into `a && b && c` (same for || and ??): not built here
      if (key === "right" && po === no && n.type === "LogicalExpression") throw new Refused("a logical chain nested on the right");
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

export function shouldFlatten(parentOp: string, nodeOp: string): boolean {
  if (PREC[nodeOp] !== PREC[parentOp]) return false;
  if (parentOp === "**") return false;
  if (EQUALITY.has(parentOp) && EQUALITY.has(nodeOp)) return false;
  if ((nodeOp === "%" && (parentOp === "*" || parentOp === "/")) || (parentOp === "%" && (nodeOp === "*" || nodeOp === "/"))) return false;
  if (nodeOp !== parentOp && (nodeOp === "*" || nodeOp === "/") && (parentOp === "*" || parentOp === "/")) return false;
  if (["<<", ">>", ">>>"].includes(parentOp) && ["<<", ">>", ">>>"].includes(nodeOp)) return false;
  return true;
}

export function exprInner(at: At): Doc {
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

export function template(at: At): Doc {
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
export function flatOnly(doc: Doc): Doc {
  if (willBreak(doc)) throw new Refused("break in a template");
  return { kind: "group", contents: doc, brk: false, states: [doc, doc] } as Doc;
}

export function array(at: At): Doc {
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

export function exprNoComments(at: At): Doc {
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

export function property(at: At): Doc {
  const p = at.node;
  if (p.type === "SpreadElement") return ["...", expr(child(at, "argument", p.arg!))];
  const key = propertyKey(at);
  if (p.shorthand) return key;
  return assignmentLike(at, key, ":", child(at, "value", p.value!));
}

export function propertyKey(at: At): Doc {
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

export function member_(at: At): Doc {
  const m = at.node;
  if (m.type === "TSIndexSignature") {
    const param = m.params![0]!;
    return [m.readonly ? "readonly " : "", "[", param.name!, ": ", type(child(child(at, "parameters", param), "typeAnnotation", param.ann!)), "]: ", type(child(at, "typeAnnotation", m.ann!))];
  }
  return [m.readonly ? "readonly " : "", propertyKey(at), m.optional ? "?" : "", ": ", type(child(at, "typeAnnotation", m.ann!))];
}

// binary expressions: prettier's printBinaryishExpression

export function shouldInlineLogical(n: Node): boolean {
  if (n.type !== "LogicalExpression") return false;
  const r = n.right!;
  return (r.type === "ObjectExpression" && r.props!.length > 0) || (r.type === "ArrayExpression" && r.elems!.length > 0);
}

export function binaryish(at: At): Doc {
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

export function binaryParts(at: At, insideParens: boolean): Doc[] {
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
export function conditional(at: At): Doc {
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
