/**
 * CST (grammar/parser.ts) → AST (grammar/ast.ts). Every AST node gets a span from the LineMap.
 *
 * The CST may be partial after error recovery: any child can be missing, and tokens inserted by
 * recovery have no position. Missing names become `Ident { name: "", missing: true }` with a zero-width
 * span where the name was expected; missing expressions become such a name; a missing type is a
 * `NamedType` with a missing name. The structural syntax checks that are easier on the CST than in the
 * grammar (separators, duplicate clauses, misplaced branches, wrong mapping arrows) live here too.
 */
import type { CstElement, CstNode, IToken } from "chevrotain";
import type * as A from "./ast.ts";
import type { Diagnostic } from "./diagnostic.ts";
import { describeToken, syntax } from "./parse-errors.ts";
import { checkSeparated, hasSeparator, type ItemRange } from "./separators.ts";
import type { LineMap, Span } from "./span.ts";
import { decodeString, durationValue } from "./tokens.ts";

/**
 * Deepest expression or type tree the AST may hold: every operator, member access, index, call, literal
 * array/object, `[]`, `?`, union and type argument adds a level. Chains (`a || b || …`, `a.b.c…`,
 * `T[][]…`) are folded into trees without recursion here, but every later phase (checker, formatter,
 * emitter) walks the tree recursively; 256 levels is far beyond hand-written code and leaves those walkers
 * a wide margin below the stack limit (the first of them overflowed at about 3,000 levels).
 */
export const MAX_TREE_DEPTH = 256;

// ------------------------------------------------------------ CST access

function isNode(e: CstElement): e is CstNode {
  return (e as CstNode).children !== undefined;
}

function isReal(t: IToken | undefined): t is IToken {
  return t !== undefined && !t.isInsertedInRecovery && Number.isFinite(t.startOffset);
}

function nodes(n: CstNode | undefined, label: string): CstNode[] {
  const c = n?.children[label];
  return c ? (c.filter(isNode) as CstNode[]) : [];
}

function node(n: CstNode | undefined, label: string): CstNode | undefined {
  return nodes(n, label)[0];
}

/** real tokens under a label (tokens inserted by recovery are left out) */
function toks(n: CstNode | undefined, label: string): IToken[] {
  const c = n?.children[label];
  return c ? (c.filter((e) => !isNode(e) && isReal(e as IToken)) as IToken[]) : [];
}

function tok(n: CstNode | undefined, label: string): IToken | undefined {
  return toks(n, label)[0];
}

function has(n: CstNode | undefined, label: string): boolean {
  return (n?.children[label]?.length ?? 0) > 0;
}

const tokEnd = (t: IToken): number => t.startOffset + t.image.length;

/** [start, end) of a CST node from its real tokens; undefined when it holds none. */
/** the node's first real token (by offset) */
function firstToken(n: CstNode): IToken | undefined {
  let first: IToken | undefined;
  for (const list of Object.values(n.children)) {
    for (const e of list) {
      const t = isNode(e) ? firstToken(e) : isReal(e as IToken) ? (e as IToken) : undefined;
      if (t && (!first || t.startOffset < first.startOffset)) first = t;
    }
  }
  return first;
}

function range(n: CstNode | undefined): ItemRange | undefined {
  if (!n) return undefined;
  const loc = n.location;
  if (loc && Number.isFinite(loc.startOffset) && Number.isFinite(loc.endOffset) && loc.endOffset! >= loc.startOffset) {
    return { start: loc.startOffset, end: loc.endOffset! + 1 };
  }
  let start = Infinity;
  let end = -Infinity;
  for (const list of Object.values(n.children)) {
    for (const e of list) {
      const r = isNode(e) ? range(e) : isReal(e) ? { start: e.startOffset, end: tokEnd(e) } : undefined;
      if (!r) continue;
      if (r.start < start) start = r.start;
      if (r.end > end) end = r.end;
    }
  }
  return start === Infinity ? undefined : { start, end };
}

function elementRange(e: CstElement): ItemRange | undefined {
  return isNode(e) ? range(e) : isReal(e) ? { start: e.startOffset, end: tokEnd(e) } : undefined;
}

// ------------------------------------------------------------ builder

export class AstBuilder {
  /** names of the graphs being built, innermost last (for synthesised inline graph names) */
  private readonly graphStack: string[] = [];
  /** fields already reported as missing their colon (no separator diagnostic for them) */
  private readonly colonReported = new Set<number>();

  constructor(
    private readonly map: LineMap,
    private readonly diagnostics: Diagnostic[],
  ) {}

  /** depth of each expression / type tree built so far (leaves are not recorded: depth 1) */
  private readonly depths = new WeakMap<object, number>();

  private span(start: number, end: number): Span {
    return this.map.span(start, end);
  }

