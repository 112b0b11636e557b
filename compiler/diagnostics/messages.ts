/**
 * Every compiler diagnostic (G2xxx–G9xxx), declared once. Syntax diagnostics (G1xxx) live in
 * grammar/parse-errors.ts. Call sites use the typed factories in `d`:
 *
 *     diags.push(d.edgeUnknownNode(ident.span, { name, graph, suggestions }, related));
 *
 * Codes are stable: never renumber or reuse one; retire a code by leaving a gap. `doc` is the explanation
 * printed in docs/diagnostics.md (a test keeps that file in sync with this table).
 */
import type { Diagnostic, RelatedLocation } from "../../grammar/diagnostic.ts";
import type { Span } from "../../grammar/span.ts";
import type { Candidate } from "./did-you-mean.ts";

export type Severity = "error" | "warning";

export interface MessageDef<A> {
  readonly code: string;
  readonly slug: string;
  readonly severity: Severity;
  readonly message: (a: A) => string;
  /** text under the carets */
  readonly label?: (a: A) => string;
  /** the `= help:` line */
  readonly hint?: (a: A) => string | undefined;
  /** explanation for docs/diagnostics.md */
  readonly doc: string;
}

const def = <A>(m: MessageDef<A>): MessageDef<A> => m;

/** `file:line:col` */
export function where(span: Span): string {
  return `${span.file}:${span.start.line}:${span.start.column}`;
}

/** "did you mean `x`? (declared at f:1:2)" or undefined when there is nothing to suggest */
export function didYouMean(suggestions: readonly Candidate[] | undefined): string | undefined {
  const first = suggestions?.[0];
  if (first === undefined) return undefined;
  const names = suggestions!.map((s) => `\`${s.name}\``).join(" or ");
  return (
    `did you mean ${names}?` + (first.span && suggestions!.length === 1 ? ` (declared at ${where(first.span)})` : "")
  );
}

const list = (names: readonly string[]): string => names.map((n) => `\`${n}\``).join(", ");

const a_label = "not declared in this file or imported from a `.graph` file";

type Named = { name: string };
type InGraph = { name: string; graph: string };
type Suggested = { suggestions?: readonly Candidate[] | undefined };

