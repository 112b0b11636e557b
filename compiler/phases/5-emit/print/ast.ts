/**
 * The syntax tree of the printer (print/parse.ts builds it, print/print-*.ts print it): one node shape
 * with the fields generated code needs, named after ESTree's where they mean the same.
 */
export interface Node {
  readonly type: string;
  readonly start: number;
  end: number;
  /** own-line comments before the node (in a statement, member or element list) */
  lead?: string[];
  /** own-line comments after the last node of a list, before its closing bracket */
  trail?: string[];
  /** written in parentheses */
  parens?: boolean;
  name?: string;
  op?: string;
  raw?: string;
  kind?: string;
  computed?: boolean;
  optional?: boolean;
  readonly?: boolean;
  isType?: boolean;
  shorthand?: boolean;
  left?: Node;
  right?: Node;
  test?: Node;
  cons?: Node;
  alt?: Node;
  body?: Node;
  arg?: Node;
  callee?: Node;
  object?: Node;
  property?: Node;
  key?: Node;
  value?: Node;
  id?: Node;
  init?: Node;
  ann?: Node;
  ret?: Node;
  source?: Node;
  decl?: Node;
  typeArgs?: Node[];
  params?: Node[];
  args?: Node[];
  elems?: Node[];
  props?: Node[];
  stmts?: Node[];
  cases?: Node[];
  decls?: Node[];
  types?: Node[];
  specs?: Node[];
  exprs?: Node[];
  quasis?: string[];
  /** a literal object or object type: a line break between `{` and its first member in the source */
  nlAfterBrace?: boolean;
}
