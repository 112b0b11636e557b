/**
 * The .graph grammar as a chevrotain CstParser with error recovery. One instance, built once (grammar
 * analysis is the expensive part) and reused by every parse() call.
 *
 * Conventions: every consumed token / subrule carries a LABEL so grammar/to-ast.ts reads children by
 * role, not by token type. Lists inside braces/brackets take an optional comma after each item; the
 * "newline or comma" rule is checked afterwards (grammar/separators.ts), which keeps the grammar LL(k).
 */
import type { CstNode, IToken, TokenType } from "chevrotain";
import { CstParser, EOF, tokenMatcher } from "./chevrotain.ts";
import { errorMessageProvider } from "./parse-errors.ts";
import * as T from "./tokens.ts";

const { KW } = T;

/** Soft keywords are valid names; a gate keeps `reduce:` / `ephemeral:` usable as the next field's name. */
function notFieldStart(next: IToken): boolean {
  return next.tokenType !== T.Colon && next.tokenType !== T.Question;
}

/** soft keywords that begin a graph member */
const MEMBER_KEYWORDS = new Set<TokenType>([
  KW.state,
  KW.input,
  KW.output,
  KW.private,
  KW.vars,
  KW.limits,
  KW.meta,
  KW.interrupt,
  KW.node,
  KW.subgraph,
]);

/** tokens after which a member keyword is a field or option name (`node: T`, `state = 1`, `defer,`…) */
const NAME_FOLLOWERS = new Set<TokenType>([T.Colon, T.Eq, T.Question, T.Comma, T.RCurly, KW.reduce, KW.ephemeral]);
/** what can begin a default value without its `=` (not a name: `a: T b: U` is two fields on one line) */
const BARE_DEFAULT_STARTS = new Set<TokenType>([T.LCurly, T.LBracket, T.StringTok, T.NumberTok, KW.true, KW.false, KW.null]);
/** what makes a line a field's rather than an object entry's: a top-level `=`, `reduce` or `ephemeral` */
const FIELD_MARKS = new Set<TokenType>([T.Eq, KW.reduce, KW.ephemeral]);
/** what makes a line a condition case: a top-level `=>` */
const CASE_MARKS = new Set<TokenType>([T.FatArrow]);
/** what follows an option's name and no member's first name: `: v`, `{ … }`, a duration, number or string */
const OPTION_VALUE_STARTS = new Set<TokenType>([T.Colon, T.LCurly, T.Duration, T.NumberTok, T.StringTok]);
/** what an arrow leads to, as messages name it */
const TARGET = "a node name, '[', 'route(…)', 'send(…)' or '{'";
/** keywords that begin a top-level item */
const TOP_KEYWORDS = new Set<TokenType>([KW.graph, KW.type, KW.interface, KW.import]);
/** what may follow a mapping entry's first name: `,`, `<-`, `->`, the block's `}` (or a line break) */
const MAPPING_CONTINUES = new Set<TokenType>([T.Comma, T.LeftArrow, T.Arrow, T.RCurly]);

const opensGroup = (t: IToken): boolean => t.tokenType === T.LCurly || t.tokenType === T.LBracket || t.tokenType === T.LParen;

/** Chevrotain internals used by the line-aware recovery below (present on the prototype, not in its .d.ts). */
interface RecoveryInternals {
  flattenFollowSet(): TokenType[];
  SKIP_TOKEN(): IToken;
}

export class GraphParser extends CstParser {
  /** tokens that are the first on their line; set by `setInput` */
  private lineStarts = new Set<IToken>();
  /** the token chosen by findReSyncTokenType, consumed by reSyncTo */
  private resyncTarget: IToken | undefined;

  /**
   * `validate`: chevrotain's checks of the grammar itself (ambiguous alternatives, left recursion…), about a
   * seventh of building the parser, which every graphc process does once; test/grammar/parse.test.ts runs them.
   */
  constructor(validate = false) {
    super(T.allTokens, {
      recoveryEnabled: true,
      nodeLocationTracking: "onlyOffset",
      maxLookahead: 2,
      errorMessageProvider,
      skipValidations: !validate,
    });
    this.performSelfAnalysis();
  }

  /**
   * Alternatives / repetition definitions, built once per parser. The DSL takes fresh object literals
   * on every call otherwise, and with tsx (esbuild keepNames) each `ALT: () => …` also pays for a
   * `__name` wrapper: caching made parsing several times faster.
   */
  private readonly cache = new Map<string, unknown>();
  private cached<V>(key: string, make: () => V): V {
    let v = this.cache.get(key) as V | undefined;
    if (v === undefined) {
      v = make();
      this.cache.set(key, v);
    }
    return v;
  }

  /** Sets the token vector; `text` is used to find which tokens begin a line. */
  setInput(tokens: IToken[], text: string): void {
    this.lineStarts = new Set();
    let prevEnd = 0;
    for (const t of tokens) {
      if (prevEnd === 0 || /[\r\n]/.test(text.slice(prevEnd, t.startOffset))) this.lineStarts.add(t);
      prevEnd = t.startOffset + t.image.length;
    }
    this.input = tokens;
  }

  // ------------------------------------------------------------ recovery
  // Chevrotain re-synchronises on the first token in the follow set of a rule on the stack. Names are in
  // almost every follow set here (soft keywords are names), so that would resume mid-line and cascade.
  // We only resume at a token that begins a line, a closing brace or the end of input: one mistake, one
  // diagnostic, and the next member is parsed normally.

  /** @internal chevrotain hook */
  findReSyncTokenType(): TokenType {
    const self = this as unknown as RecoveryInternals;
    // innermost rule first, so the rule closest to the error resumes (a field, not the whole block)
    const follows = self.flattenFollowSet().slice().reverse();
    // brackets opened while skipping are skipped whole: their `}` and inner lines are not resync points
    let depth = 0;
    let openOnLine = this.bracesOpenOnLine();
    for (let k = 1; ; k++) {
      const t = this.LA(k);
      const isEof = t.tokenType === EOF;
      const type = t.tokenType;
      const opens = type === T.LCurly || type === T.LBracket || type === T.LParen;
      const closes = type === T.RCurly || type === T.RBracket || type === T.RParen;
      if (depth > 0 && !isEof) {
        if (opens) depth++;
        else if (closes) depth--;
        continue;
      }
      // a `}` in mid-line resumes only as the closer of a block opened earlier on the error's line (`{ k: }`):
      // after a deleted `{` (`entities: T = }`) it would close the enclosing block instead
      if (isEof || this.lineStarts.has(t) || (type === T.RCurly && openOnLine-- > 0)) {
        const match = follows.find((f) => tokenMatcher(t, f));
        if (match) {
          this.resyncTarget = t;
          return match;
        }
        if (isEof) {
          this.resyncTarget = t;
          return EOF;
        }
      }
      if (opens) depth = 1;
    }
  }