  /**
   * `node` when its tree stays within MAX_TREE_DEPTH; otherwise a G1007 at [at, end) — where the limit is
   * crossed — and the placeholder, a leaf, so no later phase sees the deep tree.
   */
  private bounded<N extends object>(
    node: N,
    children: readonly object[],
    what: "expression" | "type",
    at: number,
    end: number,
    placeholder: (at: number) => N,
  ): N {
    let depth = 0;
    for (const c of children) depth = Math.max(depth, this.depths.get(c) ?? 1);
    if (depth < MAX_TREE_DEPTH) {
      this.depths.set(node, depth + 1);
      return node;
    }
    this.diagnostics.push(syntax.treeTooDeep(this.span(at, Math.max(at, end)), { what, max: String(MAX_TREE_DEPTH) }));
    return placeholder(at);
  }

  private boundedType(t: A.TypeExpr, children: readonly A.TypeExpr[], at: number, end: number): A.TypeExpr {
    return this.bounded<A.TypeExpr>(t, children, "type", at, end, (x) => this.missingType(x));
  }

  private boundedExpr(e: A.Expr, children: readonly A.Expr[], at: number, end: number): A.Expr {
    return this.bounded<A.Expr>(e, children, "expression", at, end, (x) => this.missingExpr(x));
  }

  /** span of a CST node; `anchor` is used (zero width) when the node holds no real token */
  private spanOf(n: CstNode | undefined, anchor: number): Span {
    const r = range(n);
    return r ? this.span(r.start, r.end) : this.span(anchor, anchor);
  }

  private tokSpan(t: IToken): Span {
    return this.span(t.startOffset, tokEnd(t));
  }

  /** end offset of a node or token, or `fallback` */
  private endOf(e: CstElement | undefined, fallback: number): number {
    return e ? (elementRange(e)?.end ?? fallback) : fallback;
  }

  private ident(t: IToken | undefined, anchor: number): A.Ident {
    if (isReal(t)) return { kind: "Ident", name: t.image, span: this.tokSpan(t) };
    return { kind: "Ident", name: "", missing: true, span: this.span(anchor, anchor) };
  }

  private stringLit(t: IToken | undefined, anchor: number): A.StringLit {
    if (!isReal(t)) return { kind: "String", value: "", raw: "", span: this.span(anchor, anchor) };
    return { kind: "String", value: decodeString(t.image).value, raw: t.image, span: this.tokSpan(t) };
  }

  /** G1020 over a list of CST elements; `keywordLed` tells which items begin with a keyword */
  private separated(items: CstElement[], what: string, keywordLed?: (item: CstNode) => boolean): void {
    const ranges: ItemRange[] = [];
    for (const item of items) {
      const r = elementRange(item);
      if (r) ranges.push(keywordLed && isNode(item) && keywordLed(item) ? { ...r, keywordLed: true } : r);
    }
    ranges.sort((a, b) => a.start - b.start);
    checkSeparated(this.map.text, ranges, (_prevEnd, nextStart) => {
      if (this.colonReported.has(nextStart)) return;
      this.diagnostics.push(syntax.missingSeparator(this.span(nextStart, nextStart), { what }));
    });
  }

  // ------------------------------------------------------------ file

  file(cst: CstNode): A.TopItem[] {
    const items: A.TopItem[] = [];
    for (const item of nodes(cst, "item")) {
      const imp = node(item, "import");
      const alias = node(item, "typeAlias");
      const graph = node(item, "graph");
      const iface = node(item, "interface");
      if (imp) items.push(this.importDecl(imp));
      else if (alias) items.push(this.typeAlias(alias));
      else if (graph) items.push(this.graphDecl(graph));
      else if (iface) items.push(this.interfaceDecl(iface));
    }
    return items;
  }

  private importDecl(n: CstNode): A.ImportDecl {
    const start = range(n)?.start ?? 0;
    const names = nodes(n, "name").map((c) => this.importName(c, start));
    this.separated(nodes(n, "name"), "imported names");
    const from = this.stringLit(
      tok(n, "from"),
      this.endOf(tok(n, "fromKw") ?? tok(n, "close"), range(n)?.end ?? start),
    );
    return {
      kind: "Import",
      typeOnly: has(n, "typeOnly"),
      isGraph: from.value.endsWith(".graph"),
      names,
      from,
      span: this.spanOf(n, start),
    };
  }

  private importName(n: CstNode, anchor: number): A.ImportName {
    const name = this.ident(tok(n, "name"), range(n)?.start ?? anchor);
    const out: A.ImportName = { kind: "ImportName", name, span: this.spanOf(n, anchor) };
    if (has(n, "asKw")) out.alias = this.ident(tok(n, "alias"), this.endOf(tok(n, "asKw"), anchor));
    return out;
  }

  private typeAlias(n: CstNode): A.TypeAlias {
    const kwEnd = this.endOf(tok(n, "kw"), 0);
    const name = this.ident(tok(n, "name"), kwEnd);
    const typeNode = node(n, "type");
    const type = typeNode
      ? this.typeExpr(typeNode, this.endOf(tok(n, "eq"), kwEnd))
      : this.missingType(this.endOf(tok(n, "eq"), kwEnd));
    return { kind: "TypeAlias", name, type, span: this.spanOf(n, kwEnd) };
  }