export const MESSAGES = {
  // ------------------------------------------------------------ G2xxx names and imports
  duplicateGraph: def<Named>({
    code: "G2001",
    slug: "duplicate-graph",
    severity: "error",
    message: (a) => `graph \`${a.name}\` is declared more than once`,
    label: () => "declared again here",
    hint: () => "rename one of the graphs (or its import with `as`)",
    doc: "Two graphs of one file (or a graph and an imported graph) share a name. Every top-level name of a file is exported, so it must be unique.",
  }),
  duplicateType: def<Named>({
    code: "G2002",
    slug: "duplicate-type",
    severity: "error",
    message: (a) => `type \`${a.name}\` is declared more than once`,
    label: () => "declared again here",
    hint: () => "rename one of the types (or its import with `as`)",
    doc: "Two `type` aliases (or an alias and an imported type) share a name.",
  }),
  edgeUnknownNode: def<InGraph & Suggested>({
    code: "G2003",
    slug: "edge-unknown-node",
    severity: "error",
    message: (a) => `unknown node \`${a.name}\` in edge`,
    label: (a) => `not declared in graph \`${a.graph}\``,
    hint: (a) => didYouMean(a.suggestions) ?? "declare it with `node` or `subgraph`, or use START / END",
    doc: "An edge names a node that the graph does not declare.",
  }),
  duplicateField: def<{ name: string; block: string } & Suggested>({
    code: "G2004",
    slug: "duplicate-field",
    severity: "error",
    message: (a) => `\`${a.name}\` is declared twice in ${a.block}`,
    label: () => "declared again here",
    hint: () => "remove or rename one of them",
    doc: "A block (`state`, `input`, `output`, a `private` schema, `vars`, a node's read or write list, a mapping) names the same field twice.",
  }),
  duplicateNode: def<InGraph>({
    code: "G2005",
    slug: "duplicate-node",
    severity: "error",
    message: (a) => `node \`${a.name}\` is declared more than once in graph \`${a.graph}\``,
    label: () => "declared again here",
    hint: () => "node and subgraph names share one namespace; rename one of them",
    doc: "Two `node` or `subgraph` declarations of one graph share a name.",
  }),
  unknownField: def<{ name: string; graph: string; context: string } & Suggested>({
    code: "G2006",
    slug: "unknown-field",
    severity: "error",
    message: (a) => `unknown field \`${a.name}\` in ${a.context}`,
    label: (a) => `not a field of graph \`${a.graph}\``,
    hint: (a) => didYouMean(a.suggestions) ?? "declare it in `state` (or in a `private` schema)",
    doc: "A node's reads or writes, an `input`/`output` list, a subgraph mapping or an inline condition names a field the graph does not have.",
  }),
  unknownType: def<Named & Suggested>({
    code: "G2007",
    slug: "unknown-type",
    severity: "error",
    message: (a) => `unknown type \`${a.name}\``,
    label: () => "not a built-in type, a `type` alias or an imported type",
    hint: (a) =>
      didYouMean(a.suggestions) ??
      `declare it with \`type ${a.name} = …\` or import it: \`import type { ${a.name} } from "…"\``,
    doc: "A type names neither a built-in type (`string number boolean null unknown Record`), nor a `type` alias, nor an imported type.",
  }),
  unknownFunction: def<{ name: string; role: string } & Suggested>({
    code: "G2008",
    slug: "unknown-function",
    severity: "error",
    message: (a) => `\`${a.name}\` is not imported (used as ${a.role})`,
    label: () => "no import of this name",
    hint: (a) => didYouMean(a.suggestions) ?? `import it: \`import { ${a.name} } from "./….ts"\``,
    doc: "A node implementation, router, `send` function or mapping transform must be a TS value imported at the top of the file.",
  }),
  unknownReducer: def<Named & Suggested & { builtins: string }>({
    code: "G2009",
    slug: "unknown-reducer",
    severity: "error",
    message: (a) => `unknown reducer \`${a.name}\``,
    label: () => "not a built-in reducer or an imported function",
    hint: (a) =>
      didYouMean(a.suggestions) ??
      `built-in reducers: ${a.builtins}; a custom reducer is an imported TS function`,
    doc: "`reduce R` names neither a built-in reducer nor an imported TS function.",
  }),
  unknownGraph: def<Named & Suggested & { note?: string }>({
    code: "G2010",
    slug: "unknown-graph",
    severity: "error",
    message: (a) => `unknown graph \`${a.name}\``,
    label: () => a_label,
    hint: (a) => a.note ?? didYouMean(a.suggestions) ?? `import it: \`import { ${a.name} } from "./….graph"\``,
    doc: "A subgraph names a graph that is neither declared in the file nor imported from a `.graph` file.",
  }),
  graphNotExported: def<{ name: string; file: string; available: readonly string[] } & Suggested>({
    code: "G2011",
    slug: "graph-not-exported",
    severity: "error",
    message: (a) => `\`${a.file}\` has no graph \`${a.name}\``,
    label: () => "not found in that file",
    hint: (a) =>
      didYouMean(a.suggestions) ??
      (a.available.length ? `it declares ${list(a.available)}` : "that file declares no graph"),
    doc: 'An `import { G } from "x.graph"` (or `subgraph … from "x.graph" as G`) names a graph the file does not declare.',
  }),
  reservedName: def<{ name: string; what: string }>({
    code: "G2012",
    slug: "reserved-name",
    severity: "error",
    message: (a) => `\`${a.name}\` is reserved and cannot name a ${a.what}`,
    label: () => "reserved name",
    hint: (a) =>
      a.name === "START" || a.name === "END"
        ? "START and END are the graph's entry and exit; pick another name"
        : "this name would break a JS object (prototype pollution); pick another name",
    doc: "`START` and `END` cannot name a node or field; `__proto__`, `constructor` and `prototype` cannot name a field, node, variable or mapped field, because they break plain JS objects.",
  }),
  nodeNameIsField: def<Named>({
    code: "G2013",
    slug: "node-name-is-field",
    severity: "error",
    message: (a) => `node \`${a.name}\` has the same name as a state field`,
    label: () => "also a field",
    hint: (a) =>
      `rename the node (e.g. \`${a.name}_node\`) or the field; LangGraph rejects a node named like a channel`,
    doc: "LangGraph forbids a node whose name is also a channel (field) name; graphc reports it at compile time.",
  }),
  duplicateImport: def<Named>({
    code: "G2014",
    slug: "duplicate-import",
    severity: "error",
    message: (a) => `\`${a.name}\` is imported more than once`,
    label: () => "imported again here",
    hint: () => "remove one import, or rename it with `as`",
    doc: "Two imports bind the same local name.",
  }),
  unknownSchema: def<{ name: string; graph: string; available: readonly string[] } & Suggested>({
    code: "G2015",
    slug: "unknown-schema",
    severity: "error",
    message: (a) => `unknown schema \`${a.name}\``,
    label: (a) => `not a schema of graph \`${a.graph}\``,
    hint: (a) => didYouMean(a.suggestions) ?? `schemas of this graph: ${list(a.available)}`,
    doc: "A node reads or writes a schema name that is not `State`, `Input`, `Output` or one of the graph's `private` schemas.",
  }),
  duplicateSchema: def<Named>({
    code: "G2016",
    slug: "duplicate-schema",
    severity: "error",
    message: (a) => `schema \`${a.name}\` is declared more than once`,
    label: () => "declared again here",
    hint: (a) =>
      ["State", "Input", "Output"].includes(a.name)
        ? "`State`, `Input` and `Output` name the graph's own blocks; rename the private schema"
        : "merge the two blocks or rename one",
    doc: "Two `private` schemas share a name, a private schema is named `State`/`Input`/`Output`, or a graph has two `state`, `input` or `output` blocks.",
  }),
  gotoUnknownNode: def<InGraph & Suggested>({
    code: "G2017",
    slug: "goto-unknown-node",
    severity: "error",
    message: (a) => `unknown node \`${a.name}\` in \`goto\``,
    label: (a) => `not declared in graph \`${a.graph}\``,
    hint: (a) => didYouMean(a.suggestions) ?? "a goto target is a node of this graph or END",
    doc: "A node's (or subgraph node's) `goto [...]` list names a node that does not exist. (LangGraph only fails at run time, when the Command is returned.)",
  }),
  routeUnknownNode: def<InGraph & { key?: string | undefined } & Suggested>({
    code: "G2018",
    slug: "route-unknown-node",
    severity: "error",
    message: (a) =>
      a.key === undefined
        ? `condition branch leads to unknown node \`${a.name}\``
        : `router key \`${a.key}\` maps to unknown node \`${a.name}\``,
    label: (a) => `not declared in graph \`${a.graph}\``,
    hint: (a) => didYouMean(a.suggestions) ?? "a branch target is a node of this graph or END",
    doc: "A `route(fn) { key: target }` case or an inline condition (`cond => target`) targets a node that does not exist.",
  }),
  interruptUnknownNode: def<InGraph & Suggested>({
    code: "G2019",
    slug: "interrupt-unknown-node",
    severity: "error",
    message: (a) => `unknown node \`${a.name}\` in \`interrupt\``,
    label: (a) => `not declared in graph \`${a.graph}\``,
    hint: (a) => didYouMean(a.suggestions) ?? "`interrupt before|after` takes node names (not START or END)",
    doc: "`interrupt before|after` names a node that does not exist, or START/END.",
  }),
  importKindMismatch: def<{ name: string; expected: string; actual: string }>({
    code: "G2020",
    slug: "import-kind-mismatch",
    severity: "error",
    message: (a) => `\`${a.name}\` is ${a.actual}, not ${a.expected}`,
    label: () => "wrong kind of import",
    hint: (a) =>
      a.expected === "a graph"
        ? 'graphs come from `.graph` files: `import { G } from "./g.graph"`'
        : a.expected === "a type"
          ? 'import types with `import type { T } from "…"`'
          : 'import TS values with `import { f } from "./f.ts"` (not `import type`, not a `.graph` file)',
    doc: "An imported name is used as the wrong kind of thing: a type-only import as a node function, a graph as a type, a TS value as a subgraph target.",
  }),
  graphFileNoGraph: def<{ file: string; available: readonly string[] }>({
    code: "G2021",
    slug: "ambiguous-graph-file",
    severity: "error",
    message: (a) =>
      a.available.length === 0 ? `\`${a.file}\` declares no graph` : `\`${a.file}\` declares several graphs`,
    label: () => "which graph?",
    hint: (a) =>
      a.available.length === 0
        ? "a subgraph file must declare a graph"
        : `name one with \`as\`: ${a.available.map((g) => `\`from "${a.file}" as ${g}\``).join(" or ")}`,
    doc: '`subgraph x from "file.graph"` without `as G` needs a file with exactly one graph.',
  }),
  // G2022–G2029 left free for other name rules
  pathOutsideProject: def<{ path: string; root: string; explicit: boolean; entry?: boolean }>({
    code: "G2030",
    slug: "path-outside-project",
    severity: "error",
    message: (a) => `\`${a.path}\` is outside the project root, so graphc does not read it`,
    label: (a) => (a.entry ? "this file is outside the root" : `resolves outside ${a.root}`),
    hint: (a) =>
      a.explicit
        ? `graphc reads .graph files only inside ${a.root} (the root given with \`--root\`); move the file there, or give a wider root`
        : `graphc reads .graph files only inside the project root (the nearest folder above each entry file that holds a package.json or tsconfig.json, else the file's own folder); move the file into the project, or choose the root with \`--root DIR\` (\`root\` in the API)`,
    doc: "A `.graph` import or `subgraph … from` path (or an entry file, with an explicit root) resolves outside the project root: an absolute path elsewhere, `../` segments that climb out, or a symlink whose real path leaves the root. The file is never read and its contents never printed. See [cli.md](cli.md#project-root).",
  }),

  // ------------------------------------------------------------ G3xxx types, state, reducers, schemas
  defaultTypeMismatch: def<{ name: string; expected: string; actual: string }>({
    code: "G3001",
    slug: "default-type-mismatch",
    severity: "error",
    message: (a) => `default of \`${a.name}\` does not fit its type \`${a.expected}\``,
    label: (a) => `this is ${a.actual}`,
    hint: (a) => `give a default of type \`${a.expected}\`, or change the field's type`,
    doc: "A field's `= default` is not assignable to its declared type.",
  }),
  reducerTypeMismatch: def<{ name: string; reducer: string; type: string; needs: string; hint: string }>({
    code: "G3002",
    slug: "reducer-type-mismatch",
    severity: "error",
    message: (a) => `reducer \`${a.reducer}\` does not fit field \`${a.name}: ${a.type}\``,
    label: (a) => `\`${a.reducer}\` needs ${a.needs}`,
    // the reducer registry's hint (compiler/phases/reducers.ts)
    hint: (a) => a.hint,
    doc: "A built-in reducer is used on a field whose type it cannot combine: `sum` needs `number`, `append`/`union` need an array, `messages` needs an array, `merge` needs an object or Record.",
  }),
  reducerConflict: def<{ name: string; first: string; second: string }>({
    code: "G3003",
    slug: "reducer-conflict",
    severity: "error",
    message: (a) => `field \`${a.name}\` has conflicting reducers \`${a.first}\` and \`${a.second}\``,
    label: () => "conflicts with the first declaration",
    hint: () => "declare the reducer once (in `state`); other blocks only list the field",
    doc: 'One field gets different reducers in `state`, `input`, `output` or a `private` schema (LangGraph: `Channel "k" already exists with a different type`).',
  }),
  privateShadowsState: def<{ name: string; schema: string }>({
    code: "G3004",
    slug: "private-shadows-state",
    severity: "warning",
    message: (a) => `private field \`${a.name}\` in \`${a.schema}\` has the same name as a state field`,
    label: () => "shadows the state field",
    hint: () =>
      "both names refer to one channel; rename the private field, or list it without a type to reuse the state field",
    doc: "A `private` schema declares (with a type) a field that `state` also declares. They are one channel at run time, so the private field is not private.",
  }),
  schemaFieldNotInState: def<{ name: string; block: string }>({
    code: "G3005",
    slug: "schema-field-not-in-state",
    severity: "warning",
    message: (a) => `${a.block} field \`${a.name}\` is not in \`state\``,
    label: () => "declared only here",
    hint: () => "move the declaration into `state` and list it here by name (input/output should be subsets of state)",
    doc: "`input { x: T }` / `output { x: T }` may declare a field that `state` lacks; it works (a channel is created) but input and output are meant to be subsets of state.",
  }),
  fieldNeedsType: def<Named>({
    code: "G3006",
    slug: "field-needs-type",
    severity: "error",
    message: (a) => `field \`${a.name}\` has no type`,
    label: () => "needs `: Type`",
    hint: (a) => `write \`${a.name}: string\` (or the field's type)`,
    doc: "A field declared in `state` or a `private` schema (or a variable) needs a type; only `input`/`output` entries referring to existing fields may omit it.",
  }),
  fieldTypeConflict: def<{ name: string; first: string; second: string }>({
    code: "G3007",
    slug: "field-type-conflict",
    severity: "error",
    message: (a) => `field \`${a.name}\` is declared with two different types, \`${a.first}\` and \`${a.second}\``,
    label: () => "conflicts with the first declaration",
    hint: () => "declare the type once (in `state`) and list the field by name elsewhere",
    doc: "The same field is given different types in two schema blocks.",
  }),
  conditionTypeMismatch: def<{ op: string; left: string; right: string }>({
    code: "G3008",
    slug: "condition-type-mismatch",
    severity: "error",
    message: (a) => `\`${a.op}\` compares \`${a.left}\` with \`${a.right}\`, which never match`,
    label: () => "these types have no value in common",
    hint: (a) => `compare with a value of type \`${a.left}\``,
    doc: "An inline condition compares values of types with no common value (e.g. a string-literal union with a number), so the comparison is constant.",
  }),
  conditionConstant: def<{ op: string; left: string; right: string; always: "true" | "false"; why: string }>({
    code: "G3050",
    slug: "condition-constant",
    severity: "warning",
    message: (a) => `\`${a.left} ${a.op} ${a.right}\` is always ${a.always}`,
    label: (a) => a.why,
    hint: () => "compare with a value the field can hold, or drop the case (a router would always or never take it)",
    doc: "An inline condition's `==`/`!=` can only ever give one answer: two literals, or a null test of a field that is always set (it has a default or a built-in reducer's empty value, is not ephemeral, and its type has no `null`).",
  }),
  conditionNotBoolean: def<{ type: string }>({
    code: "G3009",
    slug: "condition-not-boolean",
    severity: "error",
    message: (a) => `condition has type \`${a.type}\`, not \`boolean\``,
    label: () => "not a boolean",
    hint: () => 'write a comparison, e.g. `x != null`, `len(x) > 0` or `x == "value"`',
    doc: "An inline condition (or an operand of `&&`, `||`, `!`) is not a boolean. graphc does not use JS truthiness.",
  }),
  conditionBadOperand: def<{ op: string; type: string; needs: string }>({
    code: "G3010",
    slug: "condition-bad-operand",
    severity: "error",
    message: (a) => `\`${a.op}\` cannot be applied to \`${a.type}\``,
    label: (a) => `needs ${a.needs}`,
    hint: () => "the condition language has == != < <= > >= && || ! in, `.` paths, `[i]` indexing and len(x)",
    doc: "An operator, index, `len()` or `in` is applied to a value of the wrong type, or an unknown function is called.",
  }),
  unknownProperty: def<{ name: string; type: string } & Suggested>({
    code: "G3011",
    slug: "unknown-property",
    severity: "error",
    message: (a) => `\`${a.type}\` has no property \`${a.name}\``,
    label: () => "unknown property",
    hint: (a) => didYouMean(a.suggestions) ?? "check the field's type",
    doc: "A `.path` in an inline condition or mapping names a property the object type lacks.",
  }),
  recursiveType: def<{ cycle: readonly string[] }>({
    code: "G3012",
    slug: "recursive-type",
    severity: "error",
    message: (a) => `type alias cycle: ${a.cycle.join(" -> ")}`,
    label: () => "refers to itself",
    hint: () => "graphc's types are not recursive; use an imported TS type for recursive data",
    doc: "A `type` alias refers to itself (directly or through other aliases).",
  }),
  badTypeArguments: def<{ name: string; expected: string }>({
    code: "G3013",
    slug: "bad-type-arguments",
    severity: "error",
    message: (a) => `wrong type arguments for \`${a.name}\``,
    label: (a) => `expected ${a.expected}`,
    hint: (a) => `write ${a.expected}`,
    doc: "`Record` takes exactly `<string, T>`; built-in types and aliases take no type arguments.",
  }),
  typeTooDeep: def<{ max: number }>({
    code: "G3014",
    slug: "type-too-deep",
    severity: "error",
    message: (a) => `type nests deeper than ${a.max} levels once its aliases are expanded`,
    label: () => "the limit is crossed here",
    hint: () => "flatten the chain of aliases, or use an imported TS type for deeply nested data",
    doc: "Expanding `type` aliases gives a type more than 256 levels deep (each alias passed through counts as a level): see the Limits section of docs/language.md. The type is treated as `unknown`.",
  }),
  objectPrototypeName: def<{ name: string; what: string }>({
    code: "G3020",
    slug: "object-prototype-name",
    severity: "error",
    message: (a) => `\`${a.name}\` is an \`Object.prototype\` member and cannot name a ${a.what}`,
    label: () => "every JS object already has this key",
    hint: (a) => `rename it (e.g. \`${a.name}_\` or a more specific name): generated code and the runtime keep ${a.what}s as keys of plain objects, where \`${a.name}\` reads the inherited \`Object.prototype.${a.name}\``,
    doc: "A field, variable or node is named like a member every plain JS object inherits (`toString`, `valueOf`, `hasOwnProperty`, `isPrototypeOf`, `propertyIsEnumerable`, `toLocaleString`, `__defineGetter__`, `__defineSetter__`, `__lookupGetter__`, `__lookupSetter__`): state, vars and checkpoint tables are plain objects, so `\"toString\" in state` would hold before the field is ever written and an unset field would read a function. (`__proto__` and `constructor` are G2012.)",
  }),

  // ------------------------------------------------------------ G4xxx graph structure
  noEntry: def<{ graph: string }>({
    code: "G4001",
    slug: "no-entry",
    severity: "error",
    message: (a) => `graph \`${a.graph}\` has no edge from START`,
    label: () => "no entry point",
    hint: () => "add `START -> first_node`",
    doc: 'A graph needs at least one edge out of START (LangGraph: "Graph must have an entrypoint").',
  }),
  edgeFromEnd: def<Record<string, never>>({
    code: "G4002",
    slug: "edge-from-end",
    severity: "error",
    message: () => "an edge cannot start at END",
    label: () => "END has no successors",
    hint: () => "END finishes the run; point the edge from a node instead",
    doc: "`END -> x` (or a branch from END) is meaningless.",
  }),
  edgeToStart: def<Record<string, never>>({
    code: "G4003",
    slug: "edge-to-start",
    severity: "error",
    message: () => "an edge cannot lead to START",
    label: () => "START has no predecessors",
    hint: () => "to loop back to the first node, name that node instead of START",
    doc: "`x -> START` (also as a branch or goto target) is meaningless.",
  }),
  unreachableNode: def<InGraph>({
    code: "G4004",
    slug: "unreachable-node",
    severity: "error",
    message: (a) => `node \`${a.name}\` is unreachable from START`,
    label: () => "no path leads here",
    hint: (a) => `add an edge into \`${a.name}\` (e.g. \`START -> ${a.name}\`), or remove the node`,
    doc: "No chain of edges, branches, gotos or `send` fan-outs leads from START to the node, so it never runs.",
  }),
  cannotReachEnd: def<InGraph>({
    code: "G4005",
    slug: "cannot-reach-end",
    severity: "warning",
    message: (a) => `node \`${a.name}\` can never reach END`,
    label: () => "every path from here loops or stops without END",
    hint: (a) => `add a way out, e.g. \`${a.name} -> END\` or a branch to END`,
    doc: "No path leads from the node to END: the run either stops at a dead end or loops until the recursion limit.",
  }),
  duplicateEdge: def<{ from: string; to: string }>({
    code: "G4006",
    slug: "duplicate-edge",
    severity: "warning",
    message: (a) => `edge \`${a.from} -> ${a.to}\` is declared twice`,
    label: () => "declared again here",
    hint: () => "remove the repeated edge",
    doc: "The same static edge appears twice (it has no extra effect).",
  }),
  joinSourceNoEdge: def<{ name: string; target: string }>({
    code: "G4007",
    slug: "join-source-no-edge",
    severity: "error",
    message: (a) => `waiting edge into \`${a.target}\` waits for \`${a.name}\`, which nothing can run`,
    label: () => "no edge leads into this node",
    hint: (a) => `add an edge into \`${a.name}\`, or remove it from the list; otherwise \`${a.target}\` never runs`,
    doc: "A waiting join `[a, b] -> c` names a node with no incoming edge, branch or goto, so the join never fires.",
  }),
  conditionsNoDefault: def<Record<string, never>>({
    code: "G4008",
    slug: "conditions-no-default",
    severity: "warning",
    message: () => "conditional block has no default branch",
    label: () => "no `_ =>` case",
    hint: () => "add `_ => END` (or another target); when no condition holds the run stops here",
    doc: "When no condition of a `{ cond => target }` block holds and there is no `_` case, the node routes nowhere.",
  }),
  readBeforeWrite: def<{ name: string; node: string }>({
    code: "G4009",
    slug: "read-before-write",
    severity: "warning",
    message: (a) => `node \`${a.node}\` reads \`${a.name}\`, which nothing can have written before it runs`,
    label: () => "may still be unset here",
    hint: (a) => `give \`${a.name}\` a default, add it to \`input\`, or let an earlier node write it`,
    doc: "The field has no default or built-in reducer, is not an input field, and no node on any path from START writes it before this node.",
  }),
  duplicateRouteKey: def<{ key: string }>({
    code: "G4010",
    slug: "duplicate-route-key",
    severity: "error",
    message: (a) => `router key \`${a.key}\` appears twice`,
    label: () => "repeated key",
    hint: () => "each key maps to one target list; merge the two cases",
    doc: "A `route(fn) { … }` block maps the same key twice.",
  }),
  unreachableCase: def<Record<string, never>>({
    code: "G4011",
    slug: "unreachable-case",
    severity: "warning",
    message: () => "case after the default branch can never be taken",
    label: () => "unreachable",
    hint: () => "move `_ =>` to the end (the first matching case wins)",
    doc: "Conditions are tried in order and `_` always matches, so cases after it (or a second `_`) are dead.",
  }),
  sendNoTarget: def<{ graph: string }>({
    code: "G4012",
    slug: "send-no-target",
    severity: "error",
    message: (a) => `\`send\` in graph \`${a.graph}\` has no node to send to`,
    label: () => "no possible target",
    hint: () => "a Send target is a node of this graph; declare the worker node",
    doc: "A `send(fn)` branch cannot name its targets statically (the function builds Send packets; TypeScript checks their node names in the generated code). graphc checks that the graph has a node other than the sender that a Send could target.",
  }),
  gotoStart: def<Record<string, never>>({
    code: "G4013",
    slug: "goto-start",
    severity: "error",
    message: () => "`goto` cannot target START",
    label: () => "not a node",
    hint: () => "name the first node instead",
    doc: "A node's `goto` list contains START.",
  }),

  outputNeverWritten: def<{ name: string; graph: string }>({
    code: "G4014",
    slug: "output-never-written",
    severity: "warning",
    message: (a) => `output field \`${a.name}\` of graph \`${a.graph}\` is never written`,
    label: () => "nothing returns it",
    hint: (a) => `let a node write \`${a.name}\`, give it a default, or remove it from \`output\``,
    doc: "An output field has no default and no built-in reducer, is not an input field, and no node or subgraph writes it: the result (or, for a subgraph, what flows back to the parent) never contains it.",
  }),

  // G4015–G4019 left free for other structure rules
  fileDeclaresNothing: def<{ file: string; empty: boolean }>({
    code: "G4020",
    slug: "file-declares-nothing",
    severity: "warning",
    message: (a) => (a.empty ? `\`${a.file}\` is empty` : `\`${a.file}\` declares no graph and no type`),
    label: () => "nothing here is compiled",
    hint: () => "declare a `graph` (or a `type` other files import), or delete the file",
    doc: "A `.graph` file declares neither a graph nor a type alias: it is empty, holds only comments, or only imports. Its generated module would export nothing. A file of only `type` aliases is a type library and is not reported.",
  }),

  // ------------------------------------------------------------ G5xxx subgraphs
  mappingTypeMismatch: def<{ child: string; graph: string; from: string; to: string; direction: "in" | "out" }>({
    code: "G5001",
    slug: "mapping-type-mismatch",
    severity: "error",
    message: (a) =>
      a.direction === "in"
        ? `\`${a.from}\` is not assignable to \`${a.child}: ${a.to}\` of graph \`${a.graph}\``
        : `\`${a.child}: ${a.from}\` of graph \`${a.graph}\` is not assignable to \`${a.to}\``,
    label: (a) => `\`${a.from}\` does not fit \`${a.to}\``,
    hint: () => "map a field of a compatible type, or convert it with a TS transform (`in = fn` / `out = fn`)",
    doc: "A subgraph mapping (explicit or same-name) moves a value into a field of an incompatible type, across files included.",
  }),
  childInputUnsupplied: def<{ name: string; graph: string; node: string }>({
    code: "G5002",
    slug: "child-input-unsupplied",
    severity: "warning",
    message: (a) => `input field \`${a.name}\` of graph \`${a.graph}\` is not supplied by subgraph node \`${a.node}\``,
    label: () => "nothing maps into it",
    hint: (a) => `map it: \`in { ${a.name} <- parentField }\`, or give it a default in \`${a.graph}\``,
    doc: "The child's input field has no default and the parent neither shares a field of that name nor maps one into it.",
  }),
  outMapNotReturned: def<{ name: string; graph: string } & Suggested>({
    code: "G5003",
    slug: "out-map-not-returned",
    severity: "error",
    message: (a) => `graph \`${a.graph}\` does not return \`${a.name}\``,
    label: (a) => `not an output field of \`${a.graph}\``,
    hint: (a) => didYouMean(a.suggestions) ?? `add \`${a.name}\` to the child's \`output\` block`,
    doc: "An `out { child -> parent }` entry names a child field that is not in the child's output, so nothing ever returns it.",
  }),
  sharedReducerDuplicates: def<{ name: string; reducer: string; graph: string }>({
    code: "G5004",
    slug: "shared-reducer-duplicates",
    severity: "warning",
    message: (a) =>
      `\`${a.name}\` goes into \`${a.graph}\` and comes back whole through reducer \`${a.reducer}\`: its old value is counted twice`,
    label: () => "the child returns its whole value",
    hint: (a) =>
      `let the child output only what it adds: a fresh field (e.g. \`out { new_${a.name} -> ${a.name} }\` from a field the child starts empty), or use \`reduce replace\` in the parent`,
    doc: "LangGraph writes a subgraph's full output value back through the parent's reducer. When the field also went in, an `append`/`sum`/custom reducer duplicates the old items (verified in LangGraph.js). `messages`, `union`, `merge` and `replace` are safe.",
  }),
  includeCycle: def<{ cycle: readonly string[] }>({
    code: "G5005",
    slug: "include-cycle",
    severity: "error",
    message: (a) => `subgraph cycle: ${a.cycle.join(" -> ")}`,
    label: () => "this reference closes the cycle",
    hint: () => "a graph cannot contain itself; break the cycle (use a loop edge inside one graph instead)",
    doc: "Graphs use each other as subgraphs in a cycle (A uses B uses A), within a file or across files.",
  }),
  fileNotFound: def<{ path: string; tried: readonly string[] }>({
    code: "G5006",
    slug: "file-not-found",
    severity: "error",
    message: (a) => `cannot find \`${a.path}\``,
    label: () => "no such file",
    hint: (a) => `tried, in order: ${a.tried.join(", ")}`,
    doc: "A `.graph` import or `subgraph … from` file was not found. The hint lists every path tried, in order (see the search order below).",
  }),
  nestingTooDeep: def<{ depth: number; chain: readonly string[] }>({
    code: "G5007",
    slug: "nesting-too-deep",
    severity: "warning",
    message: (a) => `subgraphs nest ${a.depth} levels deep: ${a.chain.join(" -> ")}`,
    label: () => "deeper than 3 levels",
    hint: () => "flatten a level; deep nesting makes state flow and checkpoints hard to follow",
    doc: "A chain of subgraphs more than 3 levels deep below a root graph.",
  }),
  inMapUnknownChildField: def<{ name: string; graph: string } & Suggested>({
    code: "G5008",
    slug: "in-map-not-input",
    severity: "error",
    message: (a) => `\`${a.name}\` is not an input field of graph \`${a.graph}\``,
    label: (a) => `\`${a.graph}\` does not accept it`,
    hint: (a) => didYouMean(a.suggestions) ?? `add \`${a.name}\` to the child's \`input\` block`,
    doc: "An `in { child <- expr }` entry targets a child field that is not in the child's input (LangGraph drops it silently).",
  }),
  outMapParentUnknown: def<{ name: string; graph: string } & Suggested>({
    code: "G5009",
    slug: "out-map-unknown-parent-field",
    severity: "error",
    message: (a) => `\`${a.name}\` is not a field of graph \`${a.graph}\``,
    label: () => "the child's value would be dropped",
    hint: (a) => didYouMean(a.suggestions) ?? `declare \`${a.name}\` in the parent's \`state\``,
    doc: "An `out { child -> parent }` entry writes a field the parent does not have.",
  }),
  mappingDuplicate: def<Named>({
    code: "G5010",
    slug: "mapping-duplicate",
    severity: "error",
    message: (a) => `\`${a.name}\` is mapped twice`,
    label: () => "mapped again here",
    hint: () => "keep one mapping per field",
    doc: "Two entries of one `in { }` block fill the same child field, or two entries of one `out { }` block write the same parent field.",
  }),
  subgraphNoShared: def<{ node: string; graph: string }>({
    code: "G5011",
    slug: "subgraph-no-shared-fields",
    severity: "warning",
    message: (a) => `subgraph node \`${a.node}\` shares no field with graph \`${a.graph}\``,
    label: () => "nothing flows in or out",
    hint: () => "add `in { … }` / `out { … }` mappings",
    doc: "Without mappings only same-name fields flow; this subgraph has none in either direction, so it can neither read nor return anything.",
  }),
  subgraphsTooDeep: def<{ max: number; graph: string; chain: readonly string[] }>({
    code: "G5012",
    slug: "subgraphs-too-deep",
    severity: "error",
    message: (a) => `subgraphs below graph \`${a.graph}\` nest deeper than ${a.max} levels: ${a.chain.join(" -> ")}`,
    label: (a) => `level ${a.max + 1} starts here`,
    hint: () => "flatten the chain: let a parent call the deeper graphs directly",
    doc: "A chain of subgraph nodes more than 64 levels deep (the hard limit; G5007 warns from 4 levels): see the Limits section of docs/language.md. Reported once per chain, at the subgraph node that starts the level beyond the limit.",
  }),

  // ------------------------------------------------------------ interfaces (docs/contracts.md): G2040–G2049, G3040–G3049
  unknownInterface: def<{ name: string; graph: string } & Suggested>({
    code: "G2040",
    slug: "unknown-interface",
    severity: "error",
    message: (a) => `graph \`${a.graph}\` implements unknown interface \`${a.name}\``,
    label: () => "not an interface of this file or imported from a `.graph` file",
    hint: (a) => didYouMean(a.suggestions) ?? "declare it with `interface` or import it from the `.graph` file that declares it",
    doc: "A name in `graph X implements …` is not an interface declared in the file or imported from another `.graph` file.",
  }),
  unknownSlotInterface: def<{ name: string; node: string; graph: string } & Suggested>({
    code: "G2042",
    slug: "unknown-slot-interface",
    severity: "error",
    message: (a) => `subgraph \`${a.node}\` of graph \`${a.graph}\` is typed by unknown interface \`${a.name}\``,
    label: () => "not an interface of this file or imported from a `.graph` file",
    hint: (a) => didYouMean(a.suggestions) ?? "declare it with `interface` or import it from the `.graph` file that declares it",
    doc: "The interface of a slot (`subgraph q: Iface`) is not an interface declared in the file or imported from another `.graph` file.",
  }),
  slotDefaultNotImplementing: def<{ name: string; node: string; iface: string }>({
    code: "G5013",
    slug: "slot-default-not-implementing",
    severity: "error",
    message: (a) => `default \`${a.name}\` of slot \`${a.node}\` does not implement interface \`${a.iface}\``,
    label: () => "this graph does not declare the slot's interface",
    hint: (a) => `declare it: \`graph ${a.name} implements ${a.iface} { … }\`, or bind a graph that does`,
    doc: "The default binding of a slot (`subgraph q: Iface = Default`) must declare `implements Iface` (and is then checked structurally, G3040–G3043): only graphs that declare the interface can be bound to the slot, at compile time and in the generated `.bind()`.",
  }),
  duplicateInterface: def<Named>({
    code: "G2041",
    slug: "duplicate-interface",
    severity: "error",
    message: (a) => `interface \`${a.name}\` is declared more than once`,
    label: () => "declared again here",
    hint: () => "rename it: interfaces share one namespace with the file's graphs, types and imports",
    doc: "An interface has the name of another interface, graph, type alias or import of the same file.",
  }),
  interfaceFieldMissing: def<{ graph: string; iface: string; side: "input" | "output"; field: string }>({
    code: "G3040",
    slug: "interface-field-missing",
    severity: "error",
    message: (a) => `graph \`${a.graph}\` does not implement \`${a.iface}\`: its ${a.side} has no field \`${a.field}\``,
    label: (a) => `\`${a.iface}\` requires ${a.side} field \`${a.field}\``,
    hint: (a) => `add \`${a.field}\` to the graph's \`${a.side} { … }\` block (declared in its state with a compatible type)`,
    doc: "A graph that `implements` an interface lacks one of the interface's input or output fields.",
  }),
  interfaceFieldType: def<{ graph: string; iface: string; side: "input" | "output"; field: string; graphType: string; ifaceType: string }>({
    code: "G3041",
    slug: "interface-field-type",
    severity: "error",
    message: (a) =>
      `graph \`${a.graph}\` does not implement \`${a.iface}\`: ${a.side} field \`${a.field}\` is \`${a.graphType}\`, not compatible with \`${a.ifaceType}\``,
    label: (a) => (a.side === "input" ? `must accept every \`${a.ifaceType}\`` : `must be assignable to \`${a.ifaceType}\``),
    hint: (a) =>
      a.side === "input"
        ? "an implementation may accept more than the interface promises callers can pass, never less"
        : "an implementation may return less than the interface promises, never more",
    doc: "A field the interface declares has a type in the graph that does not fit: an input field's type must accept every value of the interface's type (callers pass those), an output field's type must be assignable to the interface's (callers expect it).",
  }),
  interfaceReducerMismatch: def<{ graph: string; iface: string; field: string; graphReducer: string; ifaceReducer: string }>({
    code: "G3042",
    slug: "interface-reducer-mismatch",
    severity: "error",
    message: (a) =>
      `graph \`${a.graph}\` does not implement \`${a.iface}\`: field \`${a.field}\` reduces with \`${a.graphReducer}\`, the interface with \`${a.ifaceReducer}\``,
    label: () => "a different reducer",
    hint: (a) => `declare the field with \`reduce ${a.ifaceReducer}\`${a.ifaceReducer === "replace" ? " (or no reducer)" : ""}`,
    doc: "A field of the interface combines writes with another reducer in the graph: a parent writing to it through the interface would get different results.",
  }),
  interfaceExtraRequiredInput: def<{ graph: string; iface: string; field: string }>({
    code: "G3043",
    slug: "interface-extra-required-input",
    severity: "error",
    message: (a) => `graph \`${a.graph}\` does not implement \`${a.iface}\`: it requires input field \`${a.field}\`, which the interface does not have`,
    label: () => "required here, unknown to callers of the interface",
    hint: (a) => `give \`${a.field}\` a default, make its type optional, or add it to \`${a.iface}\`'s input`,
    doc: "A graph requires an input field its interface does not declare: a caller that knows only the interface never passes it.",
  }),

  // ------------------------------------------------------------ G6xxx options and vars
  varDefaultTypeMismatch: def<{ name: string; expected: string; actual: string }>({
    code: "G6001",
    slug: "var-default-type-mismatch",
    severity: "error",
    message: (a) => `default of variable \`${a.name}\` does not fit its type \`${a.expected}\``,
    label: (a) => `this is ${a.actual}`,
    hint: (a) =>
      a.actual.startsWith("a string with `${")
        ? "an environment placeholder yields a string; declare the variable as `string`"
        : `give a default of type \`${a.expected}\``,
    doc: "A `vars` default is not assignable to the variable's type. A `${NAME}` placeholder yields a string, so it only fits `string` variables.",
  }),
  badTemplate: def<{ problem: string }>({
    code: "G6002",
    slug: "bad-env-placeholder",
    severity: "error",
    message: (a) => `bad environment placeholder: ${a.problem}`,
    label: () => "here",
    hint: () =>
      "write `${NAME}` or `${NAME:-default}`; NAME is letters, digits and `_`, not starting with a digit; write `$${` for a literal `${`",
    doc: "A variable default uses `${…}` with a bad name, an unclosed brace or an unsupported form.",
  }),
  varShadowsField: def<{ name: string }>({
    code: "G6003",
    slug: "var-shadows-field",
    severity: "warning",
    message: (a) => `variable \`${a.name}\` has the same name as a state field`,
    label: () => "also a field",
    hint: () =>
      "rename the variable; a node sees fields in its input and vars in its context, and two `x`s confuse readers",
    doc: "A `vars` entry is named like a field of the same graph.",
  }),
  varParentTypeConflict: def<{ name: string; parent: string; childType: string; parentType: string }>({
    code: "G6004",
    slug: "var-type-conflict",
    severity: "error",
    message: (a) =>
      `variable \`${a.name}: ${a.childType}\` conflicts with \`${a.name}: ${a.parentType}\` inherited from graph \`${a.parent}\``,
    label: () => "different type than the parent's variable",
    hint: () => "a subgraph inherits its parent's vars: declare the same type or rename one",
    doc: "A subgraph declares a variable that its parent also declares, with an incompatible type. The parent's value would override the child's default (precedence: run override, parent value, own default).",
  }),
  unknownOption: def<{ name: string; where: string; available: readonly string[] } & Suggested>({
    code: "G6005",
    slug: "unknown-option",
    severity: "error",
    message: (a) => `unknown option \`${a.name}\` in ${a.where}`,
    label: () => "not an option here",
    hint: (a) => didYouMean(a.suggestions) ?? `options here: ${list(a.available)}`,
    doc: "A node, subgraph, `retry`, `cache` or `limits` option name, or a `meta` key, is not known.",
  }),
  badOptionValue: def<{ name: string; expected: string; example: string }>({
    code: "G6006",
    slug: "bad-option-value",
    severity: "error",
    message: (a) => `bad value for \`${a.name}\``,
    label: (a) => `expected ${a.expected}`,
    hint: (a) => `for example: \`${a.example}\``,
    doc: "An option value has the wrong form: `retry.attempts` must be a positive integer, durations are `500ms`, `10s`, `5m`, `1h` (or a positive number of seconds), `factor` ≥ 1, `jitter` a boolean, `limits.recursion` a positive integer, `cache.key` a tuple of fields read by the node, `on_error` a node, `stateful` a boolean.",
  }),
  duplicateOption: def<Named>({
    code: "G6007",
    slug: "duplicate-option",
    severity: "error",
    message: (a) => `option \`${a.name}\` is given twice`,
    label: () => "given again here",
    hint: () => "keep one",
    doc: "The same option appears twice in one block (or the same `meta` key twice in a graph).",
  }),
  varNeedsTypeOrDefault: def<Named>({
    code: "G6008",
    slug: "var-needs-type",
    severity: "error",
    message: (a) => `variable \`${a.name}\` needs a type`,
    label: () => "no type",
    hint: (a) => `write \`${a.name}: string = "…"\``,
    doc: "Every `vars` entry needs a type (its default is optional; a variable without a default must be given per run or by a parent).",
  }),

  varDefaultOverridden: def<{ name: string; parent: string; child: string }>({
    code: "G6009",
    slug: "var-default-overridden",
    severity: "warning",
    message: (a) => `default of variable \`${a.name}\` in graph \`${a.child}\` is never used under \`${a.parent}\``,
    label: (a) => `\`${a.parent}\` always passes its own value`,
    hint: () =>
      "a subgraph's vars come from the run override, then the parent, then its own default; drop one default or rename one variable",
    doc: "A subgraph declares a variable with a default that its parent also declares with a different default. The parent's value wins (unlike ChatDev 2.0, where the child file wins), so the child's default is dead there.",
  }),
  subgraphOnlyOption: def<Named>({
    code: "G6010",
    slug: "subgraph-only-option",
    severity: "error",
    message: (a) => `option \`${a.name}\` applies only to subgraph nodes`,
    label: () => "this is a function node",
    hint: () =>
      "a function node keeps nothing between calls except what it writes to state; `stateful` belongs in a `subgraph … { stateful }` body",
    doc: "`stateful` (keep the child graph's state across calls on one thread, LangGraph's `checkpointer: true`) is an option of `subgraph` nodes; a function node has no state of its own.",
  }),

  // G6020–G6029: `meta` (docs/contracts.md)
  metaNotString: def<{ name: string; example: string }>({
    code: "G6020",
    slug: "meta-not-string",
    severity: "error",
    message: (a) => `\`meta\` entry \`${a.name}\` must be a string`,
    label: () => "not a string literal",
    hint: (a) => `write it in quotes, for example: \`${a.example}\``,
    doc: "Every `meta` value (`owner`, `version`, `description`) is a string literal, so the manifest (`graphc manifest`) holds it exactly as written.",
  }),
  metaBadVersion: def<{ value: string }>({
    code: "G6021",
    slug: "meta-bad-version",
    severity: "error",
    message: (a) => `\`${a.value}\` is not a semantic version`,
    label: () => "expected MAJOR.MINOR.PATCH",
    hint: () => 'write three numbers without leading zeros, optionally with a pre-release or build suffix: `version: "1.2.0"`, `"2.0.0-beta.1"`',
    doc: "`meta { version }` must be a semantic version (semver.org 2.0.0: `1.2.0`, `2.0.0-rc.1`). `graphc diff` reads its major number to decide whether a breaking change was announced.",
  }),

  // ------------------------------------------------------------ G3090–G3099, G5090–G5099: code generation
  // (declared by the emitter, phases/5-emit; TypeScript errors in generated code are mapped back here)
  emitNameUnusable: def<Named>({
    code: "G3090",
    slug: "name-unusable-in-typescript",
    severity: "error",
    message: (a) => `\`${a.name}\` cannot be used as a name in the generated TypeScript`,
    label: () => "reserved in TypeScript",
    hint: () => "rename it (reserved words such as `default`, `class` or `await` cannot name a binding)",
    doc: "A name that becomes a binding in the generated module (a graph, a `type` alias, an imported name) is a JavaScript reserved word or not an identifier.",
  }),
  emitGraphNameUnusable: def<Named>({
    code: "G3091",
    slug: "graph-name-taken",
    severity: "error",
    message: (a) => `graph \`${a.name}\` cannot be exported under its own name`,
    label: () => "the generated module already uses this name",
    hint: () => "rename the graph, or import the clashing TypeScript name with `as`",
    doc: "Every graph is exported from the generated module under its own name; here that name is reserved in JavaScript or already taken by an import or type alias of the same file.",
  }),
  nodeFnMismatch: def<{ node: string; fn: string; detail: string }>({
    code: "G3092",
    slug: "node-function-type",
    severity: "error",
    message: (a) => `function \`${a.fn}\` does not fit node \`${a.node}\`: ${a.detail}`,
    label: (a) => `\`${a.fn}\` must accept the fields this node reads and return the fields it writes`,
    hint: (a) =>
      `give it the generated types: \`(state: …Read) => …Update\` (see \`${a.node}\` in the generated .graph.ts)`,
    doc: "TypeScript found that the node's function does not have the signature the node declares: it expects fields the node does not read, returns fields of the wrong type, or takes a wrong context.",
  }),
  branchFnMismatch: def<{ fn: string; role: string; detail: string }>({
    code: "G3093",
    slug: "branch-function-type",
    severity: "error",
    message: (a) => `${a.role} \`${a.fn}\` has the wrong type: ${a.detail}`,
    label: () => "checked by TypeScript against the generated type",
    hint: (a) =>
      a.role === "router"
        ? "a router takes (state, ctx) and returns one of its case keys (or a list of them)"
        : "a send function takes (state, ctx) and returns Send packets, each naming one of the graph's nodes with an arg of that node's read type (`new Send(\"worker\", { items })` for `…WorkerRead`)",
    doc: "A `route(fn)` or `send(fn)` function does not have the type the edge requires: a router must return one of the keys its cases list; a send function (or a router without cases) must return `Send` packets, each naming one of the graph's nodes and carrying an arg of that node's read type.",
  }),
  tsErrorInGenerated: def<{ detail: string; code: number }>({
    code: "G3094",
    slug: "typescript-error",
    severity: "error",
    message: (a) => `TypeScript: ${a.detail} (TS${a.code})`,
    label: () => "reported by TypeScript in the generated code for this line",
    hint: () => "TypeScript checks imported types, reducers and paths into imported types in the generated code",
    doc: "TypeScript reported an error in the generated code that graphc's own checker does not model (an imported type, a custom reducer's signature, a path into an imported type, a missing export). It is reported at the `.graph` line the code was generated from.",
  }),
  nodeReturnsUndeclared: def<{ node: string; fn: string; fields: readonly string[]; writes: readonly string[] }>({
    code: "G3097",
    slug: "node-returns-undeclared-field",
    severity: "warning",
    message: (a) =>
      `function \`${a.fn}\` may return ${a.fields.map((f) => `\`${f}\``).join(", ")}, which node \`${a.node}\` does not write`,
    label: (a) => (a.writes.length === 0 ? "this node writes nothing" : `this node writes ${a.writes.map((f) => `\`${f}\``).join(", ")}`),
    hint: (a) =>
      `a return with ${a.fields.length === 1 ? "that field" : "those fields"} fails at run time (InvalidUpdateError): add ${a.fields.length === 1 ? "it" : "them"} to the node's writes, or give \`${a.fn}\` the node's update type (\`…Update\` in the generated .graph.ts)`,
    doc: "TypeScript found that the return type of the node's function has a field the node does not declare among its writes (say the function is typed with another node's update type, or `Partial<State>`). TypeScript accepts such a function, since a wider object type is assignable, but a return that carries the field fails at run time with an `InvalidUpdateError`. A warning, not an error: the function may never set that field. Not reported when the type cannot tell (`any`, an index signature) or the node may return a `Command`.",
  }),
  runtimeNotFound: def<{ module: string; package: string; outFile: string }>({
    code: "G3095",
    slug: "runtime-not-found",
    severity: "error",
    message: (a) => `the runtime \`${a.module}\` cannot be found from \`${a.outFile}\``,
    label: () => "its generated code imports the runtime",
    hint: (a) =>
      `install ${a.package} in this project: \`npm install ${a.package}\` (TypeScript checks the node functions once it resolves)`,
    doc: "The generated code imports the runtime module, which does not resolve from where the generated file goes (the package is not installed in the project). This is reported once, and the TypeScript check of node functions is skipped until it resolves: every error it would report is a consequence of this one.",
  }),
  commonJsPackage: def<{ outFile: string; packageJson: string | undefined }>({
    code: "G3096",
    slug: "commonjs-package",
    severity: "error",
    message: (a) =>
      a.packageJson === undefined
        ? `the generated \`${a.outFile}\` is an ES module, but no package.json above it says \`"type": "module"\``
        : `the generated \`${a.outFile}\` is an ES module, but \`${a.packageJson}\` makes \`.ts\` files there CommonJS`,
    label: () => "its generated code imports and exports as an ES module",
    hint: (a) =>
      `${a.packageJson === undefined ? "create a package.json with" : "add"} \`"type": "module"\` (graphc's code and packages are ES modules only), or set \`"moduleResolution": "bundler"\` in tsconfig.json when a bundler builds the project`,
    doc: "The generated file would be a CommonJS module for TypeScript and Node: the nearest package.json above it has no `\"type\": \"module\"` (or there is none) and tsconfig.json does not use bundler resolution. Generated code and graphc's packages are ES modules only. This is reported once, and the TypeScript check of node functions is skipped until it is fixed: every error it would report (TS1295, TS1287 on each import and export) is a consequence of this one.",
  }),
  generatedNameMissing: def<{ module: string; at: string; detail: string; code: number }>({
    code: "G3098",
    slug: "generated-name-missing",
    severity: "error",
    message: (a) => `\`${a.module}\` imports a name the generated code does not export: ${a.detail} (TS${a.code}, ${a.at})`,
    label: () => "the node functions of this import are typed with that name",
    hint: () =>
      "the generated names follow the graph's nodes, fields and schemas (`<Graph><Node>Read`, `…Update`, `<Graph>Send`; docs/codegen.md): after renaming one, rename what the module imports",
    doc: "A module the `.graph` file imports node functions from imports a type or value from the generated module that it does not export (a misspelt name, or one left behind by renaming a node, field or graph). TypeScript gives such a name the error type, which fits everything, so without this error the functions typed with it would pass every check of G3092 and G3093 unchecked.",
  }),
  subgraphTransformMismatch: def<{ fn: string; direction: "in" | "out"; detail: string }>({
    code: "G5090",
    slug: "subgraph-transform-type",
    severity: "error",
    message: (a) =>
      `transform \`${a.fn}\` does not fit this subgraph's ${a.direction === "in" ? "input" : "output"}: ${a.detail}`,
    label: () => "checked by TypeScript against the generated types",
    hint: (a) =>
      a.direction === "in"
        ? "an `in` transform takes the parent state and returns the child's input"
        : "an `out` transform takes the child's output and returns an update of the parent fields",
    doc: "A subgraph's `in = fn` / `out = fn` TypeScript transform does not have the type its position requires.",
  }),

  // ------------------------------------------------------------ G9xxx internal
  internalError: def<{ error: string }>({
    code: "G9001",
    slug: "internal-error",
    severity: "error",
    message: (a) => `internal compiler error: ${a.error}`,
    label: () => "while checking this file",
    hint: () => "this is a bug in graphc; please report it with the input file",
    doc: "graphc hit an unexpected exception. Never expected on any input: please report it.",
  }),
  formatFailed: def<{ error: string }>({
    code: "G9002",
    slug: "format-failed",
    severity: "error",
    message: (a) => `internal formatter error: ${a.error}`,
    label: () => "this file was left unchanged",
    hint: () => "this is a bug in graphc; please report it with the input file",
    doc: "`graphc fmt` hit an unexpected exception on this file. The file is left exactly as it was and the other files are still formatted. Never expected on any input: please report it.",
  }),
} as const;