  /**
   * @internal chevrotain hook: where a closing brace may be inserted. Chevrotain would insert the `}` a block
   * expects wherever the token after the error could follow the block: `[` can start an edge, so `b string[]`
   * in `state` closed the block early and made the rest of the graph "unexpected at the top level". So a `}`
   * is inserted before a token that begins a line (the block's `}` is missing: fieldBlock and optionBlock
   * stop before a member's line), or mid-line before a token that cannot begin an item or a member (the `=`
   * of `-> { a, b = f`); before a name or an opening bracket the block skips to its own `}` instead.
   */
  override canTokenTypeBeInsertedInRecovery(tokType: TokenType): boolean {
    if (tokType !== T.RCurly) return true;
    const next = this.LA(1);
    if (this.lineStarts.has(next) || next.tokenType === EOF) return true;
    // `import { a, b from "m"`: `from` and a string end the list
    if (next.tokenType === KW.from && this.LA(2).tokenType === T.StringTok) return true;
    // mid-line, only before what cannot begin a block's content or a member (`-> { a, b = f`: the `=`)
    return !tokenMatcher(next, T.Name) && !opensGroup(next);
  }

  /** `{` not yet closed among the tokens of the current line before the next token */
  private bracesOpenOnLine(): number {
    let open = 0;
    for (let k = 0; ; k--) {
      const t = this.LA(k);
      if (t.tokenType === EOF || !Number.isFinite(t.startOffset)) return open;
      if (t.tokenType === T.LCurly) open++;
      else if (t.tokenType === T.RCurly) open--;
      if (this.lineStarts.has(t)) return Math.max(open, 0);
    }
  }

  /** @internal chevrotain hook: skip to the token findReSyncTokenType chose */
  reSyncTo(_tokType: TokenType): IToken[] {
    const self = this as unknown as RecoveryInternals;
    const skipped: IToken[] = [];
    const target = this.resyncTarget;
    while (this.LA(1) !== target && this.LA(1).tokenType !== EOF) {
      skipped.push(this.LA(1));
      self.SKIP_TOKEN();
    }
    return skipped;
  }

  /**
   * The next line begins a new member: a member keyword at the start of a line (not used as an edge's
   * node name), or — when `edgeToo` — any line that starts an edge (`name ->`).
   */
  private atMemberStart(edgeToo: boolean): boolean {
    const t = this.LA(1);
    if (!this.lineStarts.has(t)) return false;
    const edgeNext = this.LA(2).tokenType === T.Arrow;
    return edgeNext ? edgeToo : MEMBER_KEYWORDS.has(t.tokenType);
  }

  /**
   * A name that ends a member (`= impl`, `= Target`, `reduce R`, an edge endpoint) never swallows the
   * next line's `node …`; except for edge endpoints (`a ->` ⏎ `b -> c` is one chain) it also never
   * swallows a next line that starts an edge.
   */
  private trailingName(idx: number, label: string, type: TokenType = T.Name): void {
    const edgeToo = type !== T.EndpointName;
    this.or(
      idx,
      this.cached(`or0:${idx}:${label}:${type.name}`, () => ({
        DEF: [{ GATE: () => !this.atMemberStart(edgeToo), ALT: () => this.consume(idx, type, { LABEL: label }) }],
        ERR_MSG: type === T.Name ? "identifier" : "a node name",
      })),
    );
  }

  /** optional `,` after a list item; `n` keeps occurrence indices unique when a rule has several lists */
  private sep(n = 0): void {
    this.option(200 + n, () => this.consume(200 + n, T.Comma, { LABEL: "comma" }));
  }

  // ------------------------------------------------------------ file

  file = this.RULE("file", () => {
    this.MANY(() => this.SUBRULE(this.topItem, { LABEL: "item" }));
  });

  topItem = this.RULE("topItem", () => {
    this.OR(
      this.cached("or1", () => ({
        DEF: [
          { ALT: () => this.SUBRULE(this.importDecl, { LABEL: "import" }) },
          { ALT: () => this.SUBRULE(this.typeAlias, { LABEL: "typeAlias" }) },
          { ALT: () => this.SUBRULE(this.graphDecl, { LABEL: "graph" }) },
          { ALT: () => this.SUBRULE(this.interfaceDecl, { LABEL: "interface" }) },
        ],
        ERR_MSG: "'import', 'type', 'graph' or 'interface'",
      })),
    );
  });

  importDecl = this.RULE("importDecl", () => {
    this.CONSUME(KW.import, { LABEL: "kw" });
    this.OPTION(() => this.CONSUME(KW.type, { LABEL: "typeOnly" }));
    this.CONSUME(T.LCurly, { LABEL: "open" });
    this.MANY({
      // `import { a, b from "m"`: the list ends at `from` and a string (a `}` is inserted there)
      GATE: () => this.LA(1).tokenType !== KW.from || this.LA(2).tokenType !== T.StringTok,
      DEF: () => {
        this.SUBRULE(this.importName, { LABEL: "name" });
        this.sep();
      },
    });
    this.CONSUME(T.RCurly, { LABEL: "close" });
    this.CONSUME(KW.from, { LABEL: "fromKw" });
    this.CONSUME(T.StringTok, { LABEL: "from" });
  });

  importName = this.RULE("importName", () => {
    this.CONSUME(T.Name, { LABEL: "name" });
    this.OPTION(() => {
      this.CONSUME(KW.as, { LABEL: "asKw" });
      this.CONSUME2(T.Name, { LABEL: "alias" });
    });
  });

  typeAlias = this.RULE("typeAlias", () => {
    this.CONSUME(KW.type, { LABEL: "kw" });
    this.CONSUME(T.Name, { LABEL: "name" });
    this.CONSUME(T.Eq, { LABEL: "eq" });
    this.SUBRULE(this.typeExpr, { LABEL: "type" });
  });

  graphDecl = this.RULE("graphDecl", () => {
    this.CONSUME(KW.graph, { LABEL: "kw" });
    this.CONSUME(T.Name, { LABEL: "name" });
    this.OPTION(() => {
      this.CONSUME(KW.implements, { LABEL: "implementsKw" });
      this.CONSUME2(T.Name, { LABEL: "implements" });
      this.MANY(() => {
        this.CONSUME(T.Comma, { LABEL: "comma" });
        this.CONSUME3(T.Name, { LABEL: "implements" });
      });
    });
    this.SUBRULE(this.graphBody, { LABEL: "body" });
  });