  private graphDecl(n: CstNode): A.GraphDecl {
    const kwEnd = this.endOf(tok(n, "kw"), 0);
    const name = this.ident(tok(n, "name"), kwEnd);
    this.graphStack.push(name.name);
    const members = this.graphMembers(node(n, "body"));
    this.graphStack.pop();
    const decl: A.GraphDecl = { kind: "Graph", name, inline: false, members, span: this.spanOf(n, kwEnd) };
    if (has(n, "implementsKw")) decl.implements = this.identList(n, "implements", this.endOf(tok(n, "implementsKw"), kwEnd));
    return decl;
  }

  private interfaceDecl(n: CstNode): A.InterfaceDecl {
    const kwEnd = this.endOf(tok(n, "kw"), 0);
    const name = this.ident(tok(n, "name"), kwEnd);
    const blocks = [...nodes(n, "state"), ...nodes(n, "schema")].sort((a, b) => (range(a)?.start ?? 0) - (range(b)?.start ?? 0));
    this.separated(blocks, "interface members");
    const members = blocks.map((b): A.StateBlock | A.SchemaBlock => {
      const anchor = range(b)?.start ?? kwEnd;
      const isState = b.name === "stateBlock";
      const kind = isState ? "State" : tok(b, "kw")?.image === "output" ? "Output" : "Input";
      const fields = this.fieldBlock(node(b, "block"), anchor, isState ? "the `state` block" : undefined);
      return { kind, fields, span: this.spanOf(b, anchor) } as A.StateBlock | A.SchemaBlock;
    });
    return { kind: "Interface", name, members, span: this.spanOf(n, kwEnd) };
  }

  private graphMembers(body: CstNode | undefined): A.GraphMember[] {
    const out: A.GraphMember[] = [];
    for (const t of toks(body, "stray")) this.diagnostics.push(syntax.strayBrace(this.tokSpan(t), {}));
    const members = nodes(body, "member");
    this.separated(members, "graph members", (m) => !has(m, "edge"));
    for (const m of members) {
      const member = this.graphMember(m);
      if (member) out.push(member);
    }
    return out;
  }

  private graphMember(m: CstNode): A.GraphMember | undefined {
    const anchor = range(m)?.start ?? 0;
    const [label, child] = Object.entries(m.children)[0] ?? [];
    const n = child?.[0];
    if (!n || !isNode(n)) return undefined;
    switch (label) {
      case "state":
        return {
          kind: "State",
          fields: this.fieldBlock(node(n, "block"), anchor, "the `state` block"),
          span: this.spanOf(n, anchor),
        };
      case "schema":
        return {
          kind: tok(n, "kw")?.image === "output" ? "Output" : "Input",
          fields: this.fieldBlock(node(n, "block"), anchor),
          span: this.spanOf(n, anchor),
        };
      case "private":
        return {
          kind: "Private",
          name: this.ident(tok(n, "name"), this.endOf(tok(n, "kw"), anchor)),
          fields: this.fieldBlock(node(n, "block"), anchor, "a `private` block"),
          span: this.spanOf(n, anchor),
        };
      case "vars":
        return {
          kind: "Vars",
          vars: this.fieldBlock(node(n, "block"), anchor, "the `vars` block"),
          span: this.spanOf(n, anchor),
        };
      case "limits":
        return { kind: "Limits", entries: this.optionBlock(node(n, "block"), anchor), span: this.spanOf(n, anchor) };
      case "meta":
        return { kind: "Meta", entries: this.optionBlock(node(n, "block"), anchor), span: this.spanOf(n, anchor) };
      case "interrupt":
        return {
          kind: "Interrupt",
          when: tok(n, "when")?.image === "after" ? "after" : "before",
          nodes: this.identList(n, "node", this.endOf(tok(n, "when") ?? tok(n, "kw"), anchor)),
          span: this.spanOf(n, anchor),
        };
      case "node":
        return this.nodeDecl(n);
      case "subgraph":
        return this.subgraphDecl(n);
      case "edge":
        return this.edgeStmt(n);
      default:
        return undefined;
    }
  }

  /** idents under `label`; one missing ident at `anchor` when the label holds only recovery tokens */
  private identList(n: CstNode, label: string, anchor: number): A.Ident[] {
    const real = toks(n, label);
    if (real.length === 0 && has(n, label)) return [this.ident(undefined, anchor)];
    return real.map((t) => this.ident(t, anchor));
  }

  // ------------------------------------------------------------ fields

  /** `typedIn` names the block when its fields need a type (`state`, `vars`, `private`) */
  private fieldBlock(block: CstNode | undefined, anchor: number, typedIn?: string): A.FieldDecl[] {
    const fields = nodes(block, "field");
    if (typedIn) this.missingColons(fields, typedIn);
    this.separated(fields, "fields");
    return fields.map((f) => this.field(f, anchor));
  }

  /**
   * `a string` on one line in a typed block is a field missing its colon, not two fields missing a
   * comma: report G1010 "expected ':'" at the type instead of G1020 (and skip the separator check there).
   */
  private missingColons(fields: CstNode[], block: string): void {
    for (let i = 1; i < fields.length; i++) {
      const prev = fields[i - 1]!;
      const next = fields[i]!;
      const bare = (f: CstNode) => Object.keys(f.children).every((k) => k === "name");
      const nextName = tok(next, "name");
      const prevName = tok(prev, "name");
      if (!bare(prev) || !nextName || !prevName) continue;
      if (hasSeparator(this.map.text, tokEnd(prevName), nextName.startOffset)) continue;
      this.diagnostics.push(
        syntax.expectedToken(this.tokSpan(nextName), {
          expected: "':'",
          found: describeToken(nextName),
          context: `a field of ${block}`,
        }),
      );
      this.colonReported.add(nextName.startOffset);
    }
  }

