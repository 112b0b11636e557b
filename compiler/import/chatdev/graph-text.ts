/**
 * The `.graph` file of one imported YAML file: its graph and its inline subgraphs (children first), every
 * node a message list, and the edges, waiting edges and routers the plan chose. `graphc fmt` formats it.
 */
import { appendAll } from "../../../grammar/append.ts";
import { camelName, pascalName } from "./names.ts";
import { hitsField, outField, readsOf, stepField, writesOf, type Unit } from "./unit.ts";

export interface GraphFileText {
  readonly units: readonly Unit[];
  /** file name of the node module, relative (`./react.nodes.ts`) */
  readonly nodesModule: string;
  readonly source: string;
}

export const nodeFn = (u: Unit, id: string) => `${camelName(u.name)}${pascalName(u.names.get(id)!)}`;
export const routerFn = (u: Unit, id: string) => `after${u.name}${pascalName(u.names.get(id)!)}`;
export const inputFn = (u: Unit, id: string) => `into${u.name}${pascalName(u.names.get(id)!)}`;

export function graphFileText(f: GraphFileText): string {
  const imports = new Set<string>();
  const graphImports: string[] = [];
  for (const u of f.units) {
    for (const n of u.w.nodes) {
      const child = u.children.get(n.id);
      if (child === undefined) imports.add(nodeFn(u, n.id));
      else {
        imports.add(inputFn(u, n.id));
        if (child.file !== undefined) graphImports.push(`import { ${child.unit.name} } from "${child.file}"`);
      }
    }
    for (const id of u.plan.routers.keys()) imports.add(routerFn(u, id));
  }
  const head = [
    `// Imported from the ChatDev 2.0 workflow ${f.source} by \`graphc import chatdev\`.`,
    "// Every node keeps the messages it emitted in a field of its name; see docs/contracts.md for the translation.",
    ...[...new Set(graphImports)],
    `import { ${[...imports].join(", ")} } from "${f.nodesModule}"`,
  ];
  return `${[...head, "", ...f.units.map(graphText)].join("\n")}\n`;
}

function graphText(u: Unit): string {
  const lines: string[] = [];
  if (u.w.description) appendAll(lines, u.w.description.trim().split("\n").map((l) => `// ${l}`));
  lines.push(`graph ${u.name} {`);
  const vars = u.vars.declared();
  if (vars.length > 0) appendAll(lines, ["  vars {", ...vars.map((v) => `    ${v.name}: ${v.type} = ${v.value}`), "  }"]);
  lines.push("  state {", "    task: string");
  for (const n of u.w.nodes) {
    lines.push(`    ${outField(u, n.id)}: string[] = [] reduce append`);
    if (n.type === "loop_counter") lines.push(`    ${hitsField(u, n.id)}: number = 0 reduce sum`);
    if (u.plan.stepTracked.has(n.id)) lines.push(`    ${stepField(u, n.id)}: number = -1`);
  }
  lines.push("  }");
  lines.push("  input  { task }");
  lines.push(`  output { ${u.plan.ends.map((id) => outField(u, id)).join(", ")} }`, "");

  for (const n of u.w.nodes) {
    const name = u.names.get(n.id)!;
    const child = u.children.get(n.id);
    if (child !== undefined) {
      const outs = child.unit.plan.ends.map((id) => `${outField(child.unit, id)} -> ${outField(u, n.id)}`);
      lines.push(`  subgraph ${name} = ${child.unit.name} { in = ${inputFn(u, n.id)}  out { ${outs.join(", ")} } }`);
      continue;
    }
    const reads = readsOf(u, n);
    lines.push(`  node ${name}(${reads.length === 0 ? "" : `{ ${reads.join(", ")} }`}) -> { ${writesOf(u, n).join(", ")} } = ${nodeFn(u, n.id)}`);
  }
  lines.push("");

  const name = (id: string) => u.names.get(id)!;
  const endpoint = (ids: readonly string[]) => (ids.length === 1 ? name(ids[0]!) : `[${ids.map(name).join(", ")}]`);
  lines.push(`  START -> ${endpoint(u.plan.starts)}`);
  for (const [from, targets] of u.plan.plain) lines.push(`  ${name(from)} -> ${endpoint(targets)}`);
  for (const j of u.plan.joins) lines.push(`  ${endpoint(j.sources)} -> ${name(j.target)}`);
  for (const from of u.plan.routers.keys()) lines.push(`  ${name(from)} -> route(${routerFn(u, from)})`);
  for (const id of u.plan.sinks) lines.push(`  ${name(id)} -> END`);
  lines.push("}");
  return lines.join("\n");
}
