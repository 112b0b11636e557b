/**
 * The exported types of one graph: state, input, output, vars, the branch context, and per node its read
 * type, update type and function type; per router / send branch the function type it must satisfy.
 */
import type { BranchIR, FieldIR, GraphIR, NodeIR } from "../4-lower/ir.ts";
import type { EmitContext } from "./context.ts";
import { inComment, str } from "./escape.ts";
import { BLANK } from "./format.ts";
import type { GraphNames } from "./names.ts";
import { admitsUndefined, objectType, tsType, updateType } from "./types.ts";

export function emitGraphTypes(g: GraphIR, n: GraphNames, cx: EmitContext): string {
  const rt = (x: Parameters<EmitContext["scope"]["rt"]>[0]) => cx.scope.rt(x);
  const field = new Map(g.fields.map((f) => [f.name, f]));
  const F = (name: string): FieldIR => field.get(name)!;
  const out: string[] = [];
  const fieldsType = (names: readonly string[], optional: (f: FieldIR) => boolean) =>
    objectType(names.map((name) => ({ name, optional: optional(F(name)), type: tsType(F(name).type) })));

  out.push(`/** Every field of graph \`${n.graph}\`: state, private and input/output-only fields. */`);
  out.push(`export type ${n.state} = ${fieldsType(g.fields.map((f) => f.name), () => false)};`);
  out.push(`/** What \`${n.graph}.invoke\` accepts. */`);
  out.push(`export type ${n.input} = ${fieldsType(g.input, (f) => f.init !== undefined || admitsUndefined(f.type))};`);
  // typed like LangGraph's own `invoke` result: every output field (a never-written field is absent at run time)
  out.push(`/** What \`${n.graph}.invoke\` returns. */`);
  out.push(`export type ${n.output} = ${fieldsType(g.output, () => false)};`);
  out.push(`/** Run-time settings handed to every node (\`vars\`). */`);
  const vars = g.vars.map((v) => ({ name: v.name, optional: v.default === undefined, type: tsType(v.type) }));
  out.push(`export type ${n.vars} = ${vars.length === 0 ? "Record<string, never>" : objectType(vars)};`);
  out.push(`export type ${n.branchContext} = ${rt("BranchContext")} & { readonly vars: ${n.vars} };`);

  out.push(`/** The graph's node names (what a router without cases may return, with END). */`);
  out.push(`export type ${n.nodeName} = ${g.nodes.map((x) => str(x.name)).join(" | ") || "never"};`);
  const destination = () => `${n.nodeName} | typeof ${rt("END")}`;
  out.push(`/** What \`${n.graph}.updateState\` accepts: any of the graph's fields, each typed by its reducer. */`);
  out.push(
    `export type ${n.update} = ${objectType(
      g.fields.map((f) => ({ name: f.name, optional: true, type: updateType(f, n.state, () => rt("Overwrite"), cx.fn) })),
    )};`,
  );

  for (const node of g.nodes) out.push(BLANK, ...nodeTypes(node, n, cx, F));
  if (g.nodes.some((x) => x.kind === "subgraph")) out.push(BLANK, parentCommandType(g, n, cx));
  // a Send packet's node and arg checked together: `new Send("worker", { items })` infers the literal node
  // name, and its arg must fit what that node receives (a misspelt node or field is a G3093, not a run-time
  // surprise); declared before the first branch type that returns one
  let sendType: string | undefined;
  const send = (): string => {
    if (sendType !== undefined) return sendType;
    sendType = n.send();
    const packets = g.nodes.map((x) => `${rt("Send")}<${n.node(x.name).read}, ${str(x.name)}>`);
    out.push(`/** A \`Send\` to one of the graph's nodes: its \`arg\` is what that node receives. */`);
    out.push(`export type ${sendType} = ${packets.join(" | ") || "never"};`);
    return sendType;
  };
  const branchTypes = (from: string, branches: readonly BranchIR[]) =>
    branches.forEach((b, i) => {
      const bn = n.branch(from, i);
      const sig = (ret: string) =>
        `(state: ${n.state}, ctx: ${n.branchContext}) => ${ret} | Promise<${ret}>`;
      if (b.kind === "route") {
        if (b.cases) {
          const keyType = `export type ${bn.key} = ${b.cases.map((c) => str(c.key)).join(" | ") || "never"};`;
          out.push(cx.traced(b.span, `${keyType}\nexport type ${bn.fn} = ${sig(`${bn.key} | readonly ${bn.key}[]`)};`));
        } else {
          const d = `${destination()} | ${send()}`;
          out.push(cx.traced(b.span, `export type ${bn.fn} = ${sig(`${d} | readonly (${d})[]`)};`));
        }
      } else if (b.kind === "send") {
        const s = send();
        out.push(cx.traced(b.span, `export type ${bn.fn} = ${sig(`${s} | readonly ${s}[]`)};`));
      }
    });
  branchTypes("START", g.start.branches);
  for (const node of g.nodes) branchTypes(node.name, node.branches);
  return cx.traced(g.span, out.join("\n"));
}