type ArgsOf<M> = M extends MessageDef<infer A> ? A : never;
export type MessageKey = keyof typeof MESSAGES;

export type DiagnosticFactories = {
  readonly [K in MessageKey]: (
    span: Span,
    args: ArgsOf<(typeof MESSAGES)[K]>,
    related?: readonly RelatedLocation[],
  ) => Diagnostic;
};

function build<A>(m: MessageDef<A>, span: Span, args: A, related: readonly RelatedLocation[] | undefined): Diagnostic {
  const diag: Diagnostic = {
    code: m.code,
    severity: m.severity,
    message: m.message(args),
    span,
    related: related ? [...related] : [],
  };
  const label = m.label?.(args);
  if (label !== undefined) diag.label = label;
  const hint = m.hint?.(args);
  if (hint !== undefined) diag.hint = hint;
  return diag;
}

/** Typed diagnostic factories, one per table entry. */
export const d: DiagnosticFactories = Object.fromEntries(
  Object.entries(MESSAGES).map(([key, m]) => [
    key,
    (span: Span, args: unknown, related?: readonly RelatedLocation[]) =>
      build(m as MessageDef<unknown>, span, args, related),
  ]),
) as unknown as DiagnosticFactories;

/** A related location: `rel(span, "declared here")`. */
export function rel(span: Span, message: string): RelatedLocation {
  return { span, message };
}
