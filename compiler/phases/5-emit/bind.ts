/**
 * Interfaces, `implements` and slots in generated code (docs/language.md "Slots", docs/contracts.md).
 *
 * - An interface `Q` becomes a brand: `export const QBrand: unique symbol = Symbol("Q")` and
 *   `export type Q = { readonly [QBrand]: true }`. TypeScript is structural, so a graph whose fields happen
 *   to match is no implementation; only the compiled graph of a graph that declares `implements Q` carries
 *   the brand (`Object.assign(compileGraph(…), { [QBrand]: true as const })`), so only those fit a slot.
 * - A graph with slots gets a spec factory, `<graph>SpecFor(slots)`: the spec for given child specs. Its
 *   `GSpec` is the factory applied to the defaults, and `G.bind({ slot: Impl })` compiles the factory
 *   applied to the bound graphs' specs. Binding is static: the bound spec is an ordinary spec literal.
 */
import type { Span } from "../../../grammar/span.ts";
import type { FileIR, GraphIR, SubgraphNodeIR } from "../4-lower/ir.ts";
import type { EmitContext } from "./context.ts";
import { isIdentifier, str } from "./escape.ts";
import { BLANK } from "./format.ts";
import type { GraphNames } from "./names.ts";
import type { Scope } from "./names.ts";

/** The parameter of a spec factory (a generated local: user imports of that name are aliased, file.ts). */
export const SLOTS_PARAM = "slots";

/** The brand constant and type of each interface, by `file#name`; imported from the declaring file's module. */
export class InterfaceNames {
  private readonly names = new Map<string, { brand: string; type: string }>();
  private readonly imports = new Map<string, { exported: string; local: string; type: boolean }[]>();

  constructor(
    private readonly scope: Scope,
    private readonly file: string,
    /** the module specifier of another `.graph` file's generated module */
    private readonly moduleOf: (graphFile: string) => string,
  ) {}

  /** Reserves the names of the file's own interfaces (before any generated name is chosen). */
  declareLocal(file: FileIR): void {
    for (const i of file.interfaces) {
      this.scope.reserve(i.name);
      this.names.set(`${file.file}#${i.name}`, { type: i.name, brand: this.scope.fresh(`${i.name}Brand`) });
    }
  }

  /** The local names of interface `name` of `file`; `brand` only when `value` (a type import otherwise). */
  of(ref: { readonly name: string; readonly file: string }, need: "brand" | "type"): string {
    const key = `${ref.file}#${ref.name}`;
    let names = this.names.get(key);
    if (!names) {
      names = { brand: "", type: "" };
      this.names.set(key, names);
    }
    if (names[need] === "") {
      const exported = need === "brand" ? `${ref.name}Brand` : ref.name;
      const module = this.moduleOf(ref.file);
      const list = this.imports.get(module) ?? [];
      this.imports.set(module, list);
      names[need] = this.scope.fresh(exported);
      list.push({ exported, local: names[need], type: need === "type" });
    }
    return names[need];
  }

  /** `import { QBrand, type Q } from "./q.graph.ts";` lines for the interfaces of other files used here. */
  importLines(): string[] {
    return [...this.imports.entries()].map(([module, list]) => {
      const names = list.map((n) => `${n.type ? "type " : ""}${n.exported === n.local ? n.exported : `${n.exported} as ${n.local}`}`);
      return `import { ${names.join(", ")} } from ${str(module)};`;
    });
  }

  /** The brand declarations of the file's own interfaces. */
  declarations(file: FileIR, traced: (span: Span, text: string) => string): string[] {
    return file.interfaces.map((i) => {
      const brand = this.of({ name: i.name, file: this.file }, "brand");
      return traced(
        i.span,
        `/** Interface \`${i.name}\`: carried only by graphs that declare \`implements ${i.name}\`; slots typed by it take only those. */\n` +
          `export const ${brand}: unique symbol = Symbol(${str(i.name)});\n` +
          `export type ${i.name} = { readonly [${brand}]: true };`,
      );
    });
  }
}

/** The slots of a graph, in declaration order. */
export function slotNodes(g: GraphIR): (SubgraphNodeIR & { slot: NonNullable<SubgraphNodeIR["slot"]> })[] {
  return g.nodes.filter((x): x is SubgraphNodeIR & { slot: NonNullable<SubgraphNodeIR["slot"]> } => x.kind === "subgraph" && x.slot !== undefined);
}

const member = (name: string) => (isIdentifier(name) ? `.${name}` : `[${str(name)}]`);
const key = (name: string) => (isIdentifier(name) ? name : str(name));

/** The expression a slot's node runs: the spec bound to it, a parameter of the spec factory. */
export function slotSpec(node: SubgraphNodeIR): string {
  return `${SLOTS_PARAM}${member(node.name)}`;
}