  private field(n: CstNode, anchor: number): A.FieldDecl {
    const start = range(n)?.start ?? anchor;
    const name = this.ident(tok(n, "name"), start);
    const out: A.FieldDecl = { kind: "Field", name, ephemeral: has(n, "ephemeral"), span: this.spanOf(n, start) };
    const typeNode = node(n, "type");
    if (typeNode) out.type = this.typeExpr(typeNode, this.endOf(tok(n, "colon"), start));
    else if (has(n, "colon")) out.type = this.missingType(this.endOf(tok(n, "colon"), start));
    const def = node(n, "default");
    const bare = node(n, "bareDefault");
    if (def) out.default = this.expr(def, this.endOf(tok(n, "eq"), start));
    else if (has(n, "eq")) out.default = this.missingExpr(this.endOf(tok(n, "eq"), start));
    else if (bare) {
      out.default = this.expr(bare, start);
      const first = firstToken(bare);
      if (first) this.diagnostics.push(syntax.expectedToken(this.tokSpan(first), { expected: "'='", found: describeToken(first), context: "a field" }));
    }
    const reduceKws = toks(n, "reduceKw");
    if (reduceKws.length > 0) out.reducer = this.ident(tok(n, "reducer"), tokEnd(reduceKws[0]!));
    if (reduceKws.length > 1)
      this.diagnostics.push(syntax.duplicateClause(this.tokSpan(reduceKws[1]!), { what: "`reduce`" }));
    const eph = toks(n, "ephemeral");
    if (eph.length > 1) this.diagnostics.push(syntax.duplicateClause(this.tokSpan(eph[1]!), { what: "`ephemeral`" }));
    return out;
  }

  // ------------------------------------------------------------ nodes and options

  private nodeDecl(n: CstNode): A.NodeDecl {
    const start = range(n)?.start ?? 0;
    const name = this.ident(tok(n, "name"), this.endOf(tok(n, "kw"), start));
    const implAnchor = this.endOf(tok(n, "eq") ?? n.children["close"]?.[0], range(n)?.end ?? start);
    const out: A.NodeDecl = {
      kind: "Node",
      name,
      impl: this.ident(tok(n, "impl"), implAnchor),
      options: this.optionBlock(node(n, "options"), start),
      span: this.spanOf(n, start),
    };
    const reads = node(n, "reads");
    if (reads) out.reads = this.schemaRef(reads, start);
    const writes = node(n, "writes");
    const arrowEnd = this.endOf(tok(n, "arrow"), start);
    if (writes) out.writes = this.schemaRef(writes, arrowEnd);
    else if (has(n, "arrow")) out.writes = this.missingSchema(arrowEnd);
    const gotoList = node(n, "goto");
    if (gotoList) out.goto = this.nameList(gotoList, start);
    else if (has(n, "gotoKw")) out.goto = [];
    return out;
  }

  private schemaRef(n: CstNode, anchor: number): A.SchemaRef {
    const schema = tok(n, "schema");
    if (schema) return { kind: "SchemaName", name: this.ident(schema, anchor), span: this.tokSpan(schema) };
    if (has(n, "open")) {
      const fields = toks(n, "field");
      this.separated(fields, "fields");
      return { kind: "FieldList", fields: fields.map((t) => this.ident(t, anchor)), span: this.spanOf(n, anchor) };
    }
    return this.missingSchema(range(n)?.start ?? anchor);
  }

  private missingSchema(at: number): A.SchemaNameRef {
    return { kind: "SchemaName", name: this.ident(undefined, at), span: this.span(at, at) };
  }

  private nameList(n: CstNode, anchor: number): A.Ident[] {
    const names = toks(n, "name");
    this.separated(names, "names");
    return names.map((t) => this.ident(t, anchor));
  }

  private optionBlock(n: CstNode | undefined, anchor: number): A.OptionEntry[] {
    const entries = nodes(n, "entry");
    // a node's block whose `{` is missing (parser.ts lostOptions): its entries are kept, the `{` reported
    const first = n && entries[0] && !has(n, "open") ? firstToken(entries[0]) : undefined;
    if (first)
      this.diagnostics.push(syntax.expectedToken(this.tokSpan(first), { expected: "'{'", found: describeToken(first), context: "a node's options" }));
    this.separated(entries, "options");
    return entries.map((e) => this.optionEntry(e, anchor));
  }

  private optionEntry(n: CstNode, anchor: number): A.OptionEntry {
    const start = range(n)?.start ?? anchor;
    const out: A.OptionEntry = { kind: "Option", name: this.ident(tok(n, "name"), start), span: this.spanOf(n, start) };
    const value = node(n, "value");
    const valueAnchor = this.endOf(tok(n, "colon") ?? tok(n, "name"), start);
    if (value) out.value = this.optionValue(value, valueAnchor);
    else if (has(n, "colon")) out.value = this.missingExpr(valueAnchor);
    return out;
  }

