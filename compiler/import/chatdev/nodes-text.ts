/**
 * The node module of an imported `.graph` file: a typed function per node and per router. Literal,
 * passthrough, loop-counter, human and subgraph nodes are complete; agent nodes call the model the user
 * connects (`connectAgent` in the support module); node types with no counterpart throw a TODO.
 */
import type { Condition, WorkflowEdge, WorkflowNode } from "./workflow.ts";
import type { ImportProblems } from "./problems.ts";
import { inputFn, nodeFn, routerFn } from "./graph-text.ts";
import { appendAll } from "../../../grammar/append.ts";
import { pascalName } from "./names.ts";
import { hitsField, loopCounter, outField, stepField, type Unit } from "./unit.ts";

/** ChatDev's built-in condition functions this module knows (`functions/edge/conditions.py`). */
const BUILT_IN_CONDITIONS: Readonly<Record<string, string>> = {
  need_reflection_loop: "needReflectionLoop",
  should_stop_loop: "shouldStopLoop",
};

export function nodesModuleText(units: readonly Unit[], graphModule: string, support: string, problems: ImportProblems): string {
  const types = new Set<string>();
  const childTypes = new Map<string, Set<string>>();
  const helpers = new Set<string>();
  const todo = new Map<string, string>();
  const bodies: string[] = [];
  for (const u of units) {
    for (const n of u.w.nodes) {
      const child = u.children.get(n.id);
      if (child !== undefined) {
        types.add(`${u.name}State`);
        const module = child.file === undefined ? graphModule : `${child.file}.ts`;
        if (module === graphModule) types.add(`${child.unit.name}Input`);
        else childTypes.set(module, (childTypes.get(module) ?? new Set<string>()).add(`${child.unit.name}Input`));
        bodies.push(subgraphInput(u, n, child.unit.name, helpers));
        continue;
      }
      types.add(`${u.name}${pascalName(u.names.get(n.id)!)}Fn`);
      bodies.push(nodeBody(u, n, helpers, problems));
    }
    for (const [id, r] of u.plan.routers) {
      types.add(`${u.name}${pascalName(u.names.get(id)!)}Branch`);
      types.add(`${u.name}Node`);
      helpers.add("last");
      const cond = (e: WorkflowEdge) => condition(u, e, helpers, todo, problems);
      const fires = (e: WorkflowEdge) => [ran(u, e.from, id, r.continues[0]?.entry), emitted(u, e.from), cond(e)].filter((x) => x !== "true").join(" && ") || "true";
      // one test per target: several edges into one node fire it once
      const push = (list: string, edges: readonly { edge: WorkflowEdge; target: string }[]) =>
        [...new Set(edges.map((x) => x.target))].map((target) => {
          const tests = edges.filter((x) => x.target === target).map((x) => fires(x.edge));
          const add = `${list}.push(${JSON.stringify(u.names.get(target))});`;
          return tests.includes("true") ? `  ${add}` : `  if (${tests.map((t) => (tests.length > 1 && t.includes("&&") ? `(${t})` : t)).join(" || ")}) ${add}`;
        });
      const direct = (edges: readonly WorkflowEdge[]) => edges.map((edge) => ({ edge, target: edge.to }));
      const lines = [`/** After \`${id}\`: the edges whose condition holds on its latest message${r.exits.length > 0 ? "; an edge out of the cycle wins" : ""}. */`];
      lines.push(`export const ${routerFn(u, id)}: ${u.name}${pascalName(u.names.get(id)!)}Branch = (s) => {`);
      if (r.exits.length > 0) {
        appendAll(lines, [`  const exits: ${u.name}Node[] = [];`, ...push("exits", direct(r.exits)), "  if (exits.length > 0) return exits;"]);
      }
      appendAll(lines, [`  const next: ${u.name}Node[] = [];`, ...push("next", direct(r.edges))]);
      if (r.continues.length > 0) lines.push("  // the iteration ends here: run the cycle again if an edge back into its entry fired in it");
      appendAll(lines, push("next", r.continues.map((c) => ({ edge: c.edge, target: c.entry }))));
      lines.push("  return next.length > 0 ? next : END;", "};");
      bodies.push(lines.join("\n"));
    }
  }
  const usesEnd = units.some((u) => u.plan.routers.size > 0);
  const head = [
    `/**`,
    ` * Node functions of ${units.map((u) => u.name).join(", ")}, imported from ChatDev by \`graphc import chatdev\`: yours to edit.`,
    ` * Agent nodes call the model connected with \`connectAgent\` (${support}).`,
    ` */`,
    ...(usesEnd ? [`import { END } from "@graphc/runtime";`] : []),
    `import type { ${[...types].sort().join(", ")} } from "${graphModule}";`,
    ...[...childTypes].map(([m, t]) => `import type { ${[...t].sort().join(", ")} } from "${m}";`),
    ...(helpers.size > 0 ? [`import { ${[...helpers].sort().join(", ")} } from "${support}";`] : []),
  ];
  const todos = [...todo].map(([name, fn]) =>
    [
      `/** ChatDev condition function \`${name}\`: TODO, write it (true: the edge fires). */`,
      `function ${fn}(text: string): boolean {`,
      `  throw new Error(\`TODO: condition function "${name}" (imported from ChatDev) is not written yet; message: \${text.slice(0, 80)}\`);`,
      `}`,
    ].join("\n"),
  );
  return `${[head.join("\n"), ...todos, ...bodies].join("\n\n")}\n`;
}