/**
 * A slot without a default runs only once bound: its call fails with a typed error naming graph and slot
 * (and, being unbound, its node lists no child spec).
 */
export function unboundGuard(g: GraphIR, node: SubgraphNodeIR, spec: string, cx: EmitContext): string {
  if (node.slot?.hasDefault !== false) return "";
  const err = cx.scope.rt("GraphValueError");
  const msg = `graph "${g.name}": slot "${node.name}" (${node.slot.interface.name}) is not bound; bind it with ${g.name}.bind({ ${node.name}: … })`;
  return `if (${spec} === undefined) throw new ${err}(${str(msg)}, { graph: ${str(g.name)}, node: ${str(node.name)} }, "UNBOUND_SLOT");\n`;
}

/** `subgraph: <spec>,` of a slot's node spec (absent while an optional slot is unbound). */
export function slotSubgraphProp(node: SubgraphNodeIR, spec: string): string {
  return node.slot?.hasDefault === false ? `...(${spec} === undefined ? {} : { subgraph: ${spec} }),` : `subgraph: ${spec},`;
}

/** `{ [QBrand]: true as const, … }` for a graph that implements interfaces, or undefined. */
function brands(g: GraphIR, ifaces: InterfaceNames): string | undefined {
  if (!g.implements || g.implements.length === 0) return undefined;
  return `{ ${g.implements.map((i) => `[${ifaces.of(i, "brand")}]: true as const`).join(", ")} }`;
}

/**
 * The compiled graph: `compileGraph<…>(spec)`, branded by what the graph implements, and for a graph with
 * slots the factory, the default spec and `.bind(…)`. `compile(spec)` is the typed `compileGraph` call.
 */
export function emitCompiled(
  g: GraphIR,
  n: GraphNames,
  cx: EmitContext,
  ifaces: InterfaceNames,
  specBody: string,
  compile: (spec: string) => string,
  /** the graph's own spec type (`GraphSpec<GState, GOutput, GUpdate>`); a slot's child is any spec */
  ownSpec: string,
): string {
  const spec = cx.scope.rt("GraphSpec");
  const brand = brands(g, ifaces);
  const branded = (graph: string) => (brand ? `Object.assign(${graph}, ${brand})` : graph);
  const slots = slotNodes(g);
  if (slots.length === 0) {
    return [
      `export const ${n.spec}: ${ownSpec} = {\n${specBody}\n};`,
      BLANK,
      `export const ${n.graph} = ${branded(compile(n.spec))};`,
    ].join("\n");
  }
  const factory = cx.scope.fresh(`${n.spec}For`);
  const slotsType = cx.scope.fresh(`${n.graph}Slots`);
  const defaults = (given: (s: (typeof slots)[number]) => string) =>
    `{ ${slots.map((s) => `${key(s.name)}: ${given(s)}`).join(", ")} }`;
  const fallback = (s: SubgraphNodeIR) => (s.slot?.hasDefault ? cx.child(s.child).spec : "undefined");
  const stateful = slots
    .filter((s) => s.stateful)
    .map((s) => {
      const given = slotSpec(s);
      return s.slot.hasDefault
        ? `const ${n.statefulSpec(s.name)}: ${spec} = { ...${given}, stateful: true };\n`
        : `const ${n.statefulSpec(s.name)}: ${spec} | undefined = ${given} && { ...${given}, stateful: true };\n`;
    })
    .join("");
  return [
    `/** What can be bound to the slots of \`${n.graph}\`: compiled graphs that declare the slot's interface. */`,
    `export interface ${slotsType} {\n${slots
      .map((s) => `readonly ${key(s.name)}${s.slot.hasDefault ? "?" : ""}: { readonly spec: ${spec} } & ${ifaces.of(s.slot.interface, "type")};`)
      .join("\n")}\n}`,
    BLANK,
    `/** \`${n.graph}\`'s spec with the given child specs in its slots (a slot without a default may be unbound). */`,
    `export function ${factory}(${SLOTS_PARAM}: { ${slots
      .map((s) => `readonly ${key(s.name)}: ${spec}${s.slot.hasDefault ? "" : " | undefined"}`)
      .join("; ")} }): ${ownSpec} {\n${stateful}return {\n${specBody}\n};\n}`,
    BLANK,
    `export const ${n.spec}: ${ownSpec} = ${factory}(${defaults(fallback)});`,
    BLANK,
    `export const ${n.graph} = Object.assign(${compile(n.spec)}, {`,
    `  /** \`${n.graph}\` with the given graphs in its slots (the others keep their default): same entry points, same types. */`,
    `  bind: (bound: ${slotsType}) => ${branded(compile(`${factory}(${defaults((s) => `bound${member(s.name)}?.spec${s.slot.hasDefault ? ` ?? ${fallback(s)}` : ""}`)})`))},`,
    `}${brand ? `, ${brand}` : ""});`,
  ].join("\n");
}