  private optionValue(n: CstNode, anchor: number): A.OptionValue {
    const d = tok(n, "duration");
    if (d) return this.duration(d);
    const block = node(n, "block");
    if (block)
      return { kind: "OptionBlock", entries: this.optionBlock(block, anchor), span: this.spanOf(block, anchor) };
    const tuple = node(n, "tuple");
    if (tuple) {
      const items = toks(tuple, "item");
      this.separated(items, "tuple items");
      return { kind: "Tuple", items: items.map((t) => this.ident(t, anchor)), span: this.spanOf(tuple, anchor) };
    }
    const lit = node(n, "literal");
    if (lit) return this.literal(lit, anchor);
    const e = node(n, "expr");
    return e ? this.expr(e, anchor) : this.missingExpr(anchor);
  }

  private duration(t: IToken): A.DurationLit {
    return { kind: "Duration", ms: durationValue(t.image).ms ?? 0, raw: t.image, span: this.tokSpan(t) };
  }

  // ------------------------------------------------------------ subgraphs

  private subgraphDecl(n: CstNode): A.SubgraphDecl {
    const start = range(n)?.start ?? 0;
    const name = this.ident(tok(n, "name"), this.endOf(tok(n, "kw"), start));
    const out: A.SubgraphDecl = {
      kind: "Subgraph",
      name,
      target: this.subgraphTarget(n, name, start),
      options: [],
      span: this.spanOf(n, start),
    };
    const gotoList = node(n, "goto");
    if (gotoList) out.goto = this.nameList(gotoList, start);
    else if (has(n, "gotoKw")) out.goto = [];
    const body = node(n, "body");
    if (body) this.subgraphBody(body, out, start);
    return out;
  }

  private subgraphTarget(n: CstNode, name: A.Ident, start: number): A.SubgraphTarget {
    const inline = node(n, "inline");
    if (has(n, "graphKw")) {
      const kw = tok(n, "graphKw")!;
      const graphSpan = this.span(kw.startOffset, this.endOf(inline, tokEnd(kw)));
      // `$` cannot appear in a .graph identifier, so the synthesised name never clashes with a declared one
      const synth = `${this.graphStack[this.graphStack.length - 1] ?? ""}$${name.name}`;
      this.graphStack.push(synth);
      const members = this.graphMembers(inline);
      this.graphStack.pop();
      const graph: A.GraphDecl = {
        kind: "Graph",
        name: { kind: "Ident", name: synth, span: name.span },
        inline: true,
        members,
        span: graphSpan,
      };
      return { kind: "InlineGraph", graph, span: graphSpan };
    }
    if (has(n, "fromKw")) {
      const fromKw = tok(n, "fromKw");
      const path = this.stringLit(tok(n, "path"), this.endOf(fromKw, start));
      const target: A.FileTarget = { kind: "FileRef", path, span: path.span };
      if (has(n, "asKw")) {
        target.graph = this.ident(tok(n, "fileGraph"), this.endOf(tok(n, "asKw"), start));
        target.span = this.span(path.span.start.offset, target.graph.span.end.offset);
      }
      return target;
    }
    if (has(n, "colon")) {
      const iface = this.ident(tok(n, "iface"), this.endOf(tok(n, "colon"), start));
      const slot: A.SlotTarget = { kind: "Slot", interface: iface, span: iface.span };
      if (has(n, "slotEq")) {
        slot.default = this.ident(tok(n, "slotDefault"), this.endOf(tok(n, "slotEq"), start));
        slot.span = this.span(iface.span.start.offset, slot.default.span.end.offset);
      }
      return slot;
    }
    const ref = this.ident(tok(n, "target"), this.endOf(tok(n, "eq") ?? tok(n, "name"), start));
    return { kind: "GraphRef", name: ref, span: ref.span };
  }

  private subgraphBody(body: CstNode, out: A.SubgraphDecl, start: number): void {
    const mappings = nodes(body, "mapping");
    const options = nodes(body, "option");
    this.separated([...mappings, ...options], "subgraph body items", (item) => item.name === "mapping");
    for (const m of mappings) {
      const mapping = this.mapping(m, start);
      if (out[mapping.direction]) {
        this.diagnostics.push(syntax.duplicateClause(mapping.span, { what: `\`${mapping.direction}\` mapping` }));
      } else {
        out[mapping.direction] = mapping;
      }
    }
    out.options = options.map((o) => this.optionEntry(o, start));
  }

  private mapping(n: CstNode, anchor: number): A.Mapping {
    const direction = tok(n, "dir")?.image === "out" ? "out" : "in";
    const span = this.spanOf(n, anchor);
    if (has(n, "eq")) {
      return { kind: "MapFn", direction, fn: this.ident(tok(n, "fn"), this.endOf(tok(n, "eq"), anchor)), span };
    }
    const entries = nodes(n, "entry");
    this.separated(entries, "mappings");
    return { kind: "MapBlock", direction, entries: entries.map((e) => this.mapEntry(e, direction, anchor)), span };
  }