  /** `interface Name { input { … } output { … } state { … } }`: a graph's contract without its nodes */
  interfaceDecl = this.RULE("interfaceDecl", () => {
    this.CONSUME(KW.interface, { LABEL: "kw" });
    this.CONSUME(T.Name, { LABEL: "name" });
    this.CONSUME(T.LCurly, { LABEL: "open" });
    this.MANY(() => {
      this.OR(
        this.cached("orIface", () => ({
          DEF: [
            { ALT: () => this.SUBRULE(this.stateBlock, { LABEL: "state" }) },
            { ALT: () => this.SUBRULE(this.schemaBlock, { LABEL: "schema" }) },
          ],
          ERR_MSG: "an interface member (state, input or output)",
        })),
      );
      this.sep();
    });
    this.CONSUME(T.RCurly, { LABEL: "close" });
  });

  graphBody = this.RULE("graphBody", () => {
    this.CONSUME(T.LCurly, { LABEL: "open" });
    this.MANY({
      GATE: () => this.LA(1).tokenType !== T.RCurly || this.strayCloseAhead(),
      DEF: () => {
        this.OR(
          this.cached("orBody", () => [
            // reported by to-ast.ts (G1024) and skipped: the members after it stay in the graph
            { GATE: () => this.strayCloseAhead(), ALT: () => this.CONSUME2(T.RCurly, { LABEL: "stray" }) },
            { ALT: () => this.SUBRULE(this.graphMember, { LABEL: "member" }) },
          ]),
        );
        this.sep();
      },
    });
    this.CONSUME(T.RCurly, { LABEL: "close" });
  });

  /**
   * The next `}` cannot be a top-level graph's own close: the graph goes on after it (what follows is
   * neither the end of the file nor a top-level item's line), and it is on a later line indented deeper
   * than the `graph` line. A `{` went missing before it (`reception -> ⏎ cond => x ⏎ }`, `x: T = a: 1 }`):
   * closing the graph there made every later member "unexpected at the top level". A file without
   * errors never has one: only EOF or a top-level item follows a graph.
   */
  private strayCloseAhead(): boolean {
    const close = this.LA(1);
    const next = this.LA(2);
    if (close.tokenType !== T.RCurly || next.tokenType === EOF) return false;
    if (this.lineStarts.has(next) && TOP_KEYWORDS.has(next.tokenType)) return false;
    // the `{` this `}` would close, and the first tokens of its line and of the `}`'s
    let depth = 0;
    let k = 0;
    for (; ; k--) {
      const t = this.LA(k);
      if (t.tokenType === EOF || !Number.isFinite(t.startOffset)) return false;
      if (t.tokenType === T.RCurly) depth++;
      else if (t.tokenType === T.LCurly && depth-- === 0) break;
    }
    const openLine = this.lineStartBack(k);
    const closeLine = this.lineStarts.has(close) ? close : this.lineStartBack(0);
    if (openLine?.tokenType !== KW.graph || closeLine === undefined) return false;
    return closeLine.startLine! > openLine.startLine! && closeLine.startColumn! > openLine.startColumn!;
  }

  /** the first token of the line of token LA(k), k ≤ 0 */
  private lineStartBack(k: number): IToken | undefined {
    for (; ; k--) {
      const t = this.LA(k);
      if (t.tokenType === EOF || !Number.isFinite(t.startOffset)) return undefined;
      if (this.lineStarts.has(t)) return t;
    }
  }

  /**
   * Decided on the first token: a member keyword commits to its construct (so `node END() = f` reports
   * the bad name instead of "unexpected 'node'"), unless the keyword is a node name starting an edge
   * (`state -> x`, soft keywords are names too).
   */
  graphMember = this.RULE("graphMember", () => {
    this.OR(this.cached("or2", () => this.memberAlternatives()));
  });

  private memberAlternatives() {
    const notEdge = (): boolean => this.LA(2).tokenType !== T.Arrow;
    return {
      MAX_LOOKAHEAD: 1,
      IGNORE_AMBIGUITIES: true,
      DEF: [
        { GATE: notEdge, ALT: () => this.SUBRULE(this.stateBlock, { LABEL: "state" }) },
        { GATE: notEdge, ALT: () => this.SUBRULE(this.schemaBlock, { LABEL: "schema" }) },
        { GATE: notEdge, ALT: () => this.SUBRULE(this.privateBlock, { LABEL: "private" }) },
        { GATE: notEdge, ALT: () => this.SUBRULE(this.varsBlock, { LABEL: "vars" }) },
        { GATE: notEdge, ALT: () => this.SUBRULE(this.limitsBlock, { LABEL: "limits" }) },
        { GATE: notEdge, ALT: () => this.SUBRULE(this.metaBlock, { LABEL: "meta" }) },
        { GATE: notEdge, ALT: () => this.SUBRULE(this.interruptDecl, { LABEL: "interrupt" }) },
        { GATE: notEdge, ALT: () => this.SUBRULE(this.nodeDecl, { LABEL: "node" }) },
        { GATE: notEdge, ALT: () => this.SUBRULE(this.subgraphDecl, { LABEL: "subgraph" }) },
        { ALT: () => this.SUBRULE(this.edgeStmt, { LABEL: "edge" }) },
      ],
      ERR_MSG: "a graph member (state, input, output, private, vars, limits, meta, interrupt, node, subgraph or an edge)",
    };
  }

  // ------------------------------------------------------------ fields and schema blocks

  stateBlock = this.RULE("stateBlock", () => {
    this.CONSUME(KW.state, { LABEL: "kw" });
    this.SUBRULE(this.fieldBlock, { LABEL: "block" });
  });

  schemaBlock = this.RULE("schemaBlock", () => {
    this.OR(
      this.cached("or3", () => [
        { ALT: () => this.CONSUME(KW.input, { LABEL: "kw" }) },
        { ALT: () => this.CONSUME(KW.output, { LABEL: "kw" }) },
      ]),
    );
    this.SUBRULE(this.fieldBlock, { LABEL: "block" });
  });

  privateBlock = this.RULE("privateBlock", () => {
    this.CONSUME(KW.private, { LABEL: "kw" });
    this.CONSUME(T.Name, { LABEL: "name" });
    this.SUBRULE(this.fieldBlock, { LABEL: "block" });
  });

  varsBlock = this.RULE("varsBlock", () => {
    this.CONSUME(KW.vars, { LABEL: "kw" });
    this.SUBRULE(this.fieldBlock, { LABEL: "block" });
  });

