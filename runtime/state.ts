/**
 * getState, getStateHistory and updateState of a compiled graph (reference §5): a loop rebuilt from a saved
 * checkpoint, inspected without running anything. Installed by "@graphc/runtime" (install.ts).
 */
import type { CheckpointSaver, RunnableConfig } from "./checkpoint/types.ts";
import * as durable from "./durable.ts";
import { GraphInputError, missingCheckpointer } from "./errors.ts";
import type { Interrupt } from "./errors.ts";
import type { CompiledGraph, Configurable, RunConfig, StateSnapshot, StateTask } from "./graph.ts";
import { Loop } from "./loop.ts";
import { taskResult } from "./results.ts";
import type { GraphSpec } from "./spec.ts";
import { START } from "./spec.ts";

function saverFor(graph: CompiledGraph<unknown, unknown, unknown, string, unknown>, config: RunConfig | RunnableConfig | undefined): CheckpointSaver {
  const saver =
    (config as RunConfig | undefined)?.checkpointer ?? graph.defaults.checkpointer ?? graph.options.checkpointer;
  if (!saver) throw missingCheckpointer({ graph: graph.spec.name });
  return saver;
}

/** The spec of the graph that owns checkpoint namespace `ns` ("" = this graph). */
function specForNs(graph: CompiledGraph<unknown, unknown, unknown, string, unknown>, ns: string): GraphSpec {
  let spec = graph.spec;
  if (ns === "") return spec;
  for (const seg of ns.split("|")) {
    const name = seg.split(":")[0]!;
    const node = spec.nodes.find((n) => n.name === name);
    if (!node?.subgraph)
      throw new GraphInputError(`No subgraph for checkpoint namespace "${ns}" in graph "${graph.spec.name}"`, {
        graph: graph.spec.name,
        node: name,
      });
    spec = node.subgraph;
  }
  return spec;
}

function inspectLoop(graph: CompiledGraph<unknown, unknown, unknown, string, unknown>, config: RunnableConfig | RunConfig): Loop {
  const saver = saverFor(graph, config);
  const configurable = (config.configurable ?? {}) as Configurable;
  const ns = configurable.checkpoint_ns ?? "";
  const run = graph.makeRun({ ...(config as RunConfig), checkpointer: saver }, undefined, undefined);
  return new Loop(specForNs(graph, ns), run, { nsArr: ns === "" ? [] : ns.split("|") });
}

export async function getState(graph: CompiledGraph<unknown, unknown, unknown, string, unknown>, config: RunnableConfig | RunConfig, options: { subgraphs?: boolean } = {}): Promise<StateSnapshot> {
  const loop = inspectLoop(graph, config);
  const cpId = (config.configurable as Configurable | undefined)?.checkpoint_id;
  const tuple = await durable.load(loop, cpId, false);
  if (!tuple) {
    return {
      values: {},
      next: [],
      tasks: [],
      metadata: undefined,
      config: config as RunnableConfig,
      createdAt: undefined,
      parentConfig: undefined,
    };
  }
  return snapshot(graph, loop, tuple.checkpoint.ts, tuple.parentConfig, cpId === undefined, options.subgraphs === true);
}

export async function* getStateHistory(
  graph: CompiledGraph<unknown, unknown, unknown, string, unknown>,
  config: RunnableConfig | RunConfig,
  options: { limit?: number; before?: RunnableConfig; filter?: Record<string, unknown> } = {},
): AsyncGenerator<StateSnapshot> {
  const saver = saverFor(graph, config);
  const configurable = (config.configurable ?? {}) as Configurable;
  const listCfg: RunnableConfig = {
    configurable: { ...configurable, checkpoint_ns: configurable.checkpoint_ns ?? "" },
  };
  for await (const tuple of saver.list(listCfg, options)) {
    const loop = inspectLoop(graph, config);
    durable.restore(loop, tuple);
    yield await snapshot(graph, loop, tuple.checkpoint.ts, tuple.parentConfig, false, false);
  }
}

async function snapshot(
  graph: CompiledGraph<unknown, unknown, unknown, string, unknown>,
  loop: Loop,
  createdAt: string,
  parentConfig: RunnableConfig | undefined,
  applyPending: boolean,
  subgraphs: boolean,
): Promise<StateSnapshot> {
  const tasks = durable.listTasks(loop);
  const pending = loop.pending;
  const out: StateTask[] = [];
  for (const t of tasks) {
    const st: StateTask = { id: t.id, name: t.name, path: t.path, interrupts: [] };
    for (const [tid, ch, v] of pending) {
      if (tid !== t.id) continue;
      if (ch === "__interrupt__") st.interrupts.push(...(v as Interrupt[]));
      else if (ch === "__error__") st.error = v;
    }
    if (t.cached) st.result = taskResult(t.updates);
    const sub = t.cn.spec.subgraph;
    if (sub) {
      const childNs = sub.stateful ? [...loop.nsArr, t.name].join("|") : t.namespace.join("|");
      const childCfg: RunnableConfig = { configurable: { thread_id: loop.run.threadId!, checkpoint_ns: childNs } };
      st.state = subgraphs
        ? await getState(graph, { ...childCfg, checkpointer: loop.run.saver! } as RunConfig, { subgraphs: true })
        : childCfg;
    }
    out.push(st);
  }
  const values = applyPending ? durable.valuesWithPending(loop, tasks) : { ...loop.values };
  return {
    values,
    next: (applyPending ? tasks.filter((t) => !t.cached) : tasks).map((t) => t.name),
    tasks: out,
    metadata: loop.metadata,
    config: loop.cpConfig!,
    createdAt,
    parentConfig,
  };
}

/**
 * Writes `values` as if node `asNode` had returned them (its edges and routers run too) and saves an
 * "update" checkpoint. `asNode` END with `null` drops unfinished tasks; "__copy__" forks; "__input__" is
 * new input. Returns the new checkpoint's config.
 */
export async function updateState(graph: CompiledGraph<unknown, unknown, unknown, string, unknown>, config: RunnableConfig | RunConfig, values: unknown, asNode?: string): Promise<RunnableConfig> {
  const loop = inspectLoop(graph, config);
  const cpId = (config.configurable as Configurable | undefined)?.checkpoint_id;
  const tuple = await durable.load(loop, cpId, false);
  const node = asNode ?? (tuple ? durable.lastNode(loop) : START);
  return durable.update(loop, values, node);
}