  private mapEntry(n: CstNode, direction: "in" | "out", anchor: number): A.MapEntry {
    const start = range(n)?.start ?? anchor;
    const child = this.ident(tok(n, "child"), start);
    const span = this.spanOf(n, start);
    const left = tok(n, "leftArrow");
    const right = tok(n, "arrow");
    if (left && direction === "out")
      this.diagnostics.push(syntax.wrongMapArrow(this.tokSpan(left), { arrow: "<-", dir: "out" }));
    if (right && direction === "in")
      this.diagnostics.push(syntax.wrongMapArrow(this.tokSpan(right), { arrow: "->", dir: "in" }));
    if (has(n, "leftArrow")) {
      const e = node(n, "expr");
      const at = this.endOf(left, start);
      return { kind: "InMap", child, expr: e ? this.expr(e, at) : this.missingExpr(at), span };
    }
    if (has(n, "arrow"))
      return { kind: "OutMap", child, parent: this.ident(tok(n, "parent"), this.endOf(right, start)), span };
    return { kind: "SameName", name: child, span };
  }

  // ------------------------------------------------------------ edges

  private edgeStmt(n: CstNode): A.EdgeStmt {
    const start = range(n)?.start ?? 0;
    for (const t of toks(n, "badArrow"))
      this.diagnostics.push(syntax.expectedToken(this.tokSpan(t), { expected: "'->'", found: describeToken(t), context: "an edge" }));
    type Part = { kind: "step" | "branch"; node: CstNode; start: number };
    const parts: Part[] = [];
    for (const s of nodes(n, "step")) parts.push({ kind: "step", node: s, start: range(s)?.start ?? Infinity });
    for (const b of nodes(n, "branch")) parts.push({ kind: "branch", node: b, start: range(b)?.start ?? Infinity });
    parts.sort((a, b) => a.start - b.start);

    const steps: A.Endpoints[] = [];
    let branch: A.Branch | undefined;
    for (const p of parts) {
      if (branch) {
        const what =
          branch.kind === "Route" ? "`route(…)`" : branch.kind === "Send" ? "`send(…)`" : "a condition block";
        this.diagnostics.push(syntax.branchNotLast(this.spanOf(p.node, start), { branch: what }));
        break;
      }
      if (p.kind === "step") steps.push(this.endpoints(p.node, start));
      else branch = this.branch(p.node, start);
    }
    if (steps.length === 0) steps.push(this.endpoints(undefined, start));
    const out: A.EdgeStmt = { kind: "Edge", steps, span: this.spanOf(n, start) };
    if (branch) out.branch = branch;
    return out;
  }

  private endpoints(n: CstNode | undefined, anchor: number): A.Endpoints {
    const at = range(n)?.start ?? anchor;
    const list = node(n, "list");
    if (list)
      return { kind: "Endpoints", names: this.nameList(list, at), bracketed: true, span: this.spanOf(list, at) };
    const name = this.ident(tok(n, "name"), at);
    return { kind: "Endpoints", names: [name], bracketed: false, span: name.span };
  }

  private branch(n: CstNode, anchor: number): A.Branch {
    const span = this.spanOf(n, anchor);
    const fnAnchor = this.endOf(tok(n, "open"), anchor);
    if (has(n, "route")) {
      const out: A.RouteBranch = { kind: "Route", fn: this.ident(tok(n, "fn"), fnAnchor), span };
      if (has(n, "casesOpen")) {
        const cases = nodes(n, "routeCase");
        this.separated(cases, "route cases");
        out.cases = cases.map((c) => this.routeCase(c, anchor));
      }
      return out;
    }
    if (has(n, "send")) return { kind: "Send", fn: this.ident(tok(n, "fn"), fnAnchor), span };
    const cases = nodes(n, "condCase");
    // a block whose `{` is missing (parser.ts lostConditions): its cases are kept, the `{` reported
    const first = cases[0] && !has(n, "condOpen") ? firstToken(cases[0]) : undefined;
    if (first)
      this.diagnostics.push(syntax.expectedToken(this.tokSpan(first), { expected: "'{'", found: describeToken(first), context: "a condition block" }));
    this.separated(cases, "condition cases", (c) => has(c, "default"));
    return { kind: "Conditions", cases: cases.map((c) => this.conditionCase(c, anchor)), span };
  }