  fieldBlock = this.RULE("fieldBlock", () => {
    this.CONSUME(T.LCurly, { LABEL: "open" });
    this.MANY({
      // a block whose `}` is missing ends before a line that starts a graph member (`node x(…)`,
      // `limits {`, `START -> a`): one "expected '}'" there, instead of every later line read as a field
      GATE: () => !this.memberLineAhead(),
      DEF: () => {
        this.SUBRULE(this.field, { LABEL: "field" });
        this.sep();
      },
    });
    this.CONSUME(T.RCurly, { LABEL: "close" });
  });

  /**
   * The next line starts a graph member, which no field or option can: an edge (`a ->`), or a member
   * keyword followed as a member's is (`node x(`, `limits {`), not as a field or option name (`node: T`,
   * `state = 1`, `state reduce r`, a name alone on its line).
   */
  private memberLineAhead(): boolean {
    const t = this.LA(1);
    if (!this.lineStarts.has(t)) return false;
    const after = this.LA(2);
    if (after.tokenType === T.Arrow) return true;
    return MEMBER_KEYWORDS.has(t.tokenType) && !this.lineStarts.has(after) && !NAME_FOLLOWERS.has(after.tokenType);
  }

  /**
   * What follows an array whose `]` is missing: a line that starts a field, option or entry (`name:`) or a
   * graph member, or a field's `reduce r` (`log: string[] = [ reduce append`).
   */
  private arrayEndAhead(): boolean {
    const t = this.LA(1);
    const after = this.LA(2);
    if (this.lineStarts.has(t)) return after.tokenType === T.Colon || this.memberLineAhead();
    return tokenMatcher(t, KW.reduce) && tokenMatcher(after, T.Name) && !this.lineStarts.has(after);
  }

  /** The next line declares a field: it starts a line and has a top-level `=` or a `reduce`/`ephemeral`. */
  private fieldLineAhead(): boolean {
    return this.lineHasOutsideBrackets(FIELD_MARKS);
  }

  /** The next token starts a line that has one of `types` outside brackets. */
  private lineHasOutsideBrackets(types: ReadonlySet<TokenType>): boolean {
    if (!this.lineStarts.has(this.LA(1))) return false;
    let depth = 0;
    for (let k = 1; ; k++) {
      const t = this.LA(k);
      if (t.tokenType === EOF || (k > 1 && this.lineStarts.has(t))) return false;
      if (opensGroup(t)) depth++;
      else if (t.tokenType === T.RCurly || t.tokenType === T.RBracket || t.tokenType === T.RParen) depth--;
      else if (depth === 0 && types.has(t.tokenType)) return true;
    }
  }

  /** A literal, array or object on the field's line where its `=` would be: a default without the `=`. */
  private bareDefaultAhead(): boolean {
    const t = this.LA(1);
    return !this.lineStarts.has(t) && BARE_DEFAULT_STARTS.has(t.tokenType);
  }

  field = this.RULE("field", () => {
    this.CONSUME(T.Name, { LABEL: "name" });
    this.OPTION(() => {
      this.CONSUME(T.Colon, { LABEL: "colon" });
      this.SUBRULE(this.typeExpr, { LABEL: "type" });
    });
    this.OPTION2({
      GATE: () => this.LA(1).tokenType === T.Eq || this.bareDefaultAhead(),
      DEF: () => {
        this.OR2(
          this.cached("orDefault", () => [
            {
              ALT: () => {
                this.CONSUME(T.Eq, { LABEL: "eq" });
                this.SUBRULE(this.expr, { LABEL: "default" });
              },
            },
            // a default without its `=` (`entities: Entities {}`): parsed, and reported as the missing `=`
            // (to-ast.ts), instead of the block closing there and its later fields read as edges
            { GATE: () => this.bareDefaultAhead(), ALT: () => this.SUBRULE2(this.expr, { LABEL: "bareDefault" }) },
          ]),
        );
      },
    });
    this.MANY(
      this.cached("many4", () => ({
        GATE: () => notFieldStart(this.LA(2)),
        DEF: () => {
          this.OR([
            {
              ALT: () => {
                this.CONSUME(KW.reduce, { LABEL: "reduceKw" });
                this.trailingName(100, "reducer");
              },
            },
            { ALT: () => this.CONSUME(KW.ephemeral, { LABEL: "ephemeral" }) },
          ]);
        },
      })),
    );
  });

  limitsBlock = this.RULE("limitsBlock", () => {
    this.CONSUME(KW.limits, { LABEL: "kw" });
    this.SUBRULE(this.optionBlock, { LABEL: "block" });
  });

  /** `meta { owner: "…", version: "1.2.0" }`: an option block; keys and values are checked by 3-check/meta.ts */
  metaBlock = this.RULE("metaBlock", () => {
    this.CONSUME(KW.meta, { LABEL: "kw" });
    this.SUBRULE(this.optionBlock, { LABEL: "block" });
  });

  interruptDecl = this.RULE("interruptDecl", () => {
    this.CONSUME(KW.interrupt, { LABEL: "kw" });
    this.OR(
      this.cached("or5", () => ({
        DEF: [
          { ALT: () => this.CONSUME(KW.before, { LABEL: "when" }) },
          { ALT: () => this.CONSUME(KW.after, { LABEL: "when" }) },
        ],
        ERR_MSG: "'before' or 'after'",
      })),
    );
    this.trailingName(101, "node");
    this.MANY(() => {
      this.CONSUME(T.Comma, { LABEL: "comma" });
      this.CONSUME2(T.Name, { LABEL: "node" });
    });
  });

  // ------------------------------------------------------------ nodes and options

  nodeDecl = this.RULE("nodeDecl", () => {
    this.CONSUME(KW.node, { LABEL: "kw" });
    this.CONSUME(T.Name, { LABEL: "name" });
    this.CONSUME(T.LParen, { LABEL: "open" });
    this.OPTION(() => this.SUBRULE(this.schemaRef, { LABEL: "reads" }));
    this.CONSUME(T.RParen, { LABEL: "close" });
    this.OPTION2(() => {
      this.CONSUME(T.Arrow, { LABEL: "arrow" });
      this.SUBRULE2(this.schemaRef, { LABEL: "writes" });
    });
    this.OPTION3(() => {
      this.CONSUME(KW.goto, { LABEL: "gotoKw" });
      this.SUBRULE(this.nameList, { LABEL: "goto" });
    });
    this.CONSUME(T.Eq, { LABEL: "eq" });
    this.trailingName(100, "impl");
    this.OPTION4(() => this.SUBRULE(this.optionBlock, { LABEL: "options" }));
    // an option block whose `{` is missing (`= impl` ⏎ `timeout 10s` ⏎ … `}`): read as the block (to-ast.ts
    // reports the `{`), instead of its lines as broken edges and its `}` as the graph's
    this.OPTION5({ GATE: () => this.lostOptionsAhead(), DEF: () => this.SUBRULE(this.lostOptions, { LABEL: "options" }) });
  });