/** `inputs(...)`: the task (start nodes) and the latest message of each predecessor it reads. */
function inputsExpr(u: Unit, n: WorkflowNode, helpers: Set<string>): string {
  helpers.add("inputs");
  const parts: string[] = [];
  if (u.plan.starts.includes(n.id)) parts.push("s.task");
  for (const p of u.plan.reads.get(n.id) ?? []) parts.push(`s.${outField(u, p)}`);
  return `inputs(${parts.join(", ")})`;
}

function nodeBody(u: Unit, n: WorkflowNode, helpers: Set<string>, problems: ImportProblems): string {
  const field = outField(u, n.id);
  const head = `export const ${nodeFn(u, n.id)}: ${u.name}${pascalName(u.names.get(n.id)!)}Fn =`;
  const step = u.plan.stepTracked.has(n.id) ? `, ${stepField(u, n.id)}: ctx.step` : "";
  const doc = (what: string) => `/** ${JSON.stringify(n.id).slice(1, -1)} (${n.type}): ${what} */`;
  const str = (key: string) => (typeof n.config[key] === "string" ? u.vars.text(n.config[key] as string) : undefined);
  switch (n.type) {
    case "literal": {
      const content = str("content") ?? '""';
      return `${doc("a fixed message")}\n${head} (${params(content + step, false)}) => ({ ${field}: [${content}]${step} });`;
    }
    case "passthrough": {
      const all = n.config["only_last_message"] === false;
      const ins = inputsExpr(u, n, helpers);
      return `${doc(all ? "forwards every input" : "forwards its latest input")}\n${head} (${params(step, true)}) => ({ ${field}: [${all ? `${ins}.join("\\n\\n")` : `${ins}.at(-1) ?? ""`}]${step} });`;
    }
    case "loop_counter": {
      const { max, reset, message } = loopCounter(n);
      const hits = hitsField(u, n.id);
      const emit = reset ? `hits % ${max} === 0` : `hits === ${max}`;
      const msg = u.vars.text(message);
      return [
        doc(`emits once it has been hit ${max} times${reset ? " (and again every " + max + " hits)" : ""}; its edges fire only then`),
        `${head} (${params(msg + step, true)}) => {`,
        `  const hits = s.${hits} + 1;`,
        `  return ${emit} ? { ${hits}: 1, ${field}: [${msg}]${step} } : { ${hits}: 1${step} };`,
        `};`,
      ].join("\n");
    }
    case "human": {
      const prompt = n.description === undefined ? JSON.stringify(`${n.id}: your answer`) : u.vars.text(n.description);
      problems.warning(u.w.file, n.line, n.path, `human node \`${n.id}\` pauses the run with an interrupt: run the graph with a checkpointer and resume with the answer`);
      return [
        doc("asks a person: the run pauses (an interrupt) until it is resumed with the answer"),
        `${head} (s, ctx) => ({`,
        `  ${field}: [ctx.interrupt<string>({ node: ${JSON.stringify(n.id)}, prompt: ${prompt}, inputs: ${inputsExpr(u, n, helpers)} })]${step},`,
        `});`,
      ].join("\n");
    }
    case "agent": {
      helpers.add("runAgent");
      const props = [`graph: ${JSON.stringify(u.name)}`, `node: ${JSON.stringify(n.id)}`, `role: ${str("role") ?? '""'}`];
      const provider = str("provider");
      const model = str("name");
      if (provider !== undefined) props.push(`provider: ${provider}`);
      if (model !== undefined) props.push(`model: ${model}`);
      props.push(`inputs: ${inputsExpr(u, n, helpers)}`, `history: ${n.contextWindow !== 0 ? `s.${field}` : "[]"}`);
      for (const key of ["tooling", "memories", "skills", "thinking"]) {
        if (n.config[key] !== undefined) problems.warning(u.w.file, n.line, `${n.path}.config.${key}`, `agent \`${n.id}\`: \`${key}\` has no counterpart; the connected model gets the role and messages only`);
      }
      const usesCtx = step !== "" || props.some((p) => p.includes("ctx."));
      return [
        doc("calls the connected model"),
        `${head} async (s${usesCtx ? ", ctx" : ""}) => ({`,
        `  ${field}: [await runAgent({ ${props.join(", ")} })]${step},`,
        `});`,
      ].join("\n");
    }
    default:
      // a subgraph node whose child failed to load is reported there (and nothing is written)
      if (n.type !== "subgraph") problems.warning(u.w.file, n.line, n.path, `node type \`${n.type}\` of \`${n.id}\` has no counterpart: its function throws a TODO`);
      return `${doc("no counterpart in graphc")}\n${head} () => {\n  throw new Error(${JSON.stringify(`TODO: ChatDev node '${n.id}' (type ${n.type}) has no counterpart in graphc; write it in this module`)});\n};`;
  }
}