  private routeCase(n: CstNode, anchor: number): A.RouteCase {
    const start = range(n)?.start ?? anchor;
    const k = tok(n, "key");
    const key = k && /^["']/.test(k.image) ? this.stringLit(k, start) : this.ident(k, start);
    const at = this.endOf(tok(n, "colon"), start);
    return { kind: "RouteCase", key, targets: this.endpoints(node(n, "targets"), at), span: this.spanOf(n, start) };
  }

  private conditionCase(n: CstNode, anchor: number): A.ConditionCase {
    const start = range(n)?.start ?? anchor;
    const at = this.endOf(tok(n, "arrow"), start);
    const out: A.ConditionCase = {
      kind: "ConditionCase",
      targets: this.endpoints(node(n, "targets"), at),
      span: this.spanOf(n, start),
    };
    const cond = node(n, "cond");
    if (cond) out.cond = this.expr(cond, start);
    else if (!has(n, "default")) out.cond = this.missingExpr(start);
    return out;
  }

  // ------------------------------------------------------------ types

  private missingType(at: number): A.NamedType {
    return { kind: "NamedType", name: this.ident(undefined, at), args: [], span: this.span(at, at) };
  }

  private typeExpr(n: CstNode, anchor: number): A.TypeExpr {
    const members = nodes(n, "member").map((m) => this.postfixType(m, anchor));
    if (members.length === 0) return this.missingType(range(n)?.start ?? anchor);
    if (members.length === 1) return members[0]!;
    const span = this.spanOf(n, anchor);
    return this.boundedType({ kind: "UnionType", members, span }, members, span.start.offset, span.end.offset);
  }

  private postfixType(n: CstNode, anchor: number): A.TypeExpr {
    const baseNode = node(n, "base");
    let t = baseNode ? this.primaryType(baseNode, anchor) : this.missingType(range(n)?.start ?? anchor);
    const closes = n.children["arrayClose"] ?? [];
    let closeIdx = 0;
    for (const s of toks(n, "suffix")) {
      let next: A.TypeExpr;
      if (s.image === "?") {
        next = { kind: "OptionalType", inner: t, span: this.span(t.span.start.offset, tokEnd(s)) };
      } else {
        const close = closes[closeIdx++];
        next = { kind: "ArrayType", element: t, span: this.span(t.span.start.offset, this.endOf(close, tokEnd(s))) };
      }
      const kept = this.boundedType(next, [t], s.startOffset, next.span.end.offset);
      t = kept;
      if (kept !== next) break; // the rest of the chain is skipped
    }
    return t;
  }

  private primaryType(n: CstNode, anchor: number): A.TypeExpr {
    const start = range(n)?.start ?? anchor;
    const span = this.spanOf(n, start);
    const name = tok(n, "name");
    if (name || has(n, "argsOpen")) {
      const args = nodes(n, "arg").map((a) => this.typeExpr(a, start));
      const named: A.TypeExpr = { kind: "NamedType", name: this.ident(name, start), args, span };
      return args.length === 0 ? named : this.boundedType(named, args, span.start.offset, span.end.offset);
    }
    const nul = tok(n, "null");
    if (nul) return { kind: "NamedType", name: this.ident(nul, start), args: [], span };
    const lit = tok(n, "literal");
    if (lit) {
      const value =
        lit.image === "true"
          ? true
          : lit.image === "false"
            ? false
            : /^["']/.test(lit.image)
              ? decodeString(lit.image).value
              : Number(lit.image);
      return { kind: "LiteralType", value, raw: lit.image, span };
    }
    if (has(n, "open")) {
      const members = nodes(n, "objMember");
      this.separated(members, "object type members");
      const built = members.map((m) => this.objectTypeMember(m, start));
      const obj: A.TypeExpr = { kind: "ObjectType", members: built, span };
      return this.boundedType(obj, built.map((m) => m.type), span.start.offset, span.end.offset);
    }
    const inner = node(n, "inner");
    if (inner) return this.typeExpr(inner, start);
    return this.missingType(start);
  }

  private objectTypeMember(n: CstNode, anchor: number): A.ObjectTypeMember {
    const start = range(n)?.start ?? anchor;
    const typeNode = node(n, "type");
    const at = this.endOf(tok(n, "colon"), start);
    return {
      kind: "ObjectTypeMember",
      name: this.ident(tok(n, "name"), start),
      optional: has(n, "optional"),
      type: typeNode ? this.typeExpr(typeNode, at) : this.missingType(at),
      span: this.spanOf(n, start),
    };
  }

  // ------------------------------------------------------------ expressions

  private missingExpr(at: number): A.NameExpr {
    return { kind: "Name", name: this.ident(undefined, at), span: this.span(at, at) };
  }

  /** expr / andExpr / eqExpr / relExpr: operands folded left with their operators */
  expr(n: CstNode, anchor: number): A.Expr {
    const operandNodes = nodes(n, "operand");
    if (operandNodes.length === 0) return this.missingExpr(range(n)?.start ?? anchor);
    const sub = (c: CstNode, at: number): A.Expr => (c.name === "unaryExpr" ? this.unary(c, at) : this.expr(c, at));
    let left = sub(operandNodes[0]!, anchor);
    const ops = toks(n, "op");
    for (let i = 1; i < operandNodes.length; i++) {
      const op = ops[i - 1];
      const right = sub(operandNodes[i]!, op ? tokEnd(op) : left.span.end.offset);
      const next: A.Expr = {
        kind: "Binary",
        op: (op?.image ?? "==") as A.BinaryOp,
        left,
        right,
        span: this.span(left.span.start.offset, Math.max(right.span.end.offset, left.span.end.offset)),
      };
      left = this.boundedExpr(next, [left, right], op?.startOffset ?? right.span.start.offset, right.span.end.offset);
      if (left !== next) break; // the rest of the chain is skipped
    }
    return left;
  }

  private unary(n: CstNode, anchor: number): A.Expr {
    const postfix = node(n, "postfix");
    if (postfix) return this.postfix(postfix, anchor);
    const op = tok(n, "op");
    const start = op?.startOffset ?? range(n)?.start ?? anchor;
    const operandNode = node(n, "operand");
    const operand = operandNode
      ? this.unary(operandNode, op ? tokEnd(op) : start)
      : this.missingExpr(op ? tokEnd(op) : start);
    const span = this.span(start, Math.max(operand.span.end.offset, start + 1));
    // `-3` is a negative number literal, not an operation (defaults, indices and limits read better)
    if (op?.image === "-" && operand.kind === "Literal" && typeof operand.value === "number") {
      return {
        kind: "Literal",
        value: -operand.value,
        raw: this.map.text.slice(span.start.offset, span.end.offset),
        span,
      };
    }
    const unary: A.Expr = { kind: "Unary", op: op?.image === "-" ? "-" : "!", operand, span };
    return this.boundedExpr(unary, [operand], span.start.offset, span.end.offset);
  }

  private postfix(n: CstNode, anchor: number): A.Expr {
    const baseNode = node(n, "base");
    let e: A.Expr = baseNode ? this.primary(baseNode, anchor) : this.missingExpr(range(n)?.start ?? anchor);
    type Suffix = { at: number; build: (object: A.Expr) => A.MemberExpr | A.IndexExpr };
    const suffixes: Suffix[] = [];
    const props = n.children["property"] ?? [];
    toks(n, "dot").forEach((dot, i) => {
      const p = props[i] as IToken | undefined;
      suffixes.push({
        at: dot.startOffset,
        build: (object) => {
          const property = this.ident(p, tokEnd(dot));
          return {
            kind: "Member",
            object,
            property,
            span: this.span(object.span.start.offset, Math.max(property.span.end.offset, tokEnd(dot))),
          };
        },
      });
    });
    const indexNodes = nodes(n, "index");
    const closes = n.children["indexClose"] ?? [];
    toks(n, "indexOpen").forEach((open, i) => {
      const idx = indexNodes[i];
      const close = closes[i];
      suffixes.push({
        at: open.startOffset,
        build: (object) => {
          const index = idx ? this.expr(idx, tokEnd(open)) : this.missingExpr(tokEnd(open));
          const end = Math.max(this.endOf(close, index.span.end.offset), tokEnd(open));
          return { kind: "Index", object, index, span: this.span(object.span.start.offset, end) };
        },
      });
    });
    suffixes.sort((a, b) => a.at - b.at);
    for (const s of suffixes) {
      const next = s.build(e);
      const children = next.kind === "Index" ? [e, next.index] : [e];
      e = this.boundedExpr(next, children, s.at, next.span.end.offset);
      if (e !== next) break; // the rest of the chain is skipped
    }
    return e;
  }

  private primary(n: CstNode, anchor: number): A.Expr {
    const start = range(n)?.start ?? anchor;
    const span = this.spanOf(n, start);
    const lit = node(n, "literal");
    if (lit) return this.literal(lit, start);
    if (has(n, "arrayOpen")) {
      const items = nodes(n, "item");
      this.separated(items, "array items");
      const built = items.map((i) => this.expr(i, start));
      return this.boundedExpr({ kind: "Array", items: built, span }, built, span.start.offset, span.end.offset);
    }
    if (has(n, "objectOpen")) {
      const entries = nodes(n, "entry");
      this.separated(entries, "object entries");
      const built = entries.map((e) => this.objectEntry(e, start));
      const obj: A.Expr = { kind: "Object", entries: built, span };
      return this.boundedExpr(obj, built.map((x) => x.value), span.start.offset, span.end.offset);
    }
    const inner = node(n, "inner");
    if (has(n, "parenOpen")) return inner ? this.expr(inner, start) : this.missingExpr(start);
    const name = this.ident(tok(n, "name"), start);
    if (has(n, "callOpen")) {
      const args = nodes(n, "arg");
      this.separated(args, "arguments");
      const built = args.map((a) => this.expr(a, start));
      return this.boundedExpr({ kind: "Call", callee: name, args: built, span }, built, span.start.offset, span.end.offset);
    }
    return { kind: "Name", name, span: name.span };
  }

  private literal(n: CstNode, anchor: number): A.LiteralExpr {
    const t = tok(n, "value");
    if (!t) return { kind: "Literal", value: null, raw: "", span: this.span(anchor, anchor) };
    const raw = t.image;
    const value =
      raw === "true"
        ? true
        : raw === "false"
          ? false
          : raw === "null"
            ? null
            : /^["']/.test(raw)
              ? decodeString(raw).value
              : Number(raw);
    return { kind: "Literal", value, raw, span: this.tokSpan(t) };
  }

  private objectEntry(n: CstNode, anchor: number): A.ObjectEntry {
    const start = range(n)?.start ?? anchor;
    const k = tok(n, "key");
    const key = k && /^["']/.test(k.image) ? this.stringLit(k, start) : this.ident(k, start);
    const valueNode = node(n, "value");
    const at = this.endOf(tok(n, "colon"), start);
    return {
      kind: "ObjectEntry",
      key,
      value: valueNode ? this.expr(valueNode, at) : this.missingExpr(at),
      span: this.spanOf(n, start),
    };
  }
}