/**
 * `GParentCommand`: the arguments of a `Command.PARENT` a node of one of G's subgraphs may return, typed
 * against G: updates of any of G's fields, gotos to the targets G's subgraph nodes declare. A child's node
 * writes `new Command({ graph: Command.PARENT, … } satisfies GParentCommand)`; the runtime checks the same
 * rules again (it cannot know statically which parent a child runs under).
 */
function parentCommandType(g: GraphIR, n: GraphNames, cx: EmitContext): string {
  const rt = (x: Parameters<EmitContext["scope"]["rt"]>[0]) => cx.scope.rt(x);
  const targets = [...new Set(g.nodes.flatMap((x) => (x.kind === "subgraph" ? (x.goto ?? []) : [])))];
  const members = [`readonly graph: typeof ${rt("Command")}.PARENT;`, `readonly update?: ${n.update};`];
  if (targets.length > 0) {
    const t = `${targets.map((x) => (x === "END" ? `typeof ${rt("END")}` : str(x))).join(" | ")} | ${rt("Send")}`;
    members.push(`readonly goto?: ${t} | readonly (${t})[];`);
  }
  return [
    `/**`,
    ` * What a node of a subgraph of \`${inComment(n.graph)}\` may return to update or route \`${inComment(n.graph)}\` itself:`,
    ` * \`new Command({ graph: Command.PARENT, update, goto } satisfies ${n.parentCommand()})\`.`,
    ` */`,
    `export type ${n.parentCommand()} = {\n${members.join("\n")}\n};`,
  ].join("\n");
}

function nodeTypes(node: NodeIR, n: GraphNames, cx: EmitContext, F: (name: string) => FieldIR): string[] {
  const nn = n.node(node.name);
  const out: string[] = [];
  const reads = node.reads.length === 0 ? "Record<string, never>" : `Pick<${n.state}, ${node.reads.map(str).join(" | ")}>`;
  out.push(`/** ${node.kind === "subgraph" ? "Subgraph node" : "Node"} \`${inComment(node.name)}\`: the fields it receives. */`);
  out.push(`export type ${nn.read} = ${reads};`);
  out.push(`/** What \`${inComment(node.name)}\` may return: a partial update of the fields it declares. */`);
  const overwrite = () => cx.scope.rt("Overwrite");
  out.push(
    `export type ${nn.update} = ${node.writes.length === 0 ? "Record<string, never>" : objectType(
      node.writes.map((w) => ({ name: w, optional: true, type: updateType(F(w), n.state, overwrite, cx.fn) })),
    )};`,
  );
  if (node.kind === "function") {
    const ret = node.goto ? `${nn.update} | ${cx.scope.rt("Command")} | void` : `${nn.update} | void`;
    out.push(
      `export type ${nn.fn} = (state: ${nn.read}, ctx: ${cx.scope.rt("NodeContext")}<${n.vars}>) => ${ret} | Promise<${ret}>;`,
    );
  }
  return [cx.traced(node.span, out.join("\n"))];
}