/** `s` and/or `ctx` as the text of the body needs them. */
function params(body: string, usesState: boolean): string {
  const ctx = body.includes("ctx.");
  return usesState ? (ctx ? "s, ctx" : "s") : ctx ? "_s, ctx" : "";
}

function subgraphInput(u: Unit, n: WorkflowNode, child: string, helpers: Set<string>): string {
  return [
    `/** What \`${n.id}\` hands its subgraph: its inputs as one task (ChatDev gives each start node all of them). */`,
    `export function ${inputFn(u, n.id)}(s: ${u.name}State): ${child}Input {`,
    `  return { task: ${inputsExpr(u, n, helpers)}.join("\\n\\n") };`,
    `}`,
  ].join("\n");
}

/** A loop counter's edges fire only in the step it emitted. */
function emitted(u: Unit, id: string): string {
  const n = u.w.nodes.find((x) => x.id === id)!;
  if (n.type !== "loop_counter") return "true";
  const { max, reset } = loopCounter(n);
  return reset ? `s.${hitsField(u, id)} % ${max} === 0` : `s.${hitsField(u, id)} === ${max}`;
}

/** A back edge from another node of the cycle counts only if that node ran in this iteration. */
function ran(u: Unit, from: string, owner: string, entry: string | undefined): string {
  if (from === owner || entry === undefined || from === entry) return "true";
  return `s.${stepField(u, from)} >= s.${stepField(u, entry)}`;
}

function condition(u: Unit, e: WorkflowEdge, helpers: Set<string>, todo: Map<string, string>, problems: ImportProblems): string {
  const text = `last(s.${outField(u, e.from)})`;
  const c: Condition = e.condition;
  switch (c.kind) {
    case "always":
      return c.value ? "true" : "false";
    case "keyword":
      helpers.add("keyword");
      return `keyword(${text}, ${JSON.stringify({ any: c.any, none: c.none, regex: c.regex, caseSensitive: c.caseSensitive })})`;
    case "function": {
      const known = BUILT_IN_CONDITIONS[c.name];
      if (known !== undefined) {
        helpers.add(known);
        return `${known}(${text})`;
      }
      const fn = `condition${pascalName(c.name)}`;
      if (!todo.has(c.name)) problems.warning(u.w.file, e.line, e.path, `condition function \`${c.name}\` is ChatDev code: a TODO function \`${fn}\` stands in for it`);
      todo.set(c.name, fn);
      return `${fn}(${text})`;
    }
  }
}