  /** The entries and `}` of a node's option block whose `{` is missing: optionBlock's labels without `open`. */
  lostOptions = this.RULE("lostOptions", () => {
    this.lostBlock(() => this.SUBRULE(this.optionEntry, { LABEL: "entry" }), "close");
  });

  /**
   * The rest of a block whose `{` is missing (lostOptions, lostConditions): its items up to a member's line,
   * then its `}` (labelled `close`, as the whole block labels it).
   */
  private lostBlock(item: () => void, close: string): void {
    this.MANY({
      GATE: () => !this.memberLineAhead(),
      DEF: () => {
        item();
        this.sep();
      },
    });
    this.CONSUME(T.RCurly, { LABEL: close });
  }

  /**
   * After a node's `= impl` that ends its line, the next line is an option entry (`timeout 10s`,
   * `retry { … }`, `retry: 2`): a name that no member begins with, followed by what only an option's value is.
   */
  private lostOptionsAhead(): boolean {
    const t = this.LA(1);
    const after = this.LA(2);
    if (this.LA(-1).tokenType !== T.Eq || !this.lineStarts.has(t) || this.lineStarts.has(after)) return false;
    return tokenMatcher(t, T.Name) && !MEMBER_KEYWORDS.has(t.tokenType) && OPTION_VALUE_STARTS.has(after.tokenType);
  }

  schemaRef = this.RULE("schemaRef", () => {
    this.OR(
      this.cached("or6", () => ({
        DEF: [
          { ALT: () => this.CONSUME(T.Name, { LABEL: "schema" }) },
          {
            ALT: () => {
              this.CONSUME(T.LCurly, { LABEL: "open" });
              this.MANY(() => {
                this.CONSUME2(T.Name, { LABEL: "field" });
                this.sep();
              });
              this.CONSUME(T.RCurly, { LABEL: "close" });
            },
          },
        ],
        ERR_MSG: "a schema name or a field list '{ a, b }'",
      })),
    );
  });

  /** `[a, b, END]` */
  nameList = this.RULE("nameList", () => {
    this.CONSUME(T.LBracket, { LABEL: "open" });
    this.MANY(() => {
      this.CONSUME(T.EndpointName, { LABEL: "name" });
      this.sep();
    });
    this.CONSUME(T.RBracket, { LABEL: "close" });
  });

  optionBlock = this.RULE("optionBlock", () => {
    this.CONSUME(T.LCurly, { LABEL: "open" });
    this.MANY({
      // as in fieldBlock: a missing `}` ends the block before the next member's line
      GATE: () => !this.memberLineAhead(),
      DEF: () => {
        this.SUBRULE(this.optionEntry, { LABEL: "entry" });
        this.sep();
      },
    });
    this.CONSUME(T.RCurly, { LABEL: "close" });
  });

  /** `name`, `name value` (literal, duration, block or tuple) or `name: value` (any value) */
  optionEntry = this.RULE("optionEntry", () => {
    this.CONSUME(T.Name, { LABEL: "name" });
    this.OPTION(() => {
      this.OR(
        this.cached("or7", () => [
          {
            ALT: () => {
              this.CONSUME(T.Colon, { LABEL: "colon" });
              this.SUBRULE(this.optionValue, { LABEL: "value" });
            },
          },
          { ALT: () => this.SUBRULE2(this.bareOptionValue, { LABEL: "value" }) },
        ]),
      );
    });
  });

  optionValue = this.RULE("optionValue", () => {
    this.OR(
      this.cached("or8", () => ({
        IGNORE_AMBIGUITIES: true,
        DEF: [
          { ALT: () => this.CONSUME(T.Duration, { LABEL: "duration" }) },
          { ALT: () => this.SUBRULE(this.optionBlock, { LABEL: "block" }) },
          { ALT: () => this.SUBRULE(this.tuple, { LABEL: "tuple" }) },
          { ALT: () => this.SUBRULE(this.expr, { LABEL: "expr" }) },
        ],
        ERR_MSG: "an option value",
      })),
    );
  });

  bareOptionValue = this.RULE("bareOptionValue", () => {
    this.OR(
      this.cached("or9", () => [
        { ALT: () => this.CONSUME(T.Duration, { LABEL: "duration" }) },
        { ALT: () => this.SUBRULE(this.optionBlock, { LABEL: "block" }) },
        { ALT: () => this.SUBRULE(this.tuple, { LABEL: "tuple" }) },
        { ALT: () => this.SUBRULE(this.literal, { LABEL: "literal" }) },
      ]),
    );
  });

  tuple = this.RULE("tuple", () => {
    this.CONSUME(T.LParen, { LABEL: "open" });
    this.MANY(() => {
      this.CONSUME(T.Name, { LABEL: "item" });
      this.sep();
    });
    this.CONSUME(T.RParen, { LABEL: "close" });
  });

  // ------------------------------------------------------------ subgraphs

  subgraphDecl = this.RULE("subgraphDecl", () => {
    this.CONSUME(KW.subgraph, { LABEL: "kw" });
    this.CONSUME(T.Name, { LABEL: "name" });
    this.OR(
      this.cached("or10", () => ({
        DEF: [
          {
            ALT: () => {
              this.CONSUME(T.Eq, { LABEL: "eq" });
              this.OR2({
                DEF: [
                  {
                    ALT: () => {
                      this.CONSUME(KW.graph, { LABEL: "graphKw" });
                      this.SUBRULE(this.graphBody, { LABEL: "inline" });
                    },
                  },
                  { ALT: () => this.trailingName(100, "target") },
                ],
                ERR_MSG: "a graph name or 'graph { … }'",
              });
            },
          },
          {
            ALT: () => {
              this.CONSUME(KW.from, { LABEL: "fromKw" });
              this.CONSUME(T.StringTok, { LABEL: "path" });
              this.OPTION(() => {
                this.CONSUME(KW.as, { LABEL: "asKw" });
                this.CONSUME3(T.Name, { LABEL: "fileGraph" });
              });
            },
          },
          {
            // `subgraph query: QueryService [= OrdersQuery]`: a slot typed by an interface, with a default binding
            ALT: () => {
              this.CONSUME(T.Colon, { LABEL: "colon" });
              this.CONSUME4(T.Name, { LABEL: "iface" });
              this.OPTION4(() => {
                this.CONSUME2(T.Eq, { LABEL: "slotEq" });
                this.trailingName(102, "slotDefault");
              });
            },
          },
        ],
        ERR_MSG: "'=', ':' or 'from'",
      })),
    );
    // `goto [..]` after the target, as after a node's signature; `goto` then `[` (a node named `goto` starting
    // an edge on the next line, `goto -> x`, stays an edge)
    this.OPTION3({
      GATE: () => this.LA(2).tokenType === T.LBracket,
      DEF: () => {
        this.CONSUME(KW.goto, { LABEL: "gotoKw" });
        this.SUBRULE(this.nameList, { LABEL: "goto" });
      },
    });
    this.OPTION2(() => this.SUBRULE(this.subgraphBody, { LABEL: "body" }));
  });

