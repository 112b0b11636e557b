/**
 * Member accesses, calls (prettier's member chains and call arguments, last-argument hugging) and
 * functions (parameters, arrows, arrow chains) as prettier prints them.
 */
import type { Node } from "./ast.ts";
import { type Doc, FAIL, Refused, breakParent, conditionalGroup, group, ifBreak, indent, join, line, refuse, softline, willBreak } from "./doc.ts";
import { type At, child } from "./at.ts";
import { block } from "./print.ts";
import { expr, needsParens } from "./print-expr.ts";
import { type, typeArguments } from "./print-types.ts";

// member expressions and calls

export function member(at: At): Doc {
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

export function memberLookup(at: At): Doc {
  const n = at.node;
  const opt = n.optional ? "?." : "";
  if (!n.computed) return [opt || ".", n.property!.name!];
  const prop = n.property!;
  if (prop.type === "NumericLiteral") return [opt, "[", prop.raw!, "]"];
  return group([opt, "[", indent([softline, expr(child(at, "property", prop))]), softline, "]"]);
}

export function call(at: At): Doc {
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
export function memberChain(at: At): Doc {
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
export function callArguments(at: At): Doc {
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
export function isFunctionComposition(args: readonly Node[]): boolean {
  if (args.length <= 1) return false;
  let fns = 0;
  for (const a of args) {
    if (a.type === "ArrowFunctionExpression" && a.body!.type === "BlockStatement") {
      if (++fns > 1) return true;
    } else if ((a.type === "CallExpression" || a.type === "NewExpression") && a.args!.some((x) => x.type === "ArrowFunctionExpression")) return true;
  }
  return false;
}

export function couldExpandArg(n: Node): boolean {
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
export function signature(at: At, arrow = "", expandArg = false): Doc {
  const n = at.node;
  const params = n.params!;
  const ret: Doc = n.ret ? [arrow === " => " ? arrow : ": ", type(child(at, "returnType", n.ret))] : arrow;
  const grouped = params.length === 1 && n.ret !== undefined && (n.ret.type === "TSTypeLiteral" || willBreak(ret));
  const p = parameters(at, expandArg);
  return group([grouped ? group(p) : p, ret]);
}

export function parameters(at: At, expandArg = false): Doc {
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

export function arrow(at: At, expandLastArg: boolean): Doc {
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
export function arrowChain(at: At): Doc {
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
