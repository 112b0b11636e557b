/**
 * One ChatDev graph on its way to `.graph` text: its plan, the `.graph` names of its nodes and fields, its
 * vars and its subgraph children. A YAML file's graph and its inline subgraphs share one `.graph` file and
 * one node module; a file subgraph is a unit of its own file.
 */
import type { Plan } from "./topology.ts";
import type { VarTable } from "./vars.ts";
import type { Workflow, WorkflowNode } from "./workflow.ts";

export interface Unit {
  readonly w: Workflow;
  /** the `.graph` graph name */
  readonly name: string;
  readonly plan: Plan;
  /** node id → node name (its fields are named after it) */
  readonly names: ReadonlyMap<string, string>;
  readonly vars: VarTable;
  /** subgraph node id → its child graph, and the `.graph` file it lives in when that is another file */
  readonly children: ReadonlyMap<string, { readonly unit: Unit; readonly file?: string | undefined }>;
}

/** the messages a node emitted (a node may not share its name with a field) */
export const outField = (u: Unit, id: string) => `${u.names.get(id)}_out`;
export const hitsField = (u: Unit, id: string) => `${u.names.get(id)}_hits`;
export const stepField = (u: Unit, id: string) => `${u.names.get(id)}_step`;

/** The fields a node writes (its messages, its loop counter, the step it ran at). */
export function writesOf(u: Unit, n: WorkflowNode): string[] {
  const out = [outField(u, n.id)];
  if (n.type === "loop_counter") out.push(hitsField(u, n.id));
  if (u.plan.stepTracked.has(n.id)) out.push(stepField(u, n.id));
  return out;
}

/** The fields a node reads: the task (start nodes), its predecessors' messages, its own (memory, counter). */
export function readsOf(u: Unit, n: WorkflowNode): string[] {
  const out: string[] = [];
  if (u.plan.starts.includes(n.id)) out.push("task");
  for (const p of u.plan.reads.get(n.id) ?? []) out.push(outField(u, p));
  const own = outField(u, n.id);
  if (n.contextWindow !== 0 && n.type === "agent" && !out.includes(own)) out.push(own);
  if (n.type === "loop_counter") out.push(hitsField(u, n.id));
  return out;
}

/** Loop counters emit once they have been hit `max_iterations` times (every N hits with `reset_on_emit`). */
export function loopCounter(n: WorkflowNode): { max: number; reset: boolean; message: string } {
  const max = typeof n.config["max_iterations"] === "number" && n.config["max_iterations"] >= 1 ? Math.floor(n.config["max_iterations"]) : 10;
  const message = typeof n.config["message"] === "string" ? n.config["message"] : `loop limit reached (${max})`;
  return { max, reset: n.config["reset_on_emit"] === true, message };
}