  subgraphBody = this.RULE("subgraphBody", () => {
    this.CONSUME(T.LCurly, { LABEL: "open" });
    this.MANY({
      // a body whose `}` is missing ends before the next member's line
      GATE: () => !this.memberLineAhead(),
      DEF: () => {
        this.OR(
          this.cached("or11", () => [
            { ALT: () => this.SUBRULE(this.mapping, { LABEL: "mapping" }) },
            { ALT: () => this.SUBRULE(this.optionEntry, { LABEL: "option" }) },
          ]),
        );
        this.sep();
      },
    });
    this.CONSUME(T.RCurly, { LABEL: "close" });
  });

  /** `in { … }`, `in = fn`, `out { … }`, `out = fn` */
  mapping = this.RULE("mapping", () => {
    this.OR(
      this.cached("or12", () => [
        { ALT: () => this.CONSUME(KW.in, { LABEL: "dir" }) },
        { ALT: () => this.CONSUME(KW.out, { LABEL: "dir" }) },
      ]),
    );
    this.OR2(
      this.cached("or13", () => ({
        DEF: [
          {
            ALT: () => {
              this.CONSUME(T.Eq, { LABEL: "eq" });
              this.CONSUME(T.Name, { LABEL: "fn" });
            },
          },
          {
            ALT: () => {
              this.CONSUME(T.LCurly, { LABEL: "open" });
              this.MANY({
                // a mapping whose `}` is missing ends before a line no entry can start (`timeout 10s`, `out {`):
                // else it took the subgraph's `}` for its own, and the subgraph ran on into the next member
                GATE: () => !this.mappingEndAhead(),
                DEF: () => {
                  this.SUBRULE(this.mapEntry, { LABEL: "entry" });
                  this.sep();
                },
              });
              this.CONSUME(T.RCurly, { LABEL: "close" });
            },
          },
        ],
        ERR_MSG: "'{' or '='",
      })),
    );
  });

  /** The next line starts a top-level item: `graph X`, `type X =`, `interface X`, `import {`. */
  private topItemLineAhead(): boolean {
    const t = this.LA(1);
    if (!this.lineStarts.has(t) || !TOP_KEYWORDS.has(t.tokenType)) return false;
    const after = this.LA(2);
    return !this.lineStarts.has(after) && !NAME_FOLLOWERS.has(after.tokenType);
  }

  /** A line that no mapping entry (`child`, `child <- expr`, `child -> parent`) can start. */
  private mappingEndAhead(): boolean {
    const t = this.LA(1);
    if (!this.lineStarts.has(t) || t.tokenType === T.RCurly) return false;
    if (!tokenMatcher(t, T.Name)) return true;
    // a name alone on its line is an entry too
    const after = this.LA(2);
    return !MAPPING_CONTINUES.has(after.tokenType) && !this.lineStarts.has(after) && after.tokenType !== EOF;
  }

  mapEntry = this.RULE("mapEntry", () => {
    this.CONSUME(T.Name, { LABEL: "child" });
    this.OPTION(() => {
      this.OR(
        this.cached("or14", () => [
          {
            ALT: () => {
              this.CONSUME(T.LeftArrow, { LABEL: "leftArrow" });
              this.SUBRULE(this.expr, { LABEL: "expr" });
            },
          },
          {
            ALT: () => {
              this.CONSUME(T.Arrow, { LABEL: "arrow" });
              this.CONSUME2(T.Name, { LABEL: "parent" });
            },
          },
        ]),
      );
    });
  });

  // ------------------------------------------------------------ edges

  /** `-` or `>` between an endpoint and what follows an arrow on the same line: `->` with a character missing */
  private brokenArrowAhead(): boolean {
    const t = this.LA(1);
    const after = this.LA(2);
    return (
      (t.tokenType === T.Minus || t.tokenType === T.Gt) &&
      !this.lineStarts.has(t) &&
      !this.lineStarts.has(after) &&
      (tokenMatcher(after, T.EndpointName) || after.tokenType === T.LBracket || after.tokenType === T.LCurly)
    );
  }

  edgeStmt = this.RULE("edgeStmt", () => {
    this.SUBRULE(this.endpoints, { LABEL: "step" });
    this.AT_LEAST_ONE(
      this.cached("many15", () => ({
        GATE: () => this.LA(1).tokenType === T.Arrow || this.brokenArrowAhead(),
        DEF: () => {
          this.OR2(
            this.cached("orArrow", () => [
              { ALT: () => this.CONSUME(T.Arrow, { LABEL: "arrow" }) },
              // `a - b`, `a > { … }`: an arrow with a character missing, read as `->` (to-ast.ts reports it)
              { GATE: () => this.brokenArrowAhead(), ALT: () => this.CONSUME(T.Minus, { LABEL: "badArrow" }) },
              { GATE: () => this.brokenArrowAhead(), ALT: () => this.CONSUME(T.Gt, { LABEL: "badArrow" }) },
            ]),
          );
          this.OR3(
            this.cached("orLost", () => ({
              // the two are told apart by their GATEs alone, on the first token: the inner OR keeps its own lookahead
              MAX_LOOKAHEAD: 1,
              IGNORE_AMBIGUITIES: true,
              DEF: [
                // a condition block whose `{` is missing (`a ->` ⏎ `cond => x` ⏎ … `}`): read as the block
                { GATE: () => this.lostConditionsAhead(), ALT: () => this.SUBRULE(this.lostConditions, { LABEL: "branch" }) },
                { GATE: () => !this.lostConditionsAhead(), ALT: () => this.target() },
              ],
              ERR_MSG: TARGET,
            })),
          );
        },
        ERR_MSG: "'->'",
      })),
    );
  });

  /** what follows an arrow: a branch or the next endpoints */
  private target(): void {
    this.OR(
      this.cached("orTarget", () => ({
        DEF: [
          { ALT: () => this.SUBRULE(this.branch, { LABEL: "branch" }) },
          { ALT: () => this.SUBRULE2(this.endpoints, { LABEL: "step" }) },
        ],
        ERR_MSG: TARGET,
      })),
    );
  }

  endpoints = this.RULE("endpoints", () => {
    this.OR(
      this.cached("or16", () => ({
        DEF: [
          { ALT: () => this.trailingName(100, "name", T.EndpointName) },
          { ALT: () => this.SUBRULE(this.nameList, { LABEL: "list" }) },
        ],
        ERR_MSG: "a node name or '[…]'",
      })),
    );
  });

  branch = this.RULE("branch", () => {
    this.OR(
      this.cached("or17", () => [
        {
          ALT: () => {
            this.CONSUME(KW.route, { LABEL: "route" });
            this.CONSUME(T.LParen, { LABEL: "open" });
            this.CONSUME(T.Name, { LABEL: "fn" });
            this.CONSUME(T.RParen, { LABEL: "close" });
            this.OPTION(() => {
              this.CONSUME(T.LCurly, { LABEL: "casesOpen" });
              this.MANY({
                // cases whose `}` is missing end before the next member's line (`a -> b`)
                GATE: () => !this.memberLineAhead(),
                DEF: () => {
                  this.SUBRULE(this.routeCase, { LABEL: "routeCase" });
                  this.sep(1);
                },
              });
              this.CONSUME(T.RCurly, { LABEL: "casesClose" });
            });
          },
        },
        {
          ALT: () => {
            this.CONSUME(KW.send, { LABEL: "send" });
            this.CONSUME2(T.LParen, { LABEL: "open" });
            this.CONSUME2(T.Name, { LABEL: "fn" });
            this.CONSUME2(T.RParen, { LABEL: "close" });
          },
        },
        {
          ALT: () => {
            this.CONSUME2(T.LCurly, { LABEL: "condOpen" });
            this.MANY2({
              GATE: () => !this.memberLineAhead(),
              DEF: () => {
                this.SUBRULE(this.conditionCase, { LABEL: "condCase" });
                this.sep(2);
              },
            });
            this.CONSUME2(T.RCurly, { LABEL: "condClose" });
          },
        },
      ]),
    );
  });

  /**
   * The cases of a condition block whose `{` is missing, and its `}`: the labels of `branch`'s condition
   * block without `condOpen`, which to-ast.ts reports.
   */
  lostConditions = this.RULE("lostConditions", () => {
    this.lostBlock(() => this.SUBRULE(this.conditionCase, { LABEL: "condCase" }), "condClose");
  });

  /** After an arrow that ends its line, the next line is a condition case (it has a top-level `=>`). */
  private lostConditionsAhead(): boolean {
    return this.LA(0).tokenType === T.Arrow && this.lineHasOutsideBrackets(CASE_MARKS);
  }

  routeCase = this.RULE("routeCase", () => {
    this.OR(
      this.cached("or18", () => ({
        DEF: [
          { ALT: () => this.CONSUME(T.Name, { LABEL: "key" }) },
          { ALT: () => this.CONSUME(T.StringTok, { LABEL: "key" }) },
        ],
        ERR_MSG: "a route key (identifier or string)",
      })),
    );
    this.CONSUME(T.Colon, { LABEL: "colon" });
    this.SUBRULE(this.endpoints, { LABEL: "targets" });
  });

  conditionCase = this.RULE("conditionCase", () => {
    this.OR(
      this.cached("or19", () => ({
        DEF: [
          { ALT: () => this.CONSUME(T.Underscore, { LABEL: "default" }) },
          { ALT: () => this.SUBRULE(this.expr, { LABEL: "cond" }) },
        ],
        ERR_MSG: "a condition or '_'",
      })),
    );
    this.CONSUME(T.FatArrow, { LABEL: "arrow" });
    this.SUBRULE(this.endpoints, { LABEL: "targets" });
  });

  // ------------------------------------------------------------ types

  typeExpr = this.RULE("typeExpr", () => {
    this.OPTION(() => this.CONSUME(T.Pipe, { LABEL: "leadingPipe" }));
    this.SUBRULE(this.postfixType, { LABEL: "member" });
    this.MANY(() => {
      this.CONSUME2(T.Pipe, { LABEL: "pipe" });
      this.SUBRULE2(this.postfixType, { LABEL: "member" });
    });
  });

  postfixType = this.RULE("postfixType", () => {
    this.SUBRULE(this.primaryType, { LABEL: "base" });
    this.MANY(() => {
      this.OR(
        this.cached("or20", () => [
          {
            ALT: () => {
              this.CONSUME(T.LBracket, { LABEL: "suffix" });
              this.CONSUME(T.RBracket, { LABEL: "arrayClose" });
            },
          },
          { ALT: () => this.CONSUME(T.Question, { LABEL: "suffix" }) },
        ]),
      );
    });
  });

  primaryType = this.RULE("primaryType", () => {
    this.OR(
      this.cached("or21", () => ({
        DEF: [
          {
            ALT: () => {
              this.CONSUME(T.Name, { LABEL: "name" });
              this.OPTION(() => {
                this.CONSUME(T.Lt, { LABEL: "argsOpen" });
                this.SUBRULE(this.typeExpr, { LABEL: "arg" });
                this.MANY(() => {
                  this.CONSUME(T.Comma, { LABEL: "comma" });
                  this.SUBRULE2(this.typeExpr, { LABEL: "arg" });
                });
                this.CONSUME(T.Gt, { LABEL: "argsClose" });
              });
            },
          },
          { ALT: () => this.CONSUME(KW.null, { LABEL: "null" }) },
          { ALT: () => this.CONSUME(T.StringTok, { LABEL: "literal" }) },
          { ALT: () => this.CONSUME(T.NumberTok, { LABEL: "literal" }) },
          { ALT: () => this.CONSUME(KW.true, { LABEL: "literal" }) },
          { ALT: () => this.CONSUME(KW.false, { LABEL: "literal" }) },
          {
            ALT: () => {
              this.CONSUME(T.LCurly, { LABEL: "open" });
              this.MANY2({
                // an object type whose `}` is missing ends before the next top-level item's or member's line
                GATE: () => !this.topItemLineAhead() && !this.memberLineAhead(),
                DEF: () => {
                  this.SUBRULE(this.objectTypeMember, { LABEL: "objMember" });
                  this.sep();
                },
              });
              this.CONSUME(T.RCurly, { LABEL: "close" });
            },
          },
          {
            ALT: () => {
              this.CONSUME(T.LParen, { LABEL: "parenOpen" });
              this.SUBRULE3(this.typeExpr, { LABEL: "inner" });
              this.CONSUME(T.RParen, { LABEL: "parenClose" });
            },
          },
        ],
        ERR_MSG: "a type",
      })),
    );
  });

  objectTypeMember = this.RULE("objectTypeMember", () => {
    this.CONSUME(T.Name, { LABEL: "name" });
    this.OPTION(() => this.CONSUME(T.Question, { LABEL: "optional" }));
    this.CONSUME(T.Colon, { LABEL: "colon" });
    this.SUBRULE(this.typeExpr, { LABEL: "type" });
  });

  // ------------------------------------------------------------ expressions
  // precedence, loosest first: ||  &&  == !=  < <= > >= in  unary ! -  postfix . [i]

  expr = this.RULE("expr", () => {
    this.SUBRULE(this.andExpr, { LABEL: "operand" });
    this.MANY(() => {
      this.CONSUME(T.OrOr, { LABEL: "op" });
      this.SUBRULE2(this.andExpr, { LABEL: "operand" });
    });
  });

  andExpr = this.RULE("andExpr", () => {
    this.SUBRULE(this.eqExpr, { LABEL: "operand" });
    this.MANY(() => {
      this.CONSUME(T.AndAnd, { LABEL: "op" });
      this.SUBRULE2(this.eqExpr, { LABEL: "operand" });
    });
  });

  eqExpr = this.RULE("eqExpr", () => {
    this.SUBRULE(this.relExpr, { LABEL: "operand" });
    this.MANY(() => {
      this.OR(
        this.cached("or22", () => [
          { ALT: () => this.CONSUME(T.EqEq, { LABEL: "op" }) },
          { ALT: () => this.CONSUME(T.NotEq, { LABEL: "op" }) },
        ]),
      );
      this.SUBRULE2(this.relExpr, { LABEL: "operand" });
    });
  });

  relExpr = this.RULE("relExpr", () => {
    this.SUBRULE(this.unaryExpr, { LABEL: "operand" });
    this.MANY(() => {
      this.OR(
        this.cached("or23", () => [
          { ALT: () => this.CONSUME(T.Lt, { LABEL: "op" }) },
          { ALT: () => this.CONSUME(T.LtEq, { LABEL: "op" }) },
          { ALT: () => this.CONSUME(T.Gt, { LABEL: "op" }) },
          { ALT: () => this.CONSUME(T.GtEq, { LABEL: "op" }) },
          { ALT: () => this.CONSUME(KW.in, { LABEL: "op" }) },
        ]),
      );
      this.SUBRULE2(this.unaryExpr, { LABEL: "operand" });
    });
  });

  unaryExpr = this.RULE("unaryExpr", () => {
    this.OR(
      this.cached("or24", () => [
        {
          ALT: () => {
            this.OR2([
              { ALT: () => this.CONSUME(T.Bang, { LABEL: "op" }) },
              { ALT: () => this.CONSUME(T.Minus, { LABEL: "op" }) },
            ]);
            this.SUBRULE(this.unaryExpr, { LABEL: "operand" });
          },
        },
        { ALT: () => this.SUBRULE(this.postfixExpr, { LABEL: "postfix" }) },
      ]),
    );
  });

  postfixExpr = this.RULE("postfixExpr", () => {
    this.SUBRULE(this.primaryExpr, { LABEL: "base" });
    this.MANY(() => {
      this.OR(
        this.cached("or25", () => [
          {
            ALT: () => {
              this.CONSUME(T.Dot, { LABEL: "dot" });
              this.CONSUME(T.Name, { LABEL: "property" });
            },
          },
          {
            ALT: () => {
              this.CONSUME(T.LBracket, { LABEL: "indexOpen" });
              this.SUBRULE(this.expr, { LABEL: "index" });
              this.CONSUME(T.RBracket, { LABEL: "indexClose" });
            },
          },
        ]),
      );
    });
  });

  primaryExpr = this.RULE("primaryExpr", () => {
    this.OR(
      this.cached("or26", () => ({
        DEF: [
          { ALT: () => this.SUBRULE(this.literal, { LABEL: "literal" }) },
          {
            ALT: () => {
              this.CONSUME(T.LBracket, { LABEL: "arrayOpen" });
              this.MANY({
                // an array whose `]` is missing ends before what no item can be: one "expected ']'" there,
                // instead of each later line of the block read as an item
                GATE: () => !this.arrayEndAhead(),
                DEF: () => {
                  this.SUBRULE(this.expr, { LABEL: "item" });
                  this.sep(1);
                },
              });
              this.CONSUME(T.RBracket, { LABEL: "arrayClose" });
            },
          },
          {
            ALT: () => {
              this.CONSUME(T.LCurly, { LABEL: "objectOpen" });
              this.MANY2({
                // an object whose `}` is missing ends before a field's line (`name: T = v`, `… reduce r`) or a
                // member's: an entry's line (`key: value`) has neither a top-level `=` nor `reduce`
                GATE: () => !this.fieldLineAhead() && !this.memberLineAhead(),
                DEF: () => {
                  this.SUBRULE(this.objectEntry, { LABEL: "entry" });
                  this.sep(2);
                },
              });
              this.CONSUME(T.RCurly, { LABEL: "objectClose" });
            },
          },
          {
            ALT: () => {
              this.CONSUME(T.LParen, { LABEL: "parenOpen" });
              this.SUBRULE2(this.expr, { LABEL: "inner" });
              this.CONSUME(T.RParen, { LABEL: "parenClose" });
            },
          },
          {
            ALT: () => {
              this.CONSUME(T.Name, { LABEL: "name" });
              this.OPTION(() => {
                this.CONSUME2(T.LParen, { LABEL: "callOpen" });
                this.MANY3(() => {
                  this.SUBRULE3(this.expr, { LABEL: "arg" });
                  this.sep(3);
                });
                this.CONSUME2(T.RParen, { LABEL: "callClose" });
              });
            },
          },
        ],
        ERR_MSG: "an expression",
      })),
    );
  });

  literal = this.RULE("literal", () => {
    this.OR(
      this.cached("or27", () => [
        { ALT: () => this.CONSUME(T.StringTok, { LABEL: "value" }) },
        { ALT: () => this.CONSUME(T.NumberTok, { LABEL: "value" }) },
        { ALT: () => this.CONSUME(KW.true, { LABEL: "value" }) },
        { ALT: () => this.CONSUME(KW.false, { LABEL: "value" }) },
        { ALT: () => this.CONSUME(KW.null, { LABEL: "value" }) },
      ]),
    );
  });

  objectEntry = this.RULE("objectEntry", () => {
    this.OR(
      this.cached("or28", () => [
        { ALT: () => this.CONSUME(T.Name, { LABEL: "key" }) },
        { ALT: () => this.CONSUME(T.StringTok, { LABEL: "key" }) },
      ]),
    );
    this.CONSUME(T.Colon, { LABEL: "colon" });
    this.SUBRULE(this.expr, { LABEL: "value" });
  });
}

/** The single parser instance (grammar analysis runs once per process). */
export const parser = new GraphParser();

export type { CstNode, IToken, TokenType };
